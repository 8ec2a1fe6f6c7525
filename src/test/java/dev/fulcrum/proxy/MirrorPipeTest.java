package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.SlowOnPurpose;
import io.undertow.server.DefaultByteBufferPool;
import io.undertow.util.HeaderMap;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.Xnio;
import org.xnio.XnioIoThread;
import org.xnio.XnioWorker;

/**
 * {@link MirrorPipe} over real sockets to a backend that reads and answers as the test scripts it: copies closer
 * together than the gap are held for it and go pipelined on one connection, each answer framed as its head says
 * (length, chunked with extensions and trailers, HEAD, 204, after an interim 103) is read to its end and told to its
 * own copy, once; copies behind an answer that says close go on another connection (the backend took none of them);
 * a backend that closes with copies owed fails them once, never sends them again, and then gets copies one per
 * connection; one that stops answering times them out; bytes nobody asked for and a bad chunk close the connection;
 * answers split into one-byte reads frame the same; a backend slow to answer gets copies one per connection; a copy
 * larger than the write buffer arrives whole.
 */
class MirrorPipeTest {
    private static final long GAP_MS = 300;

    private XnioWorker worker;
    private XnioIoThread thread;
    private final List<AutoCloseable> owned = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        worker = Xnio.getInstance().createWorker(OptionMap.builder()
                .set(Options.WORKER_IO_THREADS, 1).set(Options.WORKER_TASK_CORE_THREADS, 2)
                .set(Options.WORKER_TASK_MAX_THREADS, 2).getMap());
        thread = worker.getIoThread(0);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : owned) {
            c.close();
        }
        worker.shutdownNow();
    }

    /** A copy as a test sees it: what it was told, and how many times. */
    private static final class Rec implements MirrorPipe.Copy {
        final HeaderMap headers = new HeaderMap();
        final CompletableFuture<String> outcome = new CompletableFuture<>();
        final AtomicInteger told = new AtomicInteger();

        @Override
        public HeaderMap answerHeaders() {
            return headers;
        }

        @Override
        public void answered(int status, long bodyBytes) {
            told.incrementAndGet();
            outcome.complete(status + " " + bodyBytes);
        }

        @Override
        public void failed(IOException e, int status, boolean timedOut) {
            told.incrementAndGet();
            outcome.complete("failed " + status + (timedOut ? " timeout" : ""));
        }

        String get() throws Exception {
            return outcome.get(20, TimeUnit.SECONDS);
        }
    }

    /**
     * A pipe to {@code backend} that takes a backend for slow only past 10 s: the tests script when a backend answers,
     * and a loaded machine's pause must not turn batching off under them.
     */
    private MirrorPipe pipe(RawBackend backend, long readMs) {
        return pipe(backend, readMs, TimeUnit.SECONDS.toNanos(10));
    }

    private MirrorPipe pipe(RawBackend backend, long readMs, long slowNanos) {
        owned.add(backend);
        BackendConnections conns = new BackendConnections(URI.create(backend.url()), BackendConnections.DNS,
                new DefaultByteBufferPool(false, 16 * 1024), 1, 5_000, 60_000);
        ReadDeadlines deadlines = readMs > 0 ? new ReadDeadlines(thread, readMs) : null;
        return new MirrorPipe(conns, thread, deadlines, TimeUnit.MILLISECONDS.toNanos(GAP_MS), slowNanos,
                TimeUnit.MINUTES.toNanos(1));
    }

    private static ByteBuffer get(String path) {
        return request("GET", path);
    }

    private static ByteBuffer request(String method, String path) {
        return ByteBuffer.wrap((method + " " + path + " HTTP/1.1\r\nHost: shadow\r\nX-Fulcrum-Mirror: 1\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Sends each copy in {@code copies} for the request of the same index, in one task on the pipe's thread. */
    private void send(MirrorPipe pipe, Rec[] copies, ByteBuffer[] requests, boolean[] head) {
        thread.execute(() -> {
            for (int i = 0; i < copies.length; i++) {
                pipe.send(copies[i], requests[i], head != null && head[i]);
            }
        });
    }

    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    /**
     * Reads the first copy and answers it at once, then the {@code batched} copies sent after the gap; false when the
     * pipe closed first.
     */
    private static boolean firstThenBatch(RawBackend.Peer peer, int batched) throws IOException {
        for (int i = 0; i <= batched; i++) {
            if (peer.readMessage() == null) {
                return false;
            }
            if (i == 0) {
                peer.write(OK);
            }
        }
        return true;
    }

    /** Answers every copy on the connection at once, until the pipe closes it. */
    private static void answerAll(RawBackend.Peer peer) throws IOException {
        while (peer.readMessage() != null) {
            peer.write(OK);
        }
    }

    /** A backend whose first connection does {@code first}, and whose later ones answer every copy at once. */
    private RawBackend firstConnection(RawBackend.Behaviour first) throws IOException {
        AtomicInteger connections = new AtomicInteger();
        return RawBackend.start(peer -> {
            if (connections.incrementAndGet() == 1) {
                first.serve(peer);
            } else {
                answerAll(peer);
            }
        });
    }

    /** The pipe's idle connections, read on its thread. */
    private int idleLines(MirrorPipe pipe) throws Exception {
        CompletableFuture<Integer> idle = new CompletableFuture<>();
        thread.execute(() -> idle.complete(pipe.idleLines()));
        return idle.get(10, TimeUnit.SECONDS);
    }

    private static Rec[] recs(int n) {
        Rec[] r = new Rec[n];
        for (int i = 0; i < n; i++) {
            r[i] = new Rec();
        }
        return r;
    }

    @Test
    void copiesCloserThanTheGapGoPipelinedOnOneConnectionAndEachAnswerIsReadToItsEnd() throws Exception {
        AtomicLong firstAt = new AtomicLong();
        AtomicLong batchAt = new AtomicLong();
        RawBackend backend = RawBackend.start(peer -> {
            if (peer.readMessage() == null) {
                return;
            }
            firstAt.set(System.nanoTime());
            peer.write(OK);
            for (int i = 0; i < 5; i++) {
                if (peer.readMessage() == null) {
                    return;
                }
                if (i == 0) {
                    batchAt.set(System.nanoTime());
                }
            }
            // every answer of the batch in one write, each framed its own way
            peer.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n6\r\n world\r\n0\r\n"
                    + "X-Trailer: 1\r\n\r\n"
                    + "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"
                    + "HTTP/1.1 204 No Content\r\n\r\n"
                    + "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n"
                    + "HTTP/1.1 503 Busy\r\nContent-Length: 4\r\n\r\nbusy"
                    + "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n");
            peer.in().transferTo(OutputStream.nullOutputStream());
        });
        MirrorPipe pipe = pipe(backend, 10_000);
        Rec[] copies = recs(6);
        ByteBuffer post = ByteBuffer.wrap(("POST /5 HTTP/1.1\r\nHost: shadow\r\nContent-Length: 3\r\n\r\nabc")
                .getBytes(StandardCharsets.ISO_8859_1));
        send(pipe, copies, new ByteBuffer[] {get("/0"), get("/1"), request("HEAD", "/2"), get("/3"), get("/4"),
                post}, new boolean[] {false, false, true, false, false, false});

        assertThat(copies[0].get()).isEqualTo("200 2");
        assertThat(copies[1].get()).as("chunked: the data, not its framing").isEqualTo("200 11");
        assertThat(copies[2].get()).as("an answer to HEAD has no body").isEqualTo("200 0");
        assertThat(copies[3].get()).isEqualTo("204 0");
        assertThat(copies[4].get()).as("the 103 is passed over").isEqualTo("503 4");
        assertThat(copies[5].get()).isEqualTo("201 0");
        for (Rec r : copies) {
            assertThat(r.told.get()).as("told once").isEqualTo(1);
        }
        assertThat(copies[4].headers.getFirst("Link")).as("the interim answer's fields are not the answer's").isNull();
        assertThat(backend.accepted.get()).as("the batch pipelined on the first copy's connection").isEqualTo(1);
        assertThat(batchAt.get() - firstAt.get()).as("the batch was held for the gap")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(GAP_MS - 50));
        assertThat(backend.messages).hasSize(6);
        assertThat(backend.messages.get(2).requestLine()).startsWith("HEAD /2 ");
        assertThat(backend.messages.get(5).body()).isEqualTo("abc");
        assertThat(idleLines(pipe)).as("the connection waits for the next batch").isEqualTo(1);
    }

    @Test
    void answersArrivingOneByteAtATimeFrameTheSame() throws Exception {
        Map<String, String> answers = Map.of(
                "/", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
                "/a", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
                "/b", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n0\r\n\r\n",
                "/c", "HTTP/1.1 404 Not Found\r\nContent-Length: 1\r\n\r\nx");
        // each answer by its request's path, so it is the same whichever connection the request came on
        RawBackend backend = RawBackend.start(peer -> {
            peer.socket().setTcpNoDelay(true);
            OutputStream out = peer.out();
            RawBackend.Message m;
            while ((m = peer.readMessage()) != null) {
                for (byte b : answers.get(m.target()).getBytes(StandardCharsets.ISO_8859_1)) {
                    out.write(b);
                    out.flush();
                    SlowOnPurpose.pause(1); // mostly a segment, and a read, of its own
                }
            }
        });
        MirrorPipe pipe = pipe(backend, 10_000);
        Rec first = new Rec();
        Rec[] copies = recs(3);
        // the first goes at once; the three after it wait for the gap and go pipelined on its connection, so the
        // backend's answers to them come one after another, a byte at a time, on one stream
        Rec[] all = {first, copies[0], copies[1], copies[2]};
        send(pipe, all, new ByteBuffer[] {get("/"), get("/a"), get("/b"), get("/c")}, null);

        assertThat(first.get()).isEqualTo("200 0");
        assertThat(copies[0].get()).isEqualTo("200 2");
        assertThat(copies[1].get()).isEqualTo("200 10");
        assertThat(copies[2].get()).isEqualTo("404 1");
        assertThat(backend.accepted.get()).isEqualTo(1);
    }

    @Test
    void aBackendSlowToAnswerGetsOneCopyPerConnection() throws Exception {
        RawBackend backend = RawBackend.start(peer -> {
            RawBackend.Message m;
            while ((m = peer.readMessage()) != null) {
                if (m.target().equals("/slow")) {
                    SlowOnPurpose.pause(200); // longer than the pipe's 50 ms for slow
                }
                peer.write(OK);
            }
        });
        MirrorPipe pipe = pipe(backend, 10_000, TimeUnit.MILLISECONDS.toNanos(50));
        Rec slow = new Rec();
        send(pipe, new Rec[] {slow}, new ByteBuffer[] {get("/slow")}, null);
        assertThat(slow.get()).isEqualTo("200 2");

        // closer together than the gap, yet not held and not pipelined: each goes at once on a connection of its own
        Rec[] copies = recs(3);
        send(pipe, copies, new ByteBuffer[] {get("/0"), get("/1"), get("/2")}, null);
        for (Rec r : copies) {
            assertThat(r.get()).isEqualTo("200 2");
        }
        assertThat(backend.accepted.get()).as("the slow one's connection, then one each").isEqualTo(3);
        assertThat(backend.messages).hasSize(4);
    }

    @Test
    void aBackendThatClosesWithCopiesOwedFailsThemOnceNeverSendsThemAgainAndThenGetsOnePerConnection()
            throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        RawBackend backend = firstConnection(peer -> {
            if (!firstThenBatch(peer, 3)) {
                return;
            }
            // one of the batch answered, then the backend hangs up on the other two
            peer.write(OK);
            peer.socket().close();
            closed.countDown();
        });
        MirrorPipe pipe = pipe(backend, 10_000);
        Rec[] copies = recs(4);
        send(pipe, copies, new ByteBuffer[] {get("/0"), get("/1"), get("/2"), get("/3")}, null);

        assertThat(copies[0].get()).isEqualTo("200 2");
        assertThat(copies[1].get()).isEqualTo("200 2");
        assertThat(copies[2].get()).isEqualTo("failed 0");
        assertThat(copies[3].get()).isEqualTo("failed 0");
        assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(backend.messages).as("never sent again").hasSize(4);

        // two more at once: one per connection now (batched, they would share one)
        Rec[] later = recs(2);
        send(pipe, later, new ByteBuffer[] {get("/4"), get("/5")}, null);
        assertThat(later[0].get()).isEqualTo("200 2");
        assertThat(later[1].get()).isEqualTo("200 2");
        assertThat(backend.accepted.get()).as("a connection each").isEqualTo(3);
        for (Rec r : copies) {
            assertThat(r.told.get()).isEqualTo(1);
        }
    }

    @Test
    void copiesBehindAnAnswerThatSaysCloseWereNotTakenAndGoOnAnotherConnection() throws Exception {
        RawBackend backend = firstConnection(peer -> {
            if (!firstThenBatch(peer, 3)) {
                return;
            }
            // as nginx at its keepalive_requests: the last answer it gives says close, the copy behind is not taken
            peer.write(OK + "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok");
            peer.socket().close();
        });
        MirrorPipe pipe = pipe(backend, 10_000);
        Rec[] copies = recs(4);
        send(pipe, copies, new ByteBuffer[] {get("/0"), get("/1"), get("/2"), get("/3")}, null);

        for (Rec r : copies) {
            assertThat(r.get()).isEqualTo("200 2");
            assertThat(r.told.get()).isEqualTo(1);
        }
        assertThat(backend.accepted.get()).isEqualTo(2);
        assertThat(backend.messages.get(backend.messages.size() - 1).requestLine()).startsWith("GET /3 ");

        // batching goes on: three more close together go pipelined on the second connection (one per connection,
        // they would take two more)
        Rec[] more = recs(3);
        send(pipe, more, new ByteBuffer[] {get("/4"), get("/5"), get("/6")}, null);
        for (Rec r : more) {
            assertThat(r.get()).isEqualTo("200 2");
        }
        assertThat(backend.accepted.get()).as("no connection per copy").isEqualTo(2);
    }

    @Test
    void aBackendThatStopsAnsweringTimesOutWhatItOwes() throws Exception {
        RawBackend backend = RawBackend.start(peer -> {
            if (!firstThenBatch(peer, 2)) {
                return;
            }
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\npart"); // then nothing more
            peer.in().transferTo(OutputStream.nullOutputStream());
        });
        MirrorPipe pipe = pipe(backend, 400);
        Rec[] copies = recs(3);
        send(pipe, copies, new ByteBuffer[] {get("/0"), get("/1"), get("/2")}, null);

        assertThat(copies[0].get()).isEqualTo("200 2");
        assertThat(copies[1].get()).as("its head came, its body stopped").isEqualTo("failed 200 timeout");
        assertThat(copies[2].get()).isEqualTo("failed 0 timeout");
    }

    @Test
    void aCopyLargerThanTheWriteBufferArrivesWhole() throws Exception {
        RawBackend backend = RawBackend.start(MirrorPipeTest::answerAll);
        MirrorPipe pipe = pipe(backend, 10_000);
        StringBuilder body = new StringBuilder();
        for (int i = 0; body.length() < 200_000; i++) {
            body.append(i).append(',');
        }
        ByteBuffer post = ByteBuffer.wrap(("POST /big HTTP/1.1\r\nHost: shadow\r\nContent-Length: " + body.length()
                + "\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1));
        Rec[] copies = recs(3);
        // the large one is over a batch's 64 KiB by itself, so it is written at once, staged 64 KiB at a time
        send(pipe, copies, new ByteBuffer[] {get("/0"), post, get("/2")}, null);
        for (Rec r : copies) {
            assertThat(r.get()).isEqualTo("200 2");
        }
        assertThat(backend.messages).hasSize(3);
        RawBackend.Message big = backend.messages.stream().filter(m -> m.requestLine().startsWith("POST")).findFirst()
                .orElseThrow();
        assertThat(big.body().length()).as("the body's length").isEqualTo(body.length());
        assertThat(big.body().equals(body.toString())).as("the body, byte for byte").isTrue();
    }

    @Test
    void bytesNobodyAskedForCloseTheConnection() throws Exception {
        RawBackend backend = RawBackend.start(peer -> {
            while (peer.readMessage() != null) {
                peer.write(OK + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"); // one answer more than asked
            }
        });
        MirrorPipe pipe = pipe(backend, 10_000);
        Rec first = new Rec();
        send(pipe, new Rec[] {first}, new ByteBuffer[] {get("/0")}, null);
        assertThat(first.get()).isEqualTo("200 2");
        await().atMost(Duration.ofSeconds(10)).until(() -> idleLines(pipe) == 0); // the stray answer closed it
        Rec second = new Rec();
        send(pipe, new Rec[] {second}, new ByteBuffer[] {get("/1")}, null);
        assertThat(second.get()).isEqualTo("200 2");
        assertThat(backend.accepted.get()).as("the first connection was not trusted again").isEqualTo(2);
    }

    @Test
    void aBadChunkFailsTheCopyWhoseHeadCame() throws Exception {
        RawBackend backend = RawBackend.start(peer -> {
            if (peer.readMessage() != null) {
                peer.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
                peer.in().transferTo(OutputStream.nullOutputStream());
            }
        });
        MirrorPipe pipe = pipe(backend, 10_000);
        Rec copy = new Rec();
        send(pipe, new Rec[] {copy}, new ByteBuffer[] {get("/0")}, null);
        assertThat(copy.get()).isEqualTo("failed 200");
    }

    @Test
    void anAnswerFramedByTheConnectionsEndEndsWithItAndWhatWasPipelinedBehindItFails() throws Exception {
        RawBackend backend = RawBackend.start(peer -> {
            if (!firstThenBatch(peer, 2)) {
                return;
            }
            peer.write("HTTP/1.1 200 OK\r\n\r\nuntil the end");
            peer.socket().close();
        });
        MirrorPipe pipe = pipe(backend, 10_000);
        Rec[] copies = recs(3);
        send(pipe, copies, new ByteBuffer[] {get("/0"), get("/1"), get("/2")}, null);
        assertThat(copies[0].get()).isEqualTo("200 2");
        assertThat(copies[1].get()).isEqualTo("200 13");
        assertThat(copies[2].get()).isEqualTo("failed 0");
    }
}
