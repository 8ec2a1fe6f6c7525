package dev.fulcrum.ui.requests;

import static dev.fulcrum.ui.requests.Samples.failed;
import static dev.fulcrum.ui.requests.Samples.ok;
import static dev.fulcrum.ui.requests.Samples.request;
import static dev.fulcrum.ui.requests.Samples.success;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.admin.Har;
import dev.fulcrum.requests.RequestSample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The window's HAR export: the file written parses, and is the document {@link Har} builds. */
class HarExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void theFileIsWhatHarBuildsOldestFirst() throws Exception {
        List<RequestSample> newestFirst = List.of(
                request("0:3", 3000, "api", "/api/x", 200, "api-2", List.of(failed("api-1", "CONNECT_FAILURE"),
                        success("api-2"))),
                ok("0:2", 2000, "a"),
                ok("0:1", 1000, "a"));
        Path file = dir.resolve("fulcrum.har");

        Path written = HarExport.write(newestFirst, file).get(10, TimeUnit.SECONDS);

        assertThat(written).isEqualTo(file.toAbsolutePath());
        JsonNode har = JSON.readTree(Files.readString(file));
        assertThat(har).isEqualTo(JSON.readTree(JSON.writeValueAsString(Har.of(newestFirst))));
        assertThat(har.at("/log/version").asText()).isEqualTo("1.2");
        assertThat(har.at("/log/entries")).hasSize(3);
        assertThat(har.at("/log/entries/0/request/url").asText()).isEqualTo("http://localhost:8080/p/0:1");
        assertThat(har.at("/log/entries/2/_attempts/0/outcome").asText()).isEqualTo("connect-failure");
        assertThat(har.at("/log/entries/2/request/headers/1/value").asText()).isEqualTo("sid=***");
        try (var left = Files.list(dir)) {
            assertThat(left).as("no part file left behind").containsExactly(file);
        }
    }

    @Test
    void aFolderThatIsNotThereFailsTheExportNamingTheFile() {
        Path file = dir.resolve("missing/fulcrum.har");

        assertThatThrownBy(() -> HarExport.write(List.of(ok("0:1", 1, "a")), file).get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasMessageContaining("cannot write " + file.toAbsolutePath());
    }
}
