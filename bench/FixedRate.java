import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An open-loop, fixed-rate HTTP/1.1 load: {@code connections} keep-alive connections, each sending GET /
 * on its own schedule so that together they send {@code rate} requests a second for {@code seconds}.
 * Latency counts from when a request was due, not when it went out, so a stall is charged to every request
 * it delayed (no coordinated omission, as in wrk2). Prints "p50 p99 p999 max" in milliseconds and the
 * number of requests. For bench/latency-added.sh only; loopback only.
 *
 *   java bench/FixedRate.java http://127.0.0.1:8080/ 2000 10 20
 */
public class FixedRate {
    public static void main(String[] a) throws Exception {
        java.net.URI uri = java.net.URI.create(a[0]);
        int rate = Integer.parseInt(a[1]);
        int connections = Integer.parseInt(a[2]);
        int seconds = Integer.parseInt(a[3]);
        long interval = 1_000_000_000L * connections / rate; // per connection
        long start = System.nanoTime() + 200_000_000L;
        long end = start + seconds * 1_000_000_000L;
        byte[] request = ("GET " + (uri.getRawPath().isEmpty() ? "/" : uri.getRawPath()) + " HTTP/1.1\r\nHost: "
                + uri.getHost() + ":" + uri.getPort() + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        List<long[]> perThread = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        int[] failures = new int[connections];
        for (int c = 0; c < connections; c++) {
            long[] lat = new long[(int) (seconds * (long) rate / connections + 16)];
            perThread.add(lat);
            int id = c;
            long first = start + interval * c / connections; // spread the connections over one interval
            Thread t = new Thread(() -> {
                int n = 0;
                Socket s = null;
                try {
                    byte[] buf = new byte[16 * 1024];
                    for (long due = first; due < end && n < lat.length; due += interval) {
                        long now;
                        while ((now = System.nanoTime()) < due) {
                            // parked, never spinning: a spinning client would take the CPU the proxy under
                            // test needs on a small machine; waking late is charged to every target alike
                            java.util.concurrent.locks.LockSupport.parkNanos(due - now);
                        }
                        if (s == null) { // (re)connect: nginx closes a keep-alive connection after 1000 requests
                            s = new Socket(uri.getHost(), uri.getPort());
                            s.setTcpNoDelay(true);
                            s.setSoTimeout(10_000);
                        }
                        s.getOutputStream().write(request);
                        s.getOutputStream().flush();
                        int answer = readResponse(s.getInputStream(), buf);
                        if (answer < 0) {
                            failures[id]++;
                            return;
                        }
                        lat[n++] = System.nanoTime() - due;
                        if (answer == 1) {
                            s.close();
                            s = null;
                        }
                    }
                } catch (Exception e) {
                    failures[id]++;
                } finally {
                    if (n < lat.length) {
                        lat[n] = -1; // end marker
                    }
                    if (s != null) {
                        try {
                            s.close();
                        } catch (java.io.IOException ignored) {
                            // done anyway
                        }
                    }
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long[] all = perThread.stream().flatMapToLong(l -> Arrays.stream(l).takeWhile(v -> v >= 0)).filter(v -> v > 0)
                .sorted().toArray();
        int failed = Arrays.stream(failures).sum();
        System.out.printf("%.3f %.3f %.3f %.3f %d %d%n", ms(at(all, 0.50)), ms(at(all, 0.99)), ms(at(all, 0.999)),
                ms(all[all.length - 1]), all.length, failed);
    }

    private static long at(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /**
     * Reads one response with a Content-Length body (what nginx and Fulcrum send here): 0 for a 200 on a
     * connection that stays open, 1 for a 200 with Connection: close, -1 for anything else.
     */
    private static int readResponse(InputStream in, byte[] buf) throws java.io.IOException {
        int len = 0;
        int headerEnd = -1;
        while (headerEnd < 0) {
            int r = in.read(buf, len, buf.length - len);
            if (r < 0) {
                return -1;
            }
            len += r;
            headerEnd = indexOf(buf, len);
        }
        String head = new String(buf, 0, headerEnd, StandardCharsets.ISO_8859_1).toLowerCase();
        int i = head.indexOf("content-length:");
        int body = i < 0 ? 0 : Integer.parseInt(head.substring(i + 15, head.indexOf('\r', i)).trim());
        int have = len - (headerEnd + 4);
        while (have < body) {
            int r = in.read(buf, 0, Math.min(buf.length, body - have));
            if (r < 0) {
                return -1;
            }
            have += r;
        }
        return !head.startsWith("http/1.1 200") ? -1 : head.contains("connection: close") ? 1 : 0;
    }

    private static int indexOf(byte[] b, int len) {
        for (int i = 0; i + 3 < len; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
