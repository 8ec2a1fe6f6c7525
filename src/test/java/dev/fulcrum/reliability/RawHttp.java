package dev.fulcrum.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A deliberately plain HTTP/1.1 client: one socket per request, {@code Connection: close}, read to the end.
 * The JDK clients retry idempotent requests on their own, which would hide a failed GET from the proxy.
 */
final class RawHttp {
    private RawHttp() {
    }

    /** One answer; {@code complete} is false when the connection ended before the announced body did. */
    record Response(int status, String head, String body, boolean complete) {
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    static Response get(int port, String path, int timeoutMs) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(timeoutMs);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            return read(s.getInputStream());
        }
    }

    static Response read(InputStream in) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[16384];
        int n;
        try {
            while ((n = in.read(buf)) != -1) {
                got.write(buf, 0, n);
            }
        } catch (java.net.SocketException e) {
            // a reset after part of the answer: judge what arrived
        }
        String text = got.toString(StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/") || end < 0) {
            throw new IOException("no HTTP answer (got " + text.length() + " bytes)");
        }
        String head = text.substring(0, end);
        String body = text.substring(end + 4);
        int status = Integer.parseInt(head.substring(9, 12));
        String lower = head.toLowerCase(Locale.ROOT);
        boolean complete;
        int cl = lower.indexOf("\r\ncontent-length:");
        if (cl >= 0) {
            int eol = lower.indexOf("\r\n", cl + 2);
            long want = Long.parseLong(lower.substring(cl + 17, eol < 0 ? lower.length() : eol).trim());
            complete = body.length() == want;
        } else if (lower.contains("transfer-encoding: chunked")) {
            complete = body.endsWith("0\r\n\r\n");
        } else {
            complete = true; // delimited by the close
        }
        return new Response(status, head, body, complete);
    }
}
