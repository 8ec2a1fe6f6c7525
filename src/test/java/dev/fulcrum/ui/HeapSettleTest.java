package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapSettleTest {
    private final ManualClock clock = new ManualClock();
    private final List<Long> collections = new ArrayList<>();
    private double load;

    private HeapSettle started() {
        HeapSettle s = new HeapSettle(clock, () -> load,
                () -> collections.add(TimeUnit.NANOSECONDS.toSeconds(clock.nanos() - ManualClock.START_NANOS)));
        s.start();
        return s;
    }

    @Test
    void oneCollectionOnceTheStartHasSettledAndNoneWhileTheMachineStaysQuiet() {
        started();
        clock.advanceMillis(4_999);
        assertThat(collections).isEmpty();
        clock.advanceMillis(1);
        assertThat(collections).containsExactly(5L);
        clock.advanceMillis(120_000);
        assertThat(collections).containsExactly(5L);
    }

    @Test
    void oneMoreWhenTheMachineIsQuietTwiceInARowAfterASaturatingLoad() {
        started();
        clock.advanceMillis(20_000);  // checks at 10, 15 and 20 s
        load = 0.97;                  // wrk from 20 s to 60 s
        clock.advanceMillis(40_000);
        assertThat(collections).containsExactly(5L);
        load = 0.3;                   // the window at rest
        clock.advanceMillis(5_000);   // one quiet check is not yet enough
        assertThat(collections).containsExactly(5L);
        clock.advanceMillis(5_000);
        assertThat(collections).containsExactly(5L, 70L);
        clock.advanceMillis(60_000);  // quiet from then on: nothing more to give back
        assertThat(collections).containsExactly(5L, 70L);
    }

    @Test
    void aMiddlingReadingBetweenTwoQuietOnesStartsTheCountAgain() {
        started();
        clock.advanceMillis(10_000);
        load = 0.8;
        clock.advanceMillis(5_000);   // busy at 15 s
        load = 0.3;
        clock.advanceMillis(5_000);   // quiet at 20 s
        load = 0.6;
        clock.advanceMillis(5_000);   // a workshop's load at 25 s
        load = 0.1;
        clock.advanceMillis(5_000);   // quiet at 30 s
        assertThat(collections).containsExactly(5L);
        clock.advanceMillis(5_000);   // and at 35 s
        assertThat(collections).containsExactly(5L, 35L);
    }

    /**
     * What the class relies on, in a JVM of its own: with {@code -XX:+ExplicitGCInvokesConcurrent} it starts its
     * thread and {@code System.gc()} starts a concurrent cycle (no pause of the whole heap); without the flag it
     * starts nothing.
     */
    @Test
    void itStartsOnlyWhereSystemGcIsAConcurrentCycle(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("gc.log");
        assertThat(probe("-XX:+ExplicitGCInvokesConcurrent", "-Xlog:gc:file=" + log))
                .isEqualTo("concurrent=true settling=true");
        assertThat(Files.readString(log, StandardCharsets.UTF_8))
                .contains("Pause Young (Concurrent Start) (System.gc())").doesNotContain("Pause Full");
        assertThat(probe("-XX:-ExplicitGCInvokesConcurrent")).isEqualTo("concurrent=false settling=false");
    }

    private static String probe(String... jvmOptions) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseG1GC"));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), HeapSettleProbe.class.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
