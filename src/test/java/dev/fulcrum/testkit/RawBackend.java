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
 * it receives, so the request side is checked on the wire too.
 *
 * <p>Each accepted connection runs a {@link Behaviour} on its own thread, through a {@link Peer}; the connection is
 * closed when the behaviour returns. {@link #scripted} is the common behaviour: it reads each request (head, then a
 * Content-Length or chunked body), records it in {@link #requests} and writes the pieces a function gives for it.
 * Example: {@code RawBackend.scripted(req -> List.of("HTTP/1.1 200 OK\r\nContent-", "Length: 2\r\n\r\nok"))} answers
 * every request with a head that arrives in two reads.
 */
public final class RawBackend implements AutoCloseable {
    /** What one accepted connection does. */
    public interface Behaviour {
        void serve(Peer peer) throws Exception;
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
    /** Each request a behaviour read (head, and body unless {@link #headOnly}), in order. */
    public final List<String> requests = new CopyOnWriteArrayList<>();
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

    public int port() {
        return server.getLocalPort();
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
     * Reads one HTTP/1.1 message from {@code in}: its head up to the blank line, then (unless {@code headOnly}) a
     * Content-Length or chunked body; null when the stream ended before the head did. Also reads answers, on the
     * client side of a test.
     */
    public static String readMessage(InputStream in, boolean headOnly) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        if (!readUntil(in, buf, "\r\n\r\n")) {
            return null;
        }
        String head = buf.toString(StandardCharsets.ISO_8859_1);
        if (!headOnly) {
            String lower = head.toLowerCase(Locale.ROOT);
            int cl = lower.indexOf("\r\ncontent-length: ");
            if (cl >= 0) {
                int n = Integer.parseInt(head.substring(cl + 18, head.indexOf('\r', cl + 2)).trim());
                buf.write(in.readNBytes(n));
            } else if (lower.contains("\r\ntransfer-encoding: chunked\r\n")) {
                readUntil(in, buf, "\r\n0\r\n\r\n");
            }
        }
        return buf.toString(StandardCharsets.ISO_8859_1);
    }

    /** Reads into {@code buf} until it (what it held before included) ends with {@code end}; false at the stream's end. */
    private static boolean readUntil(InputStream in, ByteArrayOutputStream buf, String end) throws IOException {
        String before = buf.toString(StandardCharsets.ISO_8859_1);
        StringBuilder tail = new StringBuilder(before.substring(Math.max(0, before.length() - end.length())));
        int b;
        while ((b = in.read()) != -1) {
            buf.write(b);
            tail.append((char) b);
            if (tail.length() > end.length()) {
                tail.deleteCharAt(0);
            }
            if (tail.length() == end.length() && tail.toString().equals(end)) {
                return true;
            }
        }
        return false;
    }

    /** One accepted connection as a behaviour sees it; what it reads is recorded by the backend. */
    public final class Peer {
        private final Socket socket;
        private final InputStream in;

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

        /** Reads one request (its head, then a Content-Length or chunked body unless {@code headOnly}) and records it. */
        public String readRequest(boolean headOnly) throws IOException {
            String request = readMessage(in, headOnly);
            if (request != null) {
                requests.add(request);
            }
            return request;
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
