package dev.fulcrum.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A backend on a loopback port written on plain sockets, so that it can do what no HTTP server would: answer with
 * exactly the bytes a test scripts (a head in pieces, bare LF, every body framing, malformed answers), accept and
 * never answer, hang up after the head, reset in the middle of a body, or stream for ever. It records every byte
 * it receives, and each request read apart into head and body, so the request side is checked on the wire too.
 *
 * <p>Each accepted connection runs a {@link Behaviour} on its own thread, through a {@link Peer}; the connection is
 * closed when the behaviour returns. {@link #scripted} is the common behaviour: it reads each request (head, then a
 * Content-Length or chunked body), records it in {@link #requests} and writes the pieces a function gives for it.
 * Example: {@code RawBackend.scripted(req -> List.of("HTTP/1.1 200 OK\r\nContent-", "Length: 2\r\n\r\nok"))} answers
 * every request with a head that arrives in two reads. {@link #sawTarget} answers each request with its own target,
 * for wire tests that pipeline: {@code GET /p1 HTTP/1.1}, {@code Host: h.test} and a blank line make one whole
 * {@link Message} with target {@code /p1} and an empty body, answered {@code saw /p1}.
 */
public final class RawBackend implements AutoCloseable {
    /** What one accepted connection does. */
    public interface Behaviour {
        void serve(Peer peer) throws Exception;
    }

    /**
     * One request as it came: its head (request line and fields, without the blank line), its body as its framing
     * delivers it (chunk sizes, chunk ends and trailers taken off), and whether it ended; a message whose connection
     * ended inside it, or whose framing could not be followed, is not {@code complete}.
     */
    public record Message(String head, String body, boolean complete) {
        public String requestLine() {
            int eol = head.indexOf("\r\n");
            return eol < 0 ? head : head.substring(0, eol);
        }

        public String target() {
            String[] parts = requestLine().split(" ");
            return parts.length > 1 ? parts[1] : "";
        }

        /** The first value of the field {@code name} (any case), or null. */
        public String field(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    /** A piece that closes the connection. */
    public static final String CLOSE = "<close>";
    /** A piece that closes the connection with a reset (unread request bytes would make a close one anyway). */
    public static final String RESET = "<reset>";
    /** A piece {@code "<pause N>"} holds the rest of the answer back N ms: a backend slow on purpose. */
    public static final String PAUSE = "<pause ";

    /** Connections accepted. */
    public final AtomicInteger accepted = new AtomicInteger();
    /** Connections whose behaviour still runs; a scripted one ends when the proxy closes its side. */
    public final AtomicInteger open = new AtomicInteger();
    /** Every byte read from every connection, as ISO-8859-1 text. */
    public final StringBuffer received = new StringBuffer();
    /** Each request a behaviour read (head, and body unless {@link #headOnly}) as it came, bytes for bytes, in order. */
    public final List<String> requests = new CopyOnWriteArrayList<>();
    /**
     * Each request a behaviour began to read, read apart, in the order their heads arrived. One is listed as soon as
     * its head is in, not yet {@code complete}, and replaced once its body has ended or its connection has.
     */
    public final List<Message> messages = new CopyOnWriteArrayList<>();
    /** Scripted: answer once the head is in, reading no body (a backend refusing an upload). */
    public volatile boolean headOnly;
    /** Scripted, above 0: each connection answers this many requests and is closed when the next one arrives. */
    public volatile int answersPerConnection;
    /** Scripted, with {@link #answersPerConnection}: that close is a reset. */
    public volatile boolean resetInsteadOfClose;

    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "raw-backend");
        t.setDaemon(true);
        return t;
    });
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private RawBackend(Behaviour behaviour) throws IOException {
        server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        threads.execute(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    accepted.incrementAndGet();
                    sockets.add(s);
                    threads.execute(() -> serve(s, behaviour));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    /** Starts a backend whose every connection runs {@code behaviour}. */
    public static RawBackend start(Behaviour behaviour) throws IOException {
        return new RawBackend(behaviour);
    }

    /**
     * Starts a backend that reads each request and writes the pieces {@code answer} gives for it, 30 ms apart so that
     * each arrives in a read of its own. A piece may be {@link #CLOSE}, {@link #RESET} or {@code "<pause N>"}.
     */
    public static RawBackend scripted(Function<String, List<String>> answer) throws IOException {
        return new RawBackend(peer -> peer.answerEach(answer));
    }

    /** Starts a scripted backend that answers every request 200 with the body {@code ok}. */
    public static RawBackend ok() throws IOException {
        return scripted(req -> List.of("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
    }

    /**
     * Answers each whole request {@code 200} with the body {@code saw <target>}, so that a client that pipelines can
     * tell which answer belongs to which request; a request cut short ends the connection unanswered.
     */
    public static Behaviour sawTarget() {
        return peer -> {
            Message m;
            while ((m = peer.readMessage()) != null && m.complete()) {
                String body = "saw " + m.target();
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
            }
        };
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Forgets what was recorded ({@link #received}, {@link #requests}, {@link #messages}); connections stay open. */
    public void clear() {
        received.setLength(0);
        requests.clear();
        synchronized (messages) {
            messages.clear();
        }
    }

    public String url() {
        return "http://127.0.0.1:" + port();
    }

    private void serve(Socket s, Behaviour behaviour) {
        open.incrementAndGet();
        try (s) {
            behaviour.serve(new Peer(s));
        } catch (Exception e) {
            // the proxy closed the connection, or the backend was closed under the behaviour
        } finally {
            open.decrementAndGet();
        }
    }

    /** Accepts and holds the connection, reading and discarding, never answering. */
    public static Behaviour blackHole() {
        return peer -> peer.in().transferTo(OutputStream.nullOutputStream());
    }

    /** Writes {@code prefix} on the connection, then never answers more nor closes while the peer is there: hung. */
    public static Behaviour hung(String prefix) {
        return peer -> {
            peer.write(prefix);
            blackHole().serve(peer);
        };
    }

    /** Reads one request head, then closes without a byte of answer: a crashing or restarting process. */
    public static Behaviour hangUp() {
        return peer -> {
            peer.socket.setSoTimeout(10_000);
            peer.readHead();
        };
    }

    /**
     * Sends the head and {@code sent} of {@code length} body bytes, then resets the connection (RST). The head and
     * those bytes go in one write with Nagle off, so they have left when the write returns (on loopback, into the
     * proxy's receive queue, which it reads before it sees the reset): the reset drops nothing of them.
     */
    public static Behaviour resetMidBody(int length, int sent) {
        return peer -> {
            if (peer.readHead() != null) {
                peer.socket.setTcpNoDelay(true);
                ByteArrayOutputStream answer = new ByteArrayOutputStream();
                answer.write(("HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                answer.write(new byte[sent]);
                peer.out().write(answer.toByteArray());
                peer.out().flush();
            }
            peer.reset();
        };
    }

    /** Answers 200 with a huge Content-Length and writes 16 KiB every few ms until the peer goes away. */
    public static Behaviour endlessStream() {
        return peer -> {
            if (peer.readHead() == null) {
                return;
            }
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n");
            byte[] chunk = new byte[16384];
            while (true) {
                peer.out().write(chunk); // throws once the proxy closed its side
                peer.out().flush();
                SlowOnPurpose.pause(5); // a slow body on purpose: the client leaves while it still streams
            }
        };
    }

    /**
     * Reads one HTTP/1.1 message from {@code in} and gives it as it came: its head up to the blank line, then (unless
     * {@code headOnly}) a Content-Length or chunked body; null when the stream ended before the head did. Also reads
     * answers, on the client side of a test.
     */
    public static String readMessage(InputStream in, boolean headOnly) throws IOException {
        MessageReader r = new MessageReader(in);
        String head = r.head();
        if (head == null) {
            return null;
        }
        if (!headOnly) {
            r.body(head);
        }
        return r.text();
    }

    /** Reads messages off a stream, keeping the bytes of the current one as they came and its body as framed. */
    private static final class MessageReader {
        private final InputStream in;
        private final ByteArrayOutputStream text = new ByteArrayOutputStream();
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        MessageReader(InputStream in) {
            this.in = in;
        }

        private int next() throws IOException {
            int b = in.read();
            if (b >= 0) {
                text.write(b);
            }
            return b;
        }

        /** The bytes of the current message so far, as ISO-8859-1 text. */
        String text() {
            return text.toString(StandardCharsets.ISO_8859_1);
        }

        /** The body of the current message so far, framing taken off. */
        String bodySoFar() {
            return body.toString(StandardCharsets.ISO_8859_1);
        }

        /** Starts a message: its head without the blank line, or null when the stream ended first. */
        String head() throws IOException {
            text.reset();
            body.reset();
            StringBuilder h = new StringBuilder();
            int b;
            while ((b = next()) != -1) {
                h.append((char) b);
                if (h.length() >= 4 && h.lastIndexOf("\r\n\r\n") == h.length() - 4) {
                    return h.substring(0, h.length() - 4);
                }
            }
            return null;
        }

        /** Whether {@code head} announces a body: chunked, or a Content-Length other than 0. */
        static boolean hasBody(String head) {
            String lower = head.toLowerCase(Locale.ROOT);
            try {
                return lower.contains("\r\ntransfer-encoding: chunked") || contentLength(lower) > 0;
            } catch (NumberFormatException e) {
                return true; // a length that is no number: the body cannot be told to be empty
            }
        }

        /** The Content-Length in a lower-cased head, or -1 when it has none. */
        private static long contentLength(String lower) {
            int at = lower.indexOf("\r\ncontent-length:");
            if (at < 0) {
                return -1;
            }
            int eol = lower.indexOf("\r\n", at + 2);
            return Long.parseLong(lower.substring(at + 17, eol < 0 ? lower.length() : eol).trim());
        }

        /**
         * Reads the body {@code head} announces (chunked, or Content-Length; none without either); false when the
         * stream ended first or the framing could not be followed.
         */
        boolean body(String head) throws IOException {
            try {
                String lower = head.toLowerCase(Locale.ROOT);
                return lower.contains("\r\ntransfer-encoding: chunked") ? chunks() : bytes(contentLength(lower));
            } catch (NumberFormatException e) {
                return false; // a length or chunk size that is no number: nothing after it can be framed
            }
        }

        private boolean bytes(long n) throws IOException {
            byte[] buf = new byte[8192];
            for (long left = n; left > 0; ) {
                int got = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (got < 0) {
                    return false;
                }
                text.write(buf, 0, got);
                body.write(buf, 0, got);
                left -= got;
            }
            return true;
        }

        private boolean chunks() throws IOException {
            while (true) {
                String line = line();
                if (line == null) {
                    return false;
                }
                int size = Integer.parseInt(line.split(";")[0].trim(), 16);
                if (size == 0) {
                    String trailer;
                    do {
                        trailer = line();
                        if (trailer == null) {
                            return false;
                        }
                    } while (!trailer.isEmpty());
                    return true;
                }
                for (int i = 0; i < size; i++) {
                    int b = next();
                    if (b < 0) {
                        return false;
                    }
                    body.write(b);
                }
                if (line() == null) {
                    return false;
                }
            }
        }

        /** The next line without its CRLF, or null when the stream ended first. */
        private String line() throws IOException {
            StringBuilder l = new StringBuilder();
            int b;
            while ((b = next()) != -1) {
                if (b == '\n' && l.length() > 0 && l.charAt(l.length() - 1) == '\r') {
                    return l.substring(0, l.length() - 1);
                }
                l.append((char) b);
            }
            return null;
        }
    }

    /** One accepted connection as a behaviour sees it; what it reads is recorded by the backend. */
    public final class Peer {
        private final Socket socket;
        private final InputStream in;
        private final MessageReader reader;

        private Peer(Socket socket) throws IOException {
            this.socket = socket;
            InputStream raw = socket.getInputStream();
            this.in = new InputStream() {
                @Override
                public int read() throws IOException {
                    int b = raw.read();
                    if (b >= 0) {
                        received.append((char) b);
                    }
                    return b;
                }

                @Override
                public int read(byte[] buf, int off, int len) throws IOException {
                    int n = raw.read(buf, off, len);
                    if (n > 0) {
                        received.append(new String(buf, off, n, StandardCharsets.ISO_8859_1));
                    }
                    return n;
                }
            };
            this.reader = new MessageReader(in);
        }

        public Socket socket() {
            return socket;
        }

        public InputStream in() {
            return in;
        }

        public OutputStream out() throws IOException {
            return socket.getOutputStream();
        }

        /** Writes {@code text} as ISO-8859-1 and flushes. */
        public void write(String text) throws IOException {
            out().write(text.getBytes(StandardCharsets.ISO_8859_1));
            out().flush();
        }

        /** Closes with a reset (RST) instead of a FIN. */
        public void reset() throws IOException {
            socket.setSoLinger(true, 0);
            socket.close();
        }

        /** Reads one request head, up to its blank line, and records it; null when the proxy closed first. */
        public String readHead() throws IOException {
            return readRequest(true);
        }

        /**
         * Reads one request (its head, then a Content-Length or chunked body unless {@code headOnly}) and records it;
         * gives its bytes as they came, or null when the proxy closed before its head ended.
         */
        public String readRequest(boolean headOnly) throws IOException {
            return read(headOnly) == null ? null : reader.text();
        }

        /** Reads one whole request and records it; gives it read apart, or null when the proxy closed before its head ended. */
        public Message readMessage() throws IOException {
            return read(false);
        }

        private Message read(boolean headOnly) throws IOException {
            String head = reader.head();
            if (head == null) {
                return null;
            }
            Message started = new Message(head, "", false);
            synchronized (messages) {
                messages.add(started);
            }
            Message done = started;
            try {
                boolean ended = headOnly ? !MessageReader.hasBody(head) : reader.body(head);
                done = new Message(head, reader.bodySoFar(), ended);
                requests.add(reader.text());
            } finally {
                if (done == started) {
                    done = new Message(head, reader.bodySoFar(), false); // the connection broke inside the body
                }
                synchronized (messages) {
                    for (int i = messages.size() - 1; i >= 0; i--) {
                        if (messages.get(i) == started) {
                            messages.set(i, done);
                            break;
                        }
                    }
                }
            }
            return done;
        }

        private void answerEach(Function<String, List<String>> answer) throws IOException, InterruptedException {
            socket.setSoTimeout(10_000);
            socket.setTcpNoDelay(true); // each scripted piece leaves at once, not held back by Nagle for the next
            int answered = 0;
            String req;
            while ((req = readRequest(headOnly)) != null) {
                if (answersPerConnection > 0 && answered++ >= answersPerConnection) {
                    // closed, unanswered: an idle keep-alive connection the backend gave up on
                    if (resetInsteadOfClose) {
                        reset();
                    }
                    return;
                }
                List<String> pieces = answer.apply(req);
                for (int i = 0; i < pieces.size(); i++) {
                    String piece = pieces.get(i);
                    if (piece.equals(CLOSE)) {
                        return;
                    }
                    if (piece.equals(RESET)) {
                        reset();
                        return;
                    }
                    if (i > 0) {
                        SlowOnPurpose.pause(30); // a backend slow on purpose: each piece in a read of its own
                    }
                    if (piece.startsWith(PAUSE)) {
                        // a backend slow on purpose: the script holds the rest of the answer back
                        SlowOnPurpose.pause(Long.parseLong(piece.substring(PAUSE.length(), piece.length() - 1)));
                        continue;
                    }
                    write(piece);
                }
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // already closed
            }
        }
        threads.shutdownNow();
    }
}
