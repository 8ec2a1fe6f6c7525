import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * How long a change written to etcd takes to be applied by every instance sharing the config: {@code changes} times,
 * the weight of backend b1 in the config at KEY is set to a new value through etcd's JSON gateway, and the time is
 * taken from the put's answer until each instance's event stream ({@code GET /api/events}) has announced b1's new
 * weight. Prints the p50, p99 and max in milliseconds over every (change, instance) pair. For
 * bench/etcd-propagation.sh only; loopback only.
 *
 *   java bench/EtcdPropagation.java http://127.0.0.1:2379 /bench/config CONFIG_FILE 100 http://127.0.0.1:9001 ...
 */
public class EtcdPropagation {
    record Seen(int instance, String text, long at) {
    }

    public static void main(String[] a) throws Exception {
        String etcd = a[0];
        String key = a[1];
        String config = java.nio.file.Files.readString(java.nio.file.Path.of(a[2]));
        int changes = Integer.parseInt(a[3]);
        List<String> admins = List.of(a).subList(4, a.length);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        for (int i = 0; i < admins.size(); i++) {
            int instance = i;
            HttpRequest sse = HttpRequest.newBuilder(URI.create(admins.get(i) + "/api/events")).build();
            http.sendAsync(sse, HttpResponse.BodyHandlers.ofLines()).thenAccept(r -> r.body().forEach(line -> {
                if (line.startsWith("data:") && line.contains("\"weight\"") && line.contains("\"b1\"")) {
                    seen.add(new Seen(instance, line, System.nanoTime()));
                }
            }));
        }
        Thread.sleep(500); // the event streams are open before the first change
        List<Double> ms = new ArrayList<>();
        for (int c = 0; c < changes; c++) {
            int weight = 2 + c % 50;
            String next = config.replaceFirst("\"weight\"\\s*:\\s*\\d+", "\"weight\": " + weight);
            String body = "{\"key\":\"" + b64(key) + "\",\"value\":\"" + b64(next) + "\"}";
            HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(etcd + "/v3/kv/put"))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            long written = System.nanoTime();
            if (put.statusCode() != 200) {
                throw new IllegalStateException("put answered " + put.statusCode() + ": " + put.body());
            }
            boolean[] done = new boolean[admins.size()];
            int left = admins.size();
            while (left > 0) {
                Seen s = seen.poll(10, TimeUnit.SECONDS);
                if (s == null) {
                    throw new IllegalStateException("change " + c + ": no weight event in 10 s from an instance");
                }
                if (!done[s.instance()] && s.text().contains("\"to\":\"" + weight + "\"")) {
                    done[s.instance()] = true;
                    left--;
                    ms.add(Math.max(0, s.at() - written) / 1e6);
                }
            }
        }
        ms.sort(null);
        System.out.printf("%d changes x %d instances: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", changes,
                admins.size(), ms.get(ms.size() / 2), ms.get((int) Math.ceil(ms.size() * 0.99) - 1),
                ms.get(ms.size() - 1));
        System.exit(0);
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
