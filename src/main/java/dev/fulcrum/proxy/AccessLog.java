package dev.fulcrum.proxy;

import dev.fulcrum.engine.Outcome;
import io.undertow.server.HttpServerExchange;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JSON-lines access log: one line per request with time, method, path, status, backend, attempts,
 * latency and bytes. I/O threads only format the line and offer it to a bounded queue; one writer thread
 * does the I/O in batches. When the writer cannot keep up, lines are dropped and counted rather than
 * slowing the proxy down.
 */
final class AccessLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AccessLog.class);
    private static final int QUEUE = 65_536;

    /** One finished request; formatted into JSON on the writer thread, not on the I/O thread. */
    private record Entry(long atMillis, String method, String path, int status, String backend, int attempts,
                         long latencyNanos, long bytes) {
        void appendTo(StringBuilder b, Clock clock) {
            b.append("{\"time\":\"");
            clock.append(b, atMillis);
            b.append("\",\"method\":\"").append(method)
                    .append("\",\"path\":\"").append(ErrorResponses.escape(path))
                    .append("\",\"status\":").append(status)
                    .append(",\"backend\":");
            if (backend == null) {
                b.append("null");
            } else {
                b.append('"').append(backend).append('"');
            }
            b.append(",\"attempts\":").append(attempts)
                    .append(",\"latencyMs\":").append(Math.round(latencyNanos / 1000.0) / 1000.0)
                    .append(",\"bytes\":").append(bytes).append("}\n");
        }
    }

    /** ISO-8601 UTC timestamps with milliseconds; the date-time part is formatted once per second. */
    private static final class Clock {
        private long second = Long.MIN_VALUE;
        private String prefix = "";

        void append(StringBuilder b, long millis) {
            long s = Math.floorDiv(millis, 1000);
            if (s != second) {
                second = s;
                String full = Instant.ofEpochSecond(s).toString(); // 2026-11-30T11:03:26Z
                prefix = full.substring(0, full.length() - 1) + ".";
            }
            int ms = (int) Math.floorMod(millis, 1000);
            b.append(prefix).append((char) ('0' + ms / 100)).append((char) ('0' + ms / 10 % 10))
                    .append((char) ('0' + ms % 10)).append('Z');
        }
    }

    private final BlockingQueue<Entry> queue = new ArrayBlockingQueue<>(QUEUE);
    private final LongAdder dropped = new LongAdder();
    private final Writer out;
    private final Thread writer;
    private volatile boolean running = true;

    AccessLog(String file) throws IOException {
        this.out = new BufferedWriter(file == null
                ? new OutputStreamWriter(System.err, StandardCharsets.UTF_8)
                : Files.newBufferedWriter(Path.of(file), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND), 1 << 16);
        this.writer = new Thread(this::drain, "fulcrum-access-log");
        writer.setDaemon(true);
        writer.start();
    }

    long dropped() {
        return dropped.sum();
    }

    void log(HttpServerExchange ex, String backend, int attempts, long latencyNanos) {
        Entry e = new Entry(System.currentTimeMillis(), ex.getRequestMethod().toString(), ex.getRequestPath(),
                ex.getStatusCode(), backend, attempts, latencyNanos, ex.getResponseBytesSent());
        if (!queue.offer(e)) {
            dropped.increment();
        }
    }

    void attemptFailed(String backend, Outcome why, IOException e) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("attempt on {} failed: {} ({})", backend, why, e.toString());

        }
    }

    private void drain() {
        try {
            StringBuilder b = new StringBuilder(1 << 16);
            Clock clock = new Clock();
            while (running || !queue.isEmpty()) {
                Entry e = queue.poll(200, TimeUnit.MILLISECONDS);
                if (e == null) {
                    continue;
                }
                do {
                    e.appendTo(b, clock);
                    if (b.length() > 60_000) {
                        out.append(b);
                        b.setLength(0);
                    }
                } while ((e = queue.poll()) != null);
                out.append(b);
                b.setLength(0);
                out.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            LOG.warn("access log write failed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            writer.join(2000);
            out.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException ignored) {
            // nothing left to do at shutdown
        }
    }
}
