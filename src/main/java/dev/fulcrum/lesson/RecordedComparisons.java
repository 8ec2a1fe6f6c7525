package dev.fulcrum.lesson;

import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.replay.Comparison;
import dev.fulcrum.replay.ComparisonResult;
import dev.fulcrum.replay.Recording;
import dev.fulcrum.replay.Recordings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The side-by-side comparison of a recording as a lesson runs it ({@link Expectation.RecordedP99}): the recording and
 * the config are the shipped classpath resources ({@code samples/recordings/...}, inside the jar) or, failing that,
 * files. A recording inside the jar is copied to a temporary file once, since the readers stream from a path.
 */
final class RecordedComparisons {
    private static final java.util.Map<String, Path> COPIES = new java.util.HashMap<>();

    private RecordedComparisons() {
    }

    static boolean exists(String name) {
        return RecordedComparisons.class.getClassLoader().getResource(name) != null || Files.isRegularFile(Path.of(name));
    }

    static ComparisonResult compare(String recording, String on, List<StrategySpec> strategies) {
        FulcrumConfig cfg = RecordedComparisons.class.getClassLoader().getResource(on) != null
                ? ConfigLoader.loadResource(on) : ConfigLoader.load(Path.of(on));
        try (Recording r = Recordings.open(file(recording), null, null)) {
            return Comparison.run(r, Comparison.backendsOf(cfg), strategies, share -> { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static synchronized Path file(String name) throws IOException {
        Path copy = COPIES.get(name);
        if (copy != null && Files.isRegularFile(copy)) {
            return copy;
        }
        try (InputStream in = RecordedComparisons.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                return Path.of(name);
            }
            String base = Path.of(name).getFileName().toString();
            Path tmp = Files.createTempFile("fulcrum-", "-" + base);
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            COPIES.put(name, tmp);
            return tmp;
        }
    }
}
