package dev.fulcrum.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A backend on plain sockets that records the raw bytes the proxy sends it, connection by connection, and the
 * messages it reads out of them: what a wire test asserts the backend saw. Each complete request is answered
 * {@code 200} with the body {@code saw <target>}, so a client can tell which answer belongs to which request.
 *
 * <p>It reads a head up to its blank line and a body by Content-Length or chunked framing (the only two the proxy
 * sends); a connection that ends inside a message leaves that message {@linkplain Message#complete() incomplete}.
 * Example: {@code GET /p1 HTTP/1.1}, {@code Host: h.test} and a blank line make one complete message with target
 * {@code /p1} and an empty body, answered {@code saw /p1}.
 */
final class WireBackend implements AutoCloseable {
    /** One request as it came: its head (request line and fields, without the blank line) and its body bytes. */
    record Message(String head, String body, boolean complete) {
        String requestLine() {
            int eol = head.indexOf("\r\n");
            return eol < 0 ? head : head.substring(0, eol);
        }

        String target() {
            String[] parts = requestLine().split(" ");
            return parts.length > 1 ? parts[1] : "";
        }

        /** The first value of the field {@code name} (any case), or null. */
        String field(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    /** Everything one connection brought: its raw bytes and the messages read from them. */
    static final class Connection {
        private final ByteArrayOutputStream raw = new ByteArrayOutputStream();
        private final List<Message> messages = new ArrayList<>();

        synchronized String raw() {
            return raw.toString(StandardCharsets.ISO_8859_1);
        }

        synchronized List<Message> messages() {
            return List.copyOf(messages);
        }

        synchronized void clear() {
            raw.reset();
            messages.clear();
        }
    }

    private final ServerSocket server;
    private final List<Connection> connections = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "wire-backend");
        t.setDaemon(true);
        return t;
    });

    WireBackend() throws IOException {
        server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        threads.execute(this::accept);
    }

    String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Every message of every connection, in the order the connections were opened. */
    List<Message> messages() {
        List<Message> all = new ArrayList<>();
        connections.forEach(c -> all.addAll(c.messages()));
        return all;
    }

    /** The raw bytes of every connection, one after the other. */
    String raw() {
        StringBuilder b = new StringBuilder();
        connections.forEach(c -> b.append(c.raw()));
        return b.toString();
    }

    /** Forgets what was recorded; connections that stay open record what comes next. */
    void clear() {
        connections.forEach(Connection::clear);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                open.add(s);
                Connection c = new Connection();
                connections.add(c);
                threads.execute(() -> serve(s, c));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s, Connection c) {
        try (s) {
            Reader in = new Reader(s.getInputStream(), c);
            OutputStream out = s.getOutputStream();
            while (true) {
                String head = in.head();
                if (head == null) {
                    return;
                }
                Message partial = new Message(head, "", false);
                synchronized (c) {
                    c.messages.add(partial);
                }
                String body = in.body(head);
                Message m = new Message(head, body == null ? in.bodySoFar() : body, body != null);
                synchronized (c) {
                    int at = c.messages.indexOf(partial);
                    if (at >= 0) {
                        c.messages.set(at, m);
                    }
                }
                if (body == null) {
                    return;
                }
                byte[] answer = ("saw " + m.target()).getBytes(StandardCharsets.ISO_8859_1);
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + answer.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.write(answer);
                out.flush();
            }
        } catch (IOException e) {
            // the proxy closed or reset the connection: what arrived is recorded
        }
    }

    /** Reads the connection byte by byte, recording each byte as it comes. */
    private static final class Reader {
        private final InputStream in;
        private final Connection c;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        Reader(InputStream in, Connection c) {
            this.in = in;
            this.c = c;
        }

        private int next() throws IOException {
            int b = in.read();
            if (b >= 0) {
                synchronized (c) {
                    c.raw.write(b);
                }
            }
            return b;
        }

        /** The next head without its blank line, or null when the connection ended first. */
        String head() throws IOException {
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

        String bodySoFar() {
            return body.toString(StandardCharsets.ISO_8859_1);
        }

        /** The body the head announces, or null when the connection ended before it did. */
        String body(String head) throws IOException {
            body.reset();
            String lower = head.toLowerCase(Locale.ROOT);
            if (lower.contains("\r\ntransfer-encoding: chunked")) {
                while (true) {
                    String line = line();
                    if (line == null) {
                        return null;
                    }
                    int size = Integer.parseInt(line.split(";")[0].trim(), 16);
                    if (size == 0) {
                        String trailer;
                        do {
                            trailer = line();
                            if (trailer == null) {
                                return null;
                            }
                        } while (!trailer.isEmpty());
                        return bodySoFar();
                    }
                    for (int i = 0; i < size; i++) {
                        int b = next();
                        if (b < 0) {
                            return null;
                        }
                        body.write(b);
                    }
                    if (line() == null) {
                        return null;
                    }
                }
            }
            int at = lower.indexOf("\r\ncontent-length:");
            if (at < 0) {
                return "";
            }
            int eol = lower.indexOf("\r\n", at + 2);
            long n = Long.parseLong(lower.substring(at + 17, eol < 0 ? lower.length() : eol).trim());
            for (long i = 0; i < n; i++) {
                int b = next();
                if (b < 0) {
                    return null;
                }
                body.write(b);
            }
            return bodySoFar();
        }

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

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException e) {
                // already closed
            }
        }
        threads.shutdownNow();
    }
}
