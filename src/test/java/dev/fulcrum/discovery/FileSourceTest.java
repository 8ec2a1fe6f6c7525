package dev.fulcrum.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.engine.BackendSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A discovery file is hand-written like the config (or written by a script with a bug): a value of the wrong type is
 * refused with its path and value, as in the config file, instead of being converted ("yes" read as false, "5" as 5,
 * 1.7 as 1), and the last good list stays.
 */
class FileSourceTest {
    private static final String ENTRY = "{ \"id\": \"a\", \"url\": \"http://127.0.0.1:9001\", ";

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
            "backup      | \"yes\" | must be true or false",
            "backup      | 1       | must be true or false",
            "maxInFlight | \"5\"   | must be an integer",
            "maxInFlight | 1.7     | must be an integer",
            "maxInFlight | \"\"    | must be an integer",
            "maxInFlight | 0       | 'must be at least 1, or null for no cap'",
            "weight      | \"5\"   | must be an integer",
    })
    void aFieldOfTheWrongTypeIsAnErrorNamingItsPathAndValue(String field, String value, String message,
                                                            @TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("backends.json"), "[ " + ENTRY + "\"" + field + "\": " + value + " } ]");

        assertThatThrownBy(() -> source(file).resolve())
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file + "[0]." + field + ": " + message + " (got: " + value + ")");
    }

    @Test
    void anIdOrUrlThatIsNotAStringIsAnError(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("backends.json"), "[ { \"id\": 7, \"url\": \"http://127.0.0.1:9001\" } ]");

        assertThatThrownBy(() -> source(file).resolve()).hasMessageContaining(file + "[0].id: must be a string (got: 7)");
    }

    @Test
    void invalidJsonSaysWhereAndWhatInOneLine(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("backends.json"), "[\n  { id: \"a\" }\n]");

        assertThatThrownBy(() -> source(file).resolve())
                .hasMessage(file + "[0]: invalid JSON at line 2, column 5: expected a field name in double quotes (got: i)");
    }

    @Test
    void aValidListIsReadWithItsDefaults(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("backends.json"), "[ " + ENTRY + "\"backup\": true },"
                + " { \"id\": \"b\", \"url\": \"http://127.0.0.1:9002\", \"weight\": 3, \"maxInFlight\": 10 } ]");

        assertThat(source(file).resolve()).containsExactly(
                new BackendSpec("a", "http://127.0.0.1:9001", 1, null, true),
                new BackendSpec("b", "http://127.0.0.1:9002", 3, 10, false));
    }

    @Test
    void labelsAreReadAndAWrongOneIsNamedByItsPath(@TempDir Path dir) throws IOException {
        Path good = Files.writeString(dir.resolve("good.json"), "[ " + ENTRY + "\"labels\": {\"zone\": \"b\"} } ]");
        assertThat(source(good).resolve()).containsExactly(
                new BackendSpec("a", "http://127.0.0.1:9001", 1, null, false, java.util.Map.of("zone", "b")));

        Path bad = Files.writeString(dir.resolve("bad.json"), "[ " + ENTRY + "\"labels\": {\"cost\": 0.2} } ]");
        assertThatThrownBy(() -> source(bad).resolve())
                .hasMessageContaining(bad + "[0].labels.cost: must be a string (got: 0.2)");
    }

    private static FileSource source(Path file) {
        return new FileSource(DiscoveryConfig.file(file.toString(), 60_000));
    }
}
