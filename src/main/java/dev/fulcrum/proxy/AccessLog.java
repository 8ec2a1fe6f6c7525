package dev.fulcrum.proxy;

import dev.fulcrum.engine.Outcome;
import dev.fulcrum.requests.Decision;
import dev.fulcrum.rules.JsonText;
import dev.fulcrum.threads.PerThread;
import dev.fulcrum.time.SystemClock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JSON-lines access log: one line per request with time, method, path, status, backend, attempts,
 * latency and bytes, and, while {@code proxy.logDecisions} is on, how the backend was chosen ({@code "decision"},
 * docs/REFERENCE.md §5); then, for a request a route took, {@code "route"} (its index), {@code "arm"} (a split's
 * pool) and {@code "class"} where set, and {@code "shed": true} for one refused at its class ceiling. A mirrored copy
 * is no client request and has no line.
 *
 * <p>Who owns what: each thread that logs (the proxy's I/O threads) appends to its own {@link Batch}, under
 * that batch's lock, which only the writer thread ever contends for, and only once per sweep. The writer
 * thread wakes every {@value #SWEEP_MS} ms, swaps every batch for an empty list, orders the entries by time,
 * formats and writes them. So a request costs one uncontended lock and one small object, never a wake-up of
 * another thread (a shared queue signalling its consumer per line cost the proxy about a tenth of its
 * throughput). When the writer cannot keep up, a full batch drops lines and counts them rather than
 * slowing the proxy down.
 */
final class AccessLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AccessLog.class);
    /** Lines a thread may hold between two sweeps before it drops. */
    private static final int BATCH_LIMIT = 65_536;
    private static final long SWEEP_MS = 100;

    /** One finished request; formatted into JSON on the writer thread, not on the I/O thread. */
    private record Entry(long atMillis, String method, String path, int status, String backend, int attempts,
                         long latencyNanos, long bytes, Decision decision, int route, String arm, String routeClass,
                         boolean shed) {
        void appendTo(StringBuilder b, Clock clock) {
            b.append("{\"time\":\"");
            clock.append(b, atMillis);
            b.append("\",\"method\":\"").append(method)
                    .append("\",\"path\":\"");
            JsonText.appendEscaped(b, path);
            b.append("\",\"status\":").append(status)
                    .append(",\"backend\":");
            if (backend == null) {
                b.append("null");
            } else {
                b.append('"').append(backend).append('"');
            }
            b.append(",\"attempts\":").append(attempts)
                    .append(",\"latencyMs\":");
            appendMillis(b, latencyNanos);
            b.append(",\"bytes\":").append(bytes);
            if (decision != null) {
                b.append(",\"decision\":");
                decision.appendJson(b);
            }
            if (route >= 0) {
                b.append(",\"route\":").append(route);
            }
            if (arm != null) {
                b.append(",\"arm\":\"");
                JsonText.appendEscaped(b, arm);
                b.append('"');
            }
            if (routeClass != null) {
                b.append(",\"class\":\"");
                JsonText.appendEscaped(b, routeClass);
                b.append('"');
            }
            if (shed) {
                b.append(",\"shed\":true");
            }
            b.append("}\n");
        }
    }

    /** Milliseconds with up to three decimals, as {@code 12.5} or {@code 0.042}, without a floating-point format. */
    static void appendMillis(StringBuilder b, long nanos) {
        long micros = (Math.max(0, nanos) + 500) / 1000;
        b.append(micros / 1000).append('.');
        int frac = (int) (micros % 1000);
        b.append((char) ('0' + frac / 100));
        if (frac % 100 != 0) {
            b.append((char) ('0' + frac / 10 % 10));
            if (frac % 10 != 0) {
                b.append((char) ('0' + frac % 10));
            }
        }
    }

    /** The entries one thread logged since the last sweep. */
    private static final class Batch {
        private ArrayList<Entry> entries = new ArrayList<>();

        synchronized boolean add(Entry e) {
            if (entries.size() >= BATCH_LIMIT) {
                return false;
            }
            entries.add(e);
            return true;
        }

        synchronized List<Entry> take() {
            if (entries.isEmpty()) {
                return List.of(); // an idle thread's list is kept, not replaced ten times a second
            }
            ArrayList<Entry> taken = entries;
            entries = new ArrayList<>(Math.min(BATCH_LIMIT, Math.max(16, taken.size())));
            return taken;
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

    private final List<Batch> batches = new CopyOnWriteArrayList<>();
    private final PerThread<Batch> mine = PerThread.withInitial(() -> {
        Batch b = new Batch();
        batches.add(b);
        return b;
    });
    private static final Comparator<Entry> BY_TIME = Comparator.comparingLong(Entry::atMillis);
    private final LongAdder dropped = new LongAdder();
    /** False when the log goes to /dev/null: nothing is kept, formatted or written, as nginx's {@code access_log off}. */
    private final boolean on;
    /** Where lines go: written (and reopened) by the writer thread only, closed by {@link #close} after it ends. */
    private volatile WritableByteChannel out;
    /** The file, or null for standard error. */
    private final Path path;
    /** Set by {@link #reopen}: the writer opens the file again before its next write. */
    private volatile boolean reopen;
    /** The last failed write stopped inside a line (writer thread only). */
    private boolean cutShort;
    private final Thread writer;
    private volatile boolean running = true;

    AccessLog(String file) throws IOException {
        this.path = file == null ? null : Path.of(file);
        if (file != null && isDevNull(Path.of(file))) {
            this.on = false;
            this.out = null;
            this.writer = null;
            return;
        }
        this.on = true;
        this.out = path == null ? Channels.newChannel(System.err) : open(path);
        this.writer = new Thread(this::drain, "fulcrum-access-log");
        writer.setDaemon(true);
        writer.start();
    }

    private static FileChannel open(Path p) throws IOException {
        return FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    /**
     * Opens the file again by its name before the next write (SIGUSR1, as nginx's reopen): after logrotate has moved
     * the file away, lines went on into the moved file, which logrotate later compressed and deleted.
     */
    public void reopen() {
        reopen = true;
        if (writer != null) {
            LockSupport.unpark(writer);
        }
    }

    private void reopenNow() {
        reopen = false;
        if (path == null) {
            return;
        }
        try {
            WritableByteChannel fresh = open(path);
            WritableByteChannel old = out;
            out = fresh;
            old.close();
        } catch (IOException e) {
            LOG.warn("cannot reopen the access log {}: {}; lines go on into the file already open", path, e.toString());
        }
    }

    private static boolean isDevNull(Path p) {
        try {
            return Files.exists(p) && p.toRealPath().equals(Path.of("/dev/null").toRealPath());
        } catch (IOException e) {
            return false;
        }
    }

    /** False when lines go nowhere (the log points at /dev/null). */
    boolean enabled() {
        return on;
    }

    long dropped() {
        return dropped.sum();
    }

    /**
     * One request's line. {@code status} is what the client got: the exchange's, or 499 when it hung up before the
     * answer, or 101 for an upgraded connection logged at its close (then {@code bytes} counts both ways). With how its
     * backend was chosen ({@code decision}: null when not recorded, and left out) and how it was routed (its route, arm,
     * class and whether it was shed, each written only when set).
     */
    void log(ExchangeRequest ex, String backend, int status, int attempts, long latencyNanos, long bytes,
             Decision decision) {
        if (!on) {
            return;
        }
        long at = SystemClock.currentTimeMillis();
        String method = ex.getRequestMethod().toString();
        if (ex.route == null) {
            log(at, method, ex.getRequestPath(), status, backend, attempts, latencyNanos, bytes, decision);
            return;
        }
        add(new Entry(at, method, ex.getRequestPath(), status, backend, attempts, latencyNanos, bytes, decision,
                ex.routeIndex(), ex.armPool(), ex.routeClass(), ex.shed));
    }

    void log(long atMillis, String method, String path, int status, String backend, int attempts, long latencyNanos,
             long bytes) {
        log(atMillis, method, path, status, backend, attempts, latencyNanos, bytes, null);
    }

    void log(long atMillis, String method, String path, int status, String backend, int attempts, long latencyNanos,
             long bytes, Decision decision) {
        if (!on) {
            return;
        }
        add(new Entry(atMillis, method, path, status, backend, attempts, latencyNanos, bytes, decision, -1, null, null,
                false));
    }

    private void add(Entry e) {
        if (!mine.get().add(e)) {
            dropped.increment();
        }
    }

    void attemptFailed(String backend, Outcome why, IOException e) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("attempt on {} failed: {} ({})", backend, why, e.toString());
        }
    }

    private void drain() {
        StringBuilder b = new StringBuilder(1 << 16);
        Clock clock = new Clock();
        ArrayList<Entry> sweep = new ArrayList<>();
        boolean last = false;
        boolean failed = false;
        long warnedAt = 0;
        while (!last) {
            last = !running;
            if (!last) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(SWEEP_MS));
            }
            if (reopen) {
                reopenNow();
            }
            for (Batch batch : batches) {
                sweep.addAll(batch.take());
            }
            if (sweep.isEmpty()) {
                continue;
            }
            sweep.sort(BY_TIME); // stable: one thread's lines keep their order
            try {
                if (failed && cutShort) {
                    // the same file again (a disk that was full, a pipe whose reader restarted), after a line break
                    // so that the line the failure cut short does not run into the next one
                    b.append('\n');
                }
                failed = false;
                for (Entry e : sweep) {
                    e.appendTo(b, clock);
                    if (b.length() > 60_000) {
                        write(b);
                    }
                }
                write(b);
            } catch (IOException e) {
                // this sweep's lines are lost, not the log: the next sweep tries again
                dropped.add(sweep.size());
                b.setLength(0);
                failed = true;
                long now = SystemClock.nanoTime();
                if (warnedAt == 0 || now - warnedAt > TimeUnit.SECONDS.toNanos(10)) {
                    warnedAt = now;
                    LOG.warn("access log write failed, {} line(s) lost so far: {}", dropped.sum(), e.toString());
                }
            }
            sweep.clear();
        }
    }

    /** One write per chunk; String's own UTF-8 encoding is much cheaper than a Writer's encoder loop. */
    private void write(StringBuilder b) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(b.toString().getBytes(StandardCharsets.UTF_8));
        b.setLength(0);
        try {
            while (buf.hasRemaining()) {
                out.write(buf);
            }
        } catch (IOException e) {
            // each chunk starts on a line boundary, so a byte written without its line's end means a cut line
            cutShort = buf.position() > 0 && buf.get(buf.position() - 1) != '\n';
            throw e;
        }
    }

    @Override
    public void close() {
        if (!on) {
            return;
        }
        running = false;
        LockSupport.unpark(writer);
        try {
            writer.join(2000);
            if (out instanceof FileChannel) {
                out.close();
            } else {
                System.err.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException ignored) {
            // nothing left to do at shutdown
        }
    }
}
