package dev.fulcrum.requests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RequestStreamTest {
    private static final RequestStream.Headers NO_HEADERS = o -> List.of(new RequestSample.Header("x", (String) o));

    private static void write(RequestStream s, int n) {
        RequestStream.Slot slot = s.claim();
        slot.startNanos = 1_000_000L * n;
        slot.endNanos = slot.startNanos + 2_000_000L;
        slot.pool = "default";
        slot.method = "GET";
        slot.path = "/" + n;
        slot.status = 200 + n % 300;
        slot.backend = "b" + n;
        slot.attempt("b" + n, "success", 2_000_000L);
        slot.requestHeaders = "h" + n;
        s.publish(slot);
    }

    @Test
    void aCursorSeesEachRequestOnceInOrderAndCountsWhatWasOverwritten() {
        RequestStream s = new RequestStream(4, NO_HEADERS);
        RequestStream.Cursor c = s.fromOldest();
        write(s, 1);
        write(s, 2);

        List<RequestSample> seen = new ArrayList<>();
        assertThat(c.poll(seen::add)).isEqualTo(2);
        assertThat(seen).extracting(RequestSample::path).containsExactly("/1", "/2");
        assertThat(c.poll(seen::add)).isZero();

        for (int i = 3; i <= 9; i++) {
            write(s, i);
        }
        seen.clear();
        c.poll(seen::add);

        assertThat(seen).extracting(RequestSample::path).containsExactly("/6", "/7", "/8", "/9");
        assertThat(c.dropped()).isEqualTo(3);
    }

    @Test
    void aSampleCarriesWhatTheWriterPutInTheSlot() {
        RequestStream s = new RequestStream(8, NO_HEADERS);
        RequestStream.Slot slot = s.claim();
        slot.startNanos = System.nanoTime();
        slot.endNanos = slot.startNanos + 12_500_000L;
        slot.pool = "api";
        slot.method = "POST";
        slot.path = "/k/alice";
        slot.query = "x=1";
        slot.client = "10.0.0.7";
        slot.key = "/k/alice";
        slot.keyHash = -1L;
        slot.attempt("a", "connect-failure", 1_000_000L);
        slot.attempt("b", "success", 11_000_000L);
        slot.backend = "b";
        slot.status = 201;
        slot.bytesIn = 5;
        slot.bytesOut = 7;
        slot.spilled = true;
        slot.requestHeaders = "v";
        s.publish(slot);

        RequestSample r = s.recent(1).get(0);

        assertThat(r.pool()).isEqualTo("api");
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.query()).isEqualTo("x=1");
        assertThat(r.keyHashText()).isEqualTo("18446744073709551615");
        assertThat(r.attempts()).containsExactly(new RequestSample.Attempt("a", "connect-failure", 1.0),
                new RequestSample.Attempt("b", "success", 11.0));
        assertThat(r.retried()).isTrue();
        assertThat(r.spilled()).isTrue();
        assertThat(r.latencyMs()).isEqualTo(12.5);
        assertThat(r.startMillis()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(5_000L));
        assertThat(r.requestHeaders()).containsExactly(new RequestSample.Header("x", "v"));
        assertThat(r.responseHeaders()).isEmpty();
    }

    @Test
    void aSlotReusedForALaterRequestCarriesNothingOfTheEarlierOne() {
        RequestStream s = new RequestStream(1, NO_HEADERS);
        write(s, 1);
        RequestStream.Slot slot = s.claim();
        slot.path = "/bare";
        s.publish(slot);

        RequestSample r = s.recent(5).get(0);

        assertThat(r.path()).isEqualTo("/bare");
        assertThat(r.backend()).isNull();
        assertThat(r.attempts()).isEmpty();
        assertThat(r.requestHeaders()).isEmpty();
    }

    @Test
    void recentIsNewestFirstAcrossWritingThreadsAndFromNowSkipsWhatCameBefore() throws Exception {
        RequestStream s = new RequestStream(16, NO_HEADERS);
        write(s, 1);
        RequestStream.Cursor now = s.fromNow();
        Thread other = new Thread(() -> write(s, 5));
        other.start();
        other.join();
        write(s, 3);

        assertThat(s.recent(10)).extracting(RequestSample::path).containsExactly("/5", "/3", "/1");
        assertThat(s.recent(2)).extracting(RequestSample::path).containsExactly("/5", "/3");
        List<RequestSample> seen = new ArrayList<>();
        now.poll(seen::add);
        assertThat(seen).extracting(RequestSample::path).containsExactlyInAnyOrder("/5", "/3");
        assertThat(seen).extracting(RequestSample::id).doesNotHaveDuplicates();
    }

    @Test
    void recentOrdersRequestsEndingWithinOneMillisecondByTheirNanoseconds() throws Exception {
        RequestStream s = new RequestStream(16, NO_HEADERS);
        Thread other = new Thread(() -> writeEnding(s, "/late", 100_700_000L));
        other.start();
        other.join();
        writeEnding(s, "/first", 100_200_000L);
        writeEnding(s, "/second", 100_400_000L);

        assertThat(s.recent(3)).extracting(RequestSample::path).containsExactly("/late", "/second", "/first");
    }

    private static void writeEnding(RequestStream s, String path, long endNanos) {
        RequestStream.Slot slot = s.claim();
        slot.startNanos = endNanos - 100_000L;
        slot.endNanos = endNanos;
        slot.path = path;
        s.publish(slot);
    }

    @Test
    void aReaderRacingTheWriterNeverKeepsASlotHalfRewritten() throws Exception {
        RequestStream s = new RequestStream(64, NO_HEADERS);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        AtomicLong looks = new AtomicLong(); // polls the reader has finished
        Thread writer = new Thread(() -> {
            started.countDown();
            // bursts of 96, more than the 64 slots hold, so a reader that falls behind loses some; between bursts
            // the writer waits until the reader has finished a look, and writes the next while it takes another
            for (int n = 0; !stop.get(); n++) {
                write(s, n);
                if (n % 96 == 95) {
                    long seen = looks.get();
                    while (looks.get() == seen && !stop.get()) {
                        Thread.yield();
                    }
                }
            }
        });
        writer.start();
        started.await();
        RequestStream.Cursor c = s.fromOldest();
        List<String> torn = new ArrayList<>();
        long read = 0;
        // bounded by a deadline, not a count of rounds: a reader spinning while the writer waits for a core burns any
        // count of rounds in no time (seen on CI: 20,000 rounds ended with 32 written)
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        while (torn.isEmpty() && (read < 1_000 || c.dropped() == 0) && System.nanoTime() < deadline) {
            Thread.yield(); // two cores: let the writer run
            read += c.poll(r -> {
                int n = Integer.parseInt(r.path().substring(1));
                if (r.status() != 200 + n % 300 || !r.backend().equals("b" + n)
                        || !r.requestHeaders().get(0).value().equals("h" + n)) {
                    torn.add(r.toString());
                }
            });
            looks.incrementAndGet();
        }
        stop.set(true);
        writer.join();

        assertThat(torn).isEmpty();
        assertThat(read).isPositive();
        assertThat(read + c.dropped()).as("the reader kept up with part of it").isGreaterThan(read);
    }

    @Test
    void aSamplingPollTakesAnEvenShareWithoutHeadersAndCountsTheRest() {
        RequestStream s = new RequestStream(128, NO_HEADERS);
        RequestStream.Cursor c = s.fromOldest();
        for (int i = 0; i < 100; i++) {
            write(s, i);
        }

        List<RequestSample> seen = new ArrayList<>();
        c.poll(10, false, seen::add);

        assertThat(seen).hasSize(10);
        assertThat(seen).extracting(RequestSample::path).containsExactly("/0", "/10", "/20", "/30", "/40", "/50", "/60",
                "/70", "/80", "/90");
        assertThat(seen).allMatch(r -> r.requestHeaders().isEmpty());
        assertThat(c.dropped()).isEqualTo(90);
        assertThat(c.poll(10, false, seen::add)).isZero();
    }
}
