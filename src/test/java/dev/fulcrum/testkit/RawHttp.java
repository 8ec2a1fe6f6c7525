package dev.fulcrum.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A deliberately plain HTTP/1.1 client on one socket per call: {@link #get} sends a GET with {@code Connection:
 * close} and reads to the end; {@link #send} sends any bytes (a hostile request) and reads until the server closes
 * or goes quiet. The JDK clients retry idempotent requests on their own, which would hide a failed GET from the
 * proxy, and refuse to send what a hostile-input test must.
 */
public final class RawHttp {
    private RawHttp() {
    }

    /** One answer; {@code complete} is false when the connection ended before the announced body did. */
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
    }

    /** What came back for raw bytes, as ISO-8859-1 text, and whether the server closed the connection. */
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
