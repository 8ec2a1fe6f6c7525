package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    @Test
    void oneFailedWriteDoesNotStopTheAccessLogForGood(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("access.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();

        CompletableFuture<FileInputStream> firstReader = CompletableFuture.supplyAsync(() -> {
            try {
                return new FileInputStream(fifo.toFile()); // blocks until the log opens its end
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        AccessLog log = new AccessLog(fifo.toString());
        FileInputStream in1 = firstReader.get(5, TimeUnit.SECONDS);
        BufferedReader r1 = new BufferedReader(new InputStreamReader(in1, StandardCharsets.UTF_8));
        log.log(System.currentTimeMillis(), "GET", "/first", 200, "a", 1, 1_000, 5);
        assertThat(r1.readLine()).contains("\"path\":\"/first\"");

        in1.close(); // the log shipper restarts: this write fails once
        log.log(System.currentTimeMillis(), "GET", "/while-no-reader", 200, "a", 1, 1_000, 5);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(() -> log.dropped() == 1);

        // the shipper is back
        FileInputStream in2 = new FileInputStream(fifo.toFile());
        BufferedReader r2 = new BufferedReader(new InputStreamReader(in2, StandardCharsets.UTF_8));
        log.log(System.currentTimeMillis(), "GET", "/after", 200, "a", 1, 1_000, 5);
        CompletableFuture<String> next = CompletableFuture.supplyAsync(() -> {
            try {
                return r2.readLine();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        String line;
        try {
            line = next.get(3, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            line = null;
        } finally {
            in2.close();
            log.close();
        }
        assertThat(line).as("a line logged after the destination works again").contains("\"path\":\"/after\"");
    }
}
