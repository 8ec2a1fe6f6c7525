package dev.fulcrum.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A client on a plain socket for wire tests: writes raw bytes, reads what comes back until the server closes the
 * connection or nothing more arrives for a while, and splits it into the answers it holds, in order. Pipelining
 * is just bytes here: {@code GET /p1 ...} and {@code GET /p2 ...} in one write.
 */
final class WireClient {
    private WireClient() {
    }

    /** One answer: its status, its head (status line and fields) and its body as framed by its head. */
    record Answer(int status, String head, String body) {
        @Override
        public String toString() {
            return head.lines().findFirst().orElse("") + " [" + body + "]";
        }
    }

    /**
     * What came back on one connection: the answers, whether the server closed it, and any bytes after the last
     * whole answer (an answer cut short, or bytes that are no answer at all).
     */
    record Reply(List<Answer> answers, boolean closed, String rest) {
        List<Integer> statuses() {
            return answers.stream().map(Answer::status).toList();
        }

        List<String> bodies() {
            return answers.stream().map(Answer::body).toList();
        }
    }

    /**
     * Writes each of {@code parts} (one write apiece, {@code pauseMs} apart) and reads until the server closes or
     * {@code quietMs} pass with nothing new; at most {@code maxMs} in all.
     */
    static Reply exchange(int port, int quietMs, long maxMs, long pauseMs, String... parts) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setTcpNoDelay(true);
            for (int i = 0; i < parts.length; i++) {
                if (i > 0 && pauseMs > 0) {
                    sleep(pauseMs);
                }
                try {
                    s.getOutputStream().write(parts[i].getBytes(StandardCharsets.ISO_8859_1));
                    s.getOutputStream().flush();
                } catch (IOException e) {
                    break; // the server closed early: what it sent is still read
                }
            }
            return read(s, quietMs, maxMs);
        }
    }

    /** Reads {@code s} until the server closes it or {@code quietMs} pass with nothing new (at most {@code maxMs}). */
    static Reply read(Socket s, int quietMs, long maxMs) throws IOException {
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
        return parse(got.toString(StandardCharsets.ISO_8859_1), closed);
    }

    /** Splits {@code text} into whole answers (Content-Length or chunked bodies; a 1xx has none). */
    static Reply parse(String text, boolean closed) {
        List<Answer> answers = new ArrayList<>();
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
            answers.add(new Answer(status, head, body));
            at = bodyAt;
        }
        return new Reply(answers, closed, text.substring(at));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms); // a client that writes its request in two steps, not a wait for time to pass
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
