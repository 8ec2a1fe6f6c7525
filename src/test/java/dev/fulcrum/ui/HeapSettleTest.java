package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeapSettleTest {
    private final ManualClock clock = new ManualClock();
    private final List<Long> collections = new ArrayList<>();
    /** The free ratios each time they were set: "at s: min/max". */
    private final List<String> ratioChanges = new ArrayList<>();
    private double load;
    /** The JVM's collections so far, as the class reads them. */
    private long gcs;
    private int min = 10;
    private int max = 30;

    /** The JVM's free ratios as the class sets them, each change recorded. */
    private final HeapSettle.FreeRatios ratios = new HeapSettle.FreeRatios() {
        @Override
        public int min() {
            return min;
        }

        @Override
        public int max() {
            return max;
        }

        @Override
        public void set(int newMin, int newMax) {
            min = newMin;
            max = newMax;
            ratioChanges.add("at " + seconds() + ": " + min + "/" + max);
        }
    };

    /** How long a cycle asked for holds up the checks' thread. */
    private Duration cycle = Duration.ZERO;

    private HeapSettle started() {
        HeapSettle s = new HeapSettle(clock, () -> load, () -> gcs, () -> {
            collections.add(seconds());
            clock.stall(cycle); // System.gc() returns when the cycle ends
        }, ratios);
        s.start();
        return s;
    }

    private long seconds() {
        return TimeUnit.NANOSECONDS.toSeconds(clock.nanos() - ManualClock.START_NANOS);
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

    /** Advances {@code seconds} a second at a time, the JVM collecting {@code perSecond} times in each. */
    private void run(int seconds, int perSecond) {
        for (int i = 0; i < seconds; i++) {
            gcs += perSecond;
            clock.advanceMillis(1_000);
        }
    }

    @Test
    void aBusyMachineCollectingOftenGetsARoomyHeapUntilItIsQuietAgain() {
        started();
        run(20, 0);
        load = 0.97;
        run(5, 0);                    // busy at 25 s, no collection since 20 s: the heap is not tight
        assertThat(ratioChanges).isEmpty();
        run(5, 3);                    // 15 collections by 30 s: tight once
        assertThat(ratioChanges).isEmpty();
        run(5, 3);                    // and again at 35 s: widened, with one cycle
        assertThat(ratioChanges).containsExactly("at 35: 70/70");
        assertThat(collections).containsExactly(5L, 35L);
        run(30, 3);                   // still busy and collecting: nothing more
        assertThat(ratioChanges).containsExactly("at 35: 70/70");
        assertThat(collections).containsExactly(5L, 35L);
        load = 0.3;
        run(10, 0);                   // quiet at 70 and 75 s: the launch's ratios back, and a cycle to give back
        assertThat(ratioChanges).containsExactly("at 35: 70/70", "at 75: 10/30");
        assertThat(collections).containsExactly(5L, 35L, 75L);
        load = 0.95;                  // a second load
        run(10, 2);
        assertThat(ratioChanges).containsExactly("at 35: 70/70", "at 75: 10/30", "at 85: 70/70");
    }

    @Test
    void aCheckThatComesLateDoesNotCount() {
        started();
        run(10, 0);
        load = 0.97;
        run(10, 3);                   // widened at 20 s
        assertThat(ratioChanges).containsExactly("at 20: 70/70");
        clock.stall(Duration.ofSeconds(13)); // SIGSTOP from 20 to 33 s: the check due at 25 s runs at 33 s
        load = 0.2;
        clock.runDue();               // late: what it read covers 13 s, not 5
        run(5, 0);                    // quiet once, at 38 s
        assertThat(ratioChanges).containsExactly("at 20: 70/70");
        run(5, 0);                    // and twice: given back
        assertThat(ratioChanges).containsExactly("at 20: 70/70", "at 43: 10/30");
    }

    @Test
    void aLongCycleAskedForDoesNotMakeTheNextCheckLate() {
        started();
        run(10, 0);
        cycle = Duration.ofSeconds(7); // a concurrent cycle beside a saturating proxy
        load = 0.97;
        run(10, 3);                   // widened at 20 s, the checks' thread held until 27 s
        load = 0.2;
        run(10, 0);                   // quiet at 32 and 37 s: given back
        assertThat(ratioChanges).containsExactly("at 20: 70/70", "at 37: 10/30");
    }

    @Test
    void aHeapCollectedOftenOnABusyButNotSaturatedMachineIsKept() {
        started();
        load = 0.85;                  // the window animating 1,000 req/s with the installers' small heap
        run(30, 2);
        assertThat(ratioChanges).isEmpty();
        assertThat(collections).containsExactly(5L);
    }

    @Test
    void oneTightReadingAloneIsNotEnough() {
        started();
        run(5, 0);
        for (int i = 0; i < 6; i++) { // a load's start collecting in bursts: tight, then not, then tight again
            load = 0.97;
            run(5, i % 2 == 0 ? 3 : 0);
        }
        assertThat(ratioChanges).isEmpty();
    }

    @Test
    void ratiosTheLaunchSetRoomierAreKept() {
        min = 80;
        max = 95;
        started();
        load = 0.97;
        run(15, 2);
        assertThat(ratioChanges).containsExactly("at 15: 80/95");
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
     * What the class relies on, in a JVM of its own with the installers' heap options: {@code System.gc()} is a
     * concurrent cycle (no pause of the whole heap) at whose end G1 sizes the heap by the free ratios a running process
     * set; with 40 MB live, the busy ratios grow the heap to at least 40 / (1 - 0.7) MB, and the launch's, restored
     * once quiet, give it back. Without {@code -XX:+ExplicitGCInvokesConcurrent} no collection is asked for.
     */
    @Test
    void theRatiosItSetsResizeTheHeapAtTheCyclesItAsksFor(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("gc.log");
        String out = probe("-XX:+ExplicitGCInvokesConcurrent", "-Xlog:gc:file=" + log);
        assertThat(out).startsWith("concurrent=true settling=true ");
        assertThat(Files.readString(log, StandardCharsets.UTF_8))
                .contains("Pause Young (Concurrent Start) (System.gc())").doesNotContain("Pause Full");
        // "rest=<MB committed> busy=<MB> quiet=<MB> ratios=<min/max busy> <min/max quiet>"
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("rest=(\\d+) busy=(\\d+) quiet=(\\d+) ratios=70/70 10/30").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        long rest = Long.parseLong(m.group(1));
        long busy = Long.parseLong(m.group(2));
        long quiet = Long.parseLong(m.group(3));
        assertThat(busy).as(out).isGreaterThanOrEqualTo(130).isGreaterThan(rest);
        assertThat(quiet).as(out).isLessThan(busy);

        String plain = probe("-XX:-ExplicitGCInvokesConcurrent", "-Xlog:gc:file=" + log);
        assertThat(plain).as(plain).startsWith("concurrent=false settling=true ").contains("ratios=70/70 10/30");
        assertThat(Files.readString(log, StandardCharsets.UTF_8)).doesNotContain("System.gc()");
    }

    private static String probe(String... jvmOptions) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseG1GC", "-Xmx512m",
                "-Xms16m", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30"));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), HeapSettleProbe.class.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
