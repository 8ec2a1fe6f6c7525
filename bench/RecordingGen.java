import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Writes a made-up nginx access log, the same bytes for the same arguments: a shop's traffic (product pages with a
 * few popular ids, searches, cart posts, static files, health checks) arriving as a Poisson process at {@code rate}
 * requests a second from 500 clients, each line written when its request ends (as nginx does), in the format
 *
 *   $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer"
 *   "$http_user_agent" $request_time $upstream_response_time "$upstream_addr"
 *
 * Service times are log-normal per kind of request (static 2 ms, product 15 ms, cart 30 ms, search 60 ms medians).
 * It makes samples/recordings/shop.log and the million lines of BENCHMARKS.md "Compare a recording":
 *
 *   java bench/RecordingGen.java 5000 200 33 samples/recordings/shop.log
 *   java bench/RecordingGen.java 1000000 2000 33 /tmp/million.log
 */
public class RecordingGen {
    public static final String FORMAT = "$remote_addr - $remote_user [$time_local] \"$request\" $status "
            + "$body_bytes_sent \"$http_referer\" \"$http_user_agent\" $request_time $upstream_response_time "
            + "\"$upstream_addr\"";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final String[] AGENTS = {
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
        "curl/8.5.0"};
    private static final String[] UPSTREAMS = {"10.1.0.11:8080", "10.1.0.12:8080", "10.1.0.13:8080"};

    record Line(long endMicros, long seq, String text) {
    }

    public static void main(String[] a) throws IOException {
        long lines = Long.parseLong(a[0]);
        double rate = Double.parseDouble(a[1]);
        long seed = Long.parseLong(a[2]);
        Path out = Path.of(a[3]);
        SplittableRandom rnd = new SplittableRandom(seed);
        long start = Instant.parse("2026-12-05T09:00:00Z").getEpochSecond() * 1_000_000L;
        long t = start;
        PriorityQueue<Line> ending = new PriorityQueue<>((x, y) -> x.endMicros != y.endMicros
                ? Long.compare(x.endMicros, y.endMicros) : Long.compare(x.seq, y.seq));
        long lastSecond = Long.MIN_VALUE;
        String timeText = "";
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (long i = 0; i < lines; i++) {
                t += Math.round(-Math.log(1 - rnd.nextDouble()) / rate * 1e6);
                String method = "GET";
                String target;
                double median;
                int status = 200;
                long bytes;
                double k = rnd.nextDouble();
                if (k < 0.30) {
                    target = "/static/" + new String[] {"app.js", "app.css", "logo.svg", "font.woff2"}[rnd.nextInt(4)];
                    median = 2;
                    bytes = 2_000 + rnd.nextInt(40_000);
                } else if (k < 0.70) {
                    // a few products are much more popular than the rest
                    int id = (int) Math.floor(Math.pow(rnd.nextDouble(), 3) * 2000);
                    target = "/api/products?id=" + id;
                    median = 15;
                    bytes = 800 + rnd.nextInt(3_000);
                } else if (k < 0.85) {
                    target = "/api/search?q=" + new String[] {"shoes", "red+shirt", "socks", "hat", "coat"}[rnd.nextInt(5)]
                            + "&page=" + (1 + rnd.nextInt(3));
                    median = 60;
                    bytes = 5_000 + rnd.nextInt(20_000);
                } else if (k < 0.97) {
                    method = "POST";
                    target = "/api/cart";
                    median = 30;
                    status = rnd.nextDouble() < 0.02 ? 409 : 201;
                    bytes = 200 + rnd.nextInt(500);
                } else {
                    target = "/health";
                    median = 0.5;
                    bytes = 15;
                }
                double service = median * Math.exp(0.6 * gaussian(rnd)) / 1000;
                if (status == 200 && rnd.nextDouble() < 0.003) {
                    status = 502;
                }
                double requestTime = service + 0.0005 + rnd.nextDouble() * 0.001;
                long end = t + Math.round(requestTime * 1e6);
                int client = rnd.nextInt(500);
                String ip = "10.0." + (client / 250) + "." + (1 + client % 250);
                String referer = target.startsWith("/static") || target.startsWith("/api/products")
                        ? "https://shop.example/" : "-";
                String line = ip + " - - [TIME] \"" + method + " " + target + " HTTP/1.1\" " + status + " " + bytes
                        + " \"" + referer + "\" \"" + AGENTS[client % AGENTS.length] + "\" "
                        + String.format(Locale.ROOT, "%.3f %.3f", requestTime, service) + " \""
                        + UPSTREAMS[(int) (i % UPSTREAMS.length)] + "\"";
                ending.add(new Line(end, i, line));
                while (!ending.isEmpty() && ending.peek().endMicros <= t) {
                    Line l = ending.poll();
                    long s = Math.floorDiv(l.endMicros, 1_000_000L);
                    if (s != lastSecond) {
                        lastSecond = s;
                        timeText = TIME.format(Instant.ofEpochSecond(s));
                    }
                    w.write(l.text.replace("[TIME]", "[" + timeText + "]"));
                    w.write('\n');
                }
            }
            while (!ending.isEmpty()) {
                Line l = ending.poll();
                w.write(l.text.replace("[TIME]", "[" + TIME.format(Instant.ofEpochSecond(
                        Math.floorDiv(l.endMicros, 1_000_000L))) + "]"));
                w.write('\n');
            }
        }
    }

    /** A standard normal draw (Box-Muller), from the seeded generator alone. */
    static double gaussian(SplittableRandom rnd) {
        double u = 1 - rnd.nextDouble();
        double v = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
}
