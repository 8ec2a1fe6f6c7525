package dev.fulcrum.admin;

import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.requests.RequestStream;
import dev.fulcrum.time.SystemClock;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code GET /api/requests}: server-sent events, event {@code request}, one JSON object ({@link RequestJson}) per
 * completed request, at most {@code ?rate=N} a second (default {@value #DEFAULT_RATE}). Each client reads the request
 * stream with its own cursor every {@value #POLL_MS} ms, from the moment it connects; when more arrived than its rate
 * allows, an even share of them is sent and the rest counted, and each event says in {@code dropped} how many requests
 * went unsent since the event before it (the rate, or requests overwritten before the cursor got to them). Served
 * on its own worker thread, like {@code /api/events}; a comment line keeps an idle stream open.
 */
final class RequestFeed {
    static final int DEFAULT_RATE = 200;
    static final int MAX_RATE = 100_000;
    static final long POLL_MS = 50;

    private final RequestStream stream;
    private final long keepAliveMs;
    private volatile boolean closed;

    RequestFeed(RequestStream stream, long keepAliveMs) {
        this.stream = stream;
        this.keepAliveMs = keepAliveMs;
    }

    void close() {
        closed = true;
    }

    /** Serves one client until it goes away; runs on a worker thread. */
    void serve(HttpServerExchange exchange, int rate) {
        exchange.startBlocking();
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/event-stream");
        exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-cache");
        AtomicBoolean gone = new AtomicBoolean();
        EventStream.watchForHangUp(exchange, () -> gone.set(true));
        RequestStream.Cursor cursor = stream.fromNow();
        double credit = 0;
        long unsent = 0;
        long sinceSent = SystemClock.nanoTime();
        List<RequestSample> found = new ArrayList<>();
        try (OutputStream out = exchange.getOutputStream()) {
            out.write(": connected\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            long last = SystemClock.nanoTime();
            while (!closed && !gone.get()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(POLL_MS));
                long now = SystemClock.nanoTime();
                credit = Math.min(rate, credit + rate * (now - last) / 1e9);
                last = now;
                long droppedBefore = cursor.dropped();
                found.clear();
                cursor.poll(found::add);
                unsent += cursor.dropped() - droppedBefore;
                int n = found.size();
                int allowed = (int) Math.min(n, Math.floor(credit));
                StringBuilder block = new StringBuilder();
                int prev = -1;
                for (int i = 0; i < allowed; i++) {
                    int pick = (int) ((long) i * n / allowed); // an even share of what was found
                    unsent += pick - prev - 1;
                    prev = pick;
                    Map<String, Object> m = RequestJson.of(found.get(pick));
                    m.put("dropped", unsent);
                    unsent = 0;
                    block.append("event: request\ndata: ").append(Json.write(m)).append("\n\n");
                }
                unsent += n - prev - 1;
                credit -= allowed;
                if (block.length() == 0 && now - sinceSent >= TimeUnit.MILLISECONDS.toNanos(keepAliveMs)) {
                    block.append(": keep-alive\n\n");
                }
                if (block.length() > 0) {
                    out.write(block.toString().getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    sinceSent = now;
                }
            }
        } catch (IOException e) {
            // the client went away, or the server is stopping
        }
    }
}
