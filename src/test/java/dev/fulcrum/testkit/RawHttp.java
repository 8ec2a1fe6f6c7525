package dev.fulcrum.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deliberately plain HTTP/1.1 client on one socket per call: {@link #get} sends a GET with {@code Connection:
 * close} and reads to the end; {@link #send} sends any bytes (a hostile request) and reads until the server closes
 * or goes quiet; {@link #exchange} writes raw bytes in steps and splits what came back into the answers it holds,
 * in order. Pipelining is just bytes here: {@code GET /p1 ...} and {@code GET /p2 ...} in one write. The JDK
 * clients retry idempotent requests on their own, which would hide a failed GET from the proxy, and refuse to send
 * what a hostile-input test must.
 */
public final class RawHttp {
    private RawHttp() {
    }

    /**
     * One answer: its status, its head (status line and fields, without the blank line) and its body as its head
     * frames it; {@code complete} is false when the connection ended before the announced body did.
     */
    public record Response(int status, String head, String body, boolean complete) {
        public String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }

        /** The status line and the body, which is what a failed assertion on a list of answers needs to show. */
        @Override
        public String toString() {
            return head.lines().findFirst().orElse("") + " [" + body + "]";
        }
    }

    /**
     * What came back for raw bytes, as ISO-8859-1 text, and whether the server closed the connection (or reset it).
     * {@link #answers} splits the text into the whole answers it holds.
     */
    public record RawAnswer(String text, boolean closed) {
        /** The status code of the first response line, or -1 when nothing parseable came back. */
        public int status() {
            if (!text.startsWith("HTTP/")) {
                return -1;
            }
            int sp = text.indexOf(' ');
            try {
                return Integer.parseInt(text.substring(sp + 1, sp + 4));
            } catch (RuntimeException e) {
                return -1;
            }
        }

        /** A full response: the header block and a Content-Length body (or a final zero chunk) arrived. */
        public boolean complete() {
            int end = text.indexOf("\r\n\r\n");
            return end >= 0 && missing(text.substring(0, end), text.substring(end + 4)) <= 0;
        }

        public String firstLine() {
            int eol = text.indexOf("\r\n");
            return eol < 0 ? text : text.substring(0, eol);
        }

        /**
         * The whole answers in the text, in order: a body by Content-Length or chunked framing (chunk sizes kept), none
         * for a 1xx, 204 or 304, and up to the close without either. An answer cut short, and anything after it, is
         * left out.
         */
        public List<Response> answers() {
            List<Response> answers = new ArrayList<>();
            int at = 0;
            while (text.startsWith("HTTP/", at)) {
                int end = text.indexOf("\r\n\r\n", at);
                if (end < 0) {
                    break;
                }
                String head = text.substring(at, end);
                int status;
                try {
                    status = Integer.parseInt(head.substring(9, 12));
                } catch (RuntimeException e) {
                    break;
                }
                int bodyAt = end + 4;
                String lower = head.toLowerCase(Locale.ROOT);
                int cl = lower.indexOf("\r\ncontent-length:");
                String body;
                if (status / 100 == 1 || status == 204 || status == 304) {
                    body = "";
                } else if (cl >= 0) {
                    int eol = lower.indexOf("\r\n", cl + 2);
                    int n = Integer.parseInt(lower.substring(cl + 17, eol < 0 ? lower.length() : eol).trim());
                    if (bodyAt + n > text.length()) {
                        break;
                    }
                    body = text.substring(bodyAt, bodyAt + n);
                    bodyAt += n;
                } else if (lower.contains("\r\ntransfer-encoding: chunked")) {
                    int last = text.indexOf("\r\n0\r\n\r\n", bodyAt - 2);
                    if (last < 0) {
                        break;
                    }
                    body = text.substring(bodyAt, last + 2);
                    bodyAt = last + 7;
                } else {
                    body = text.substring(bodyAt); // delimited by the close
                    bodyAt = text.length();
                }
                answers.add(new Response(status, head, body, true));
                at = bodyAt;
            }
            return answers;
        }

        /** The status of each whole answer, in order. */
        public List<Integer> statuses() {
            return answers().stream().map(Response::status).toList();
        }
    }

    public static Response get(int port, String path, int timeoutMs) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(timeoutMs);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            return read(s.getInputStream());
        }
    }

    /** Reads one answer to the end of the stream. */
    public static Response read(InputStream in) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[16384];
        int n;
        try {
            while ((n = in.read(buf)) != -1) {
                got.write(buf, 0, n);
            }
        } catch (SocketException e) {
            // a reset after part of the answer: judge what arrived
        }
        String text = got.toString(StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/") || end < 0) {
            throw new IOException("no HTTP answer (got " + text.length() + " bytes)");
        }
        String head = text.substring(0, end);
        String body = text.substring(end + 4);
        return new Response(Integer.parseInt(head.substring(9, 12)), head, body, missing(head, body) == 0);
    }

    /**
     * Sends raw bytes and reads until the server closes the connection or {@code readTimeoutMs} passes; after a
     * complete successful answer on a kept-alive connection it looks 500 ms more for a close, then stops.
     */
    public static RawAnswer send(int port, byte[] request, int readTimeoutMs) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(readTimeoutMs);
            OutputStream out = s.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                // the proxy may close before reading everything (an oversized request): still read its answer
            }
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            boolean closed;
            try {
                int n;
                while ((n = in.read(buf)) != -1) {
                    got.write(buf, 0, n);
                    RawAnswer sofar = new RawAnswer(got.toString(StandardCharsets.ISO_8859_1), false);
                    if (sofar.complete() && sofar.status() < 400) {
                        s.setSoTimeout(500);
                    }
                }
                closed = true;
            } catch (SocketTimeoutException e) {
                closed = false;
            } catch (IOException e) {
                closed = true; // reset by the proxy counts as closed
            }
            return new RawAnswer(got.toString(StandardCharsets.ISO_8859_1), closed);
        }
    }

    /**
     * Writes each of {@code parts} on one connection, one write apiece and {@code pauseMs} apart (a client slow on
     * purpose, so that each part reaches the server in a read of its own), then reads as {@link #readUntilQuiet}
     * does. A server that closes before the last part still has what it sent read.
     */
    public static RawAnswer exchange(int port, int quietMs, long maxMs, long pauseMs, String... parts)
            throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setTcpNoDelay(true);
            for (int i = 0; i < parts.length; i++) {
                if (i > 0 && pauseMs > 0) {
                    try {
                        SlowOnPurpose.pause(pauseMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("interrupted between the parts of a request");
                    }
                }
                try {
                    s.getOutputStream().write(parts[i].getBytes(StandardCharsets.ISO_8859_1));
                    s.getOutputStream().flush();
                } catch (IOException e) {
                    break; // the server closed early: what it sent is still read
                }
            }
            return readUntilQuiet(s, quietMs, maxMs);
        }
    }

    /**
     * Reads {@code s} until the server closes (or resets) it or {@code quietMs} pass with nothing new, {@code maxMs}
     * at most in all.
     */
    public static RawAnswer readUntilQuiet(Socket s, int quietMs, long maxMs) throws IOException {
        InputStream in = s.getInputStream();
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        long deadline = System.nanoTime() + maxMs * 1_000_000L;
        boolean closed = false;
        s.setSoTimeout(quietMs);
        while (System.nanoTime() < deadline) {
            try {
                int n = in.read(buf);
                if (n < 0) {
                    closed = true;
                    break;
                }
                got.write(buf, 0, n);
            } catch (SocketTimeoutException quiet) {
                break;
            } catch (IOException reset) {
                closed = true;
                break;
            }
        }
        return new RawAnswer(got.toString(StandardCharsets.ISO_8859_1), closed);
    }

    /**
     * Body bytes the head announces that {@code body} lacks: 0 when it is exactly there, negative when more came.
     * A chunked body counts 1 until its final zero chunk; a body delimited by the close is always there.
     */
    private static long missing(String head, String body) {
        String lower = head.toLowerCase(Locale.ROOT);
        int cl = lower.indexOf("\r\ncontent-length:");
        if (cl >= 0) {
            int eol = lower.indexOf("\r\n", cl + 2);
            return Long.parseLong(lower.substring(cl + 17, eol < 0 ? lower.length() : eol).trim()) - body.length();
        }
        if (lower.contains("transfer-encoding: chunked")) {
            return body.endsWith("0\r\n\r\n") ? 0 : 1;
        }
        return 0;
    }
}
