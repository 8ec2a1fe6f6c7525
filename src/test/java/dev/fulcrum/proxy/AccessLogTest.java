package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessLogTest {

    @Test
    void latencyIsWrittenInMillisecondsWithoutTrailingZeros() {
        assertThat(millis(0)).isEqualTo("0.0");
        assertThat(millis(42_000)).isEqualTo("0.042");
        assertThat(millis(12_500_000)).isEqualTo("12.5");
        assertThat(millis(2_000_000)).isEqualTo("2.0");
        assertThat(millis(1_230_400)).isEqualTo("1.23");
        assertThat(millis(999_999_600)).isEqualTo("1000.0"); // rounds to the nearest microsecond
        assertThat(millis(-5)).isEqualTo("0.0");
    }

    @Test
    void linesFromManyThreadsAreAllWrittenOnClose(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("access.log");
        AccessLog log = new AccessLog(file.toString());
        int threads = 4;
        int each = 2_000;
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            int n = t;
            new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    log.log(0, "GET", "/t" + n + "/" + i, 200, "b" + n, 1, 1_000, 5);
                }
                done.countDown();
            }).start();
        }
        done.await();
        log.close();
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(threads * each);
        assertThat(log.dropped()).isZero();
        // one thread's lines keep their order
        List<String> fromZero = lines.stream().filter(l -> l.contains("\"/t0/")).toList();
        for (int i = 0; i < each; i++) {
            assertThat(fromZero.get(i)).contains("\"path\":\"/t0/" + i + "\"");
        }
    }

    @Test
    void pathsAreEscapedIntoValidJson(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("access.log");
        AccessLog log = new AccessLog(file.toString());
        String path = "/q\"uote\\back\u0001ctl\ttab/caf\u00e9";
        log.log(0, "GET", path, 200, null, 1, 0, 0);
        log.close();
        var line = new com.fasterxml.jackson.databind.ObjectMapper().readTree(Files.readString(file));
        assertThat(line.get("path").asText()).isEqualTo(path);
        assertThat(line.get("backend").isNull()).isTrue();
        assertThat(line.get("time").asText()).isEqualTo("1970-01-01T00:00:00.000Z");
    }

    @Test
    void aLogPointedAtDevNullKeepsNothingAndStartsNoWriter() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/null")));
        long writers = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("fulcrum-access-log")).count();
        AccessLog log = new AccessLog("/dev/null");
        assertThat(log.enabled()).isFalse();
        log.log(0, "GET", "/", 200, "a", 1, 0, 0);
        assertThat(Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("fulcrum-access-log")).count())
                .isEqualTo(writers);
        log.close();
        try (AccessLog toStandardError = new AccessLog(null)) { // the default
            assertThat(toStandardError.enabled()).isTrue();
        }
    }

    private static String millis(long nanos) {
        StringBuilder b = new StringBuilder();
        AccessLog.appendMillis(b, nanos);
        return b.toString();
    }
}
