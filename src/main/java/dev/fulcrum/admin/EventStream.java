package dev.fulcrum.admin;

import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineEvent;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.protocol.http.HttpServerConnection;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.xnio.conduits.ConduitStreamSourceChannel;

/**
 * {@code GET /api/events}: server-sent events, one JSON object per engine event.
 *
 * <p>Each client has its own bounded buffer filled by the publishing thread without blocking; when a slow
 * client's buffer is full the oldest event is dropped and counted, and the client is told with a
 * {@code dropped} event before the next one it does get. Each client is served by its own worker thread
 * doing blocking writes, so a stalled client stalls only itself. A comment line every
 * {@value #KEEP_ALIVE_MS} ms keeps idle connections open through intermediaries.
 */
final class EventStream {
    static final int BUFFER = 1024;
    static final long KEEP_ALIVE_MS = 15_000;

    private final Engine engine;
    private final long keepAliveMs;
    private final Set<Client> clients = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    EventStream(Engine engine, long keepAliveMs) {
        this.engine = engine;
        this.keepAliveMs = keepAliveMs;
    }

    int clients() {
        return clients.size();
    }

    /** Serves one client until it goes away; runs on a worker thread. */
    void serve(HttpServerExchange exchange) {
        exchange.startBlocking();
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/event-stream");
        exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-cache");
        Client c = new Client();
        clients.add(c);
        engine.subscribe(c);
        watchForHangUp(exchange, c::hangUp);
        try (OutputStream out = exchange.getOutputStream()) {
            out.write(": connected\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            while (!closed && !c.gone) {
                String next = c.take(keepAliveMs);
                if (c.gone) {
                    break;
                }
                out.write((next == null ? ": keep-alive\n\n" : next).getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // client went away (or we are shutting down)
        } finally {
            engine.unsubscribe(c);
            clients.remove(c);
        }
    }

    /**
     * A client that leaves is seen at once, not at the next keep-alive write (15-30 s later): Undertow does not read
     * a connection whose request is running, so this reads it (a client says nothing on an event stream; anything
     * it sends is discarded) and ends the stream on end-of-stream or a reset, freeing its slot and thread.
     */
    static void watchForHangUp(HttpServerExchange exchange, Runnable hungUp) {
        if (!(exchange.getConnection() instanceof HttpServerConnection h)) {
            return;
        }
        h.getIoThread().execute(() -> {
            ConduitStreamSourceChannel src = h.getChannel().getSourceChannel();
            src.setReadListener(ch -> {
                ByteBuffer buf = ByteBuffer.allocate(256);
                try {
                    int n;
                    while ((n = ch.read(buf)) > 0) {
                        buf.clear();
                    }
                    if (n < 0) {
                        ch.suspendReads();
                        hungUp.run();
                    }
                } catch (IOException e) {
                    ch.suspendReads();
                    hungUp.run();
                }
            });
            src.resumeReads();
        });
    }

    void close() {
        closed = true;
        for (Client c : clients) {
            c.wake();
        }
    }

    static String frame(EngineEvent e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", e.type());
        m.put("pool", e.pool());
        m.put("backend", e.backend());
        m.put("from", e.from());
        m.put("to", e.to());
        m.put("at", e.at());
        if (e.route() != null) {
            m.put("route", e.route());
        }
        return "event: " + e.type() + "\ndata: " + Json.write(m) + "\n\n";
    }

    /** One subscriber's bounded buffer. */
    private final class Client implements Consumer<EngineEvent> {
        private final ArrayDeque<String> queue = new ArrayDeque<>();
        private long dropped;
        /** The client closed its end. */
        private volatile boolean gone;

        synchronized void hangUp() {
            gone = true;
            notifyAll();
        }

        @Override
        public synchronized void accept(EngineEvent e) {
            if (queue.size() >= BUFFER) {
                queue.pollFirst();
                dropped++;
            }
            queue.addLast(frame(e));
            notifyAll();
        }

        /**
         * Everything queued, as one block of frames (one write and one flush for a burst, not one per event),
         * preceded by a {@code dropped} notice when events were lost; null after {@code waitMs} of silence.
         */
        synchronized String take(long waitMs) throws InterruptedException {
            if (queue.isEmpty() && !closed && !gone) {
                wait(waitMs);
            }
            if (queue.isEmpty() && dropped == 0) {
                return null;
            }
            StringBuilder out = new StringBuilder();
            if (dropped > 0) {
                out.append("event: dropped\ndata: {\"type\":\"dropped\",\"count\":").append(dropped).append("}\n\n");
                dropped = 0;
            }
            for (String f; (f = queue.pollFirst()) != null; ) {
                out.append(f);
            }
            return out.toString();
        }

        synchronized void wake() {
            notifyAll();
        }
    }
}
