package dev.fulcrum.testkit;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.xnio.IoUtils;

/**
 * A real HTTP backend (Undertow) on a loopback port that records every request it receives (method, target, all
 * header values, body), so a test can prove what, if anything, got through the proxy. It answers its
 * {@link #name} (with an {@code X-Test-Backend} header), except {@code /echo-body} (the request body) and
 * {@code /path} (the target as it arrived); it can be told to answer slowly or with another status, and to go down
 * (and come back on the same port) or die as a crashed process does.
 */
public final class RecordingBackend implements AutoCloseable {
    /** Starts the text that follows the bytes of a body that broke off before its end. */
    public static final String UNREADABLE = "<unreadable: ";

    /** One request as the backend saw it; header names are lower-cased, each with every value it carried. */
    public record Seen(String method, String uri, String query, Map<String, List<String>> headers, String body) {
    }

    public final String name;
    public final List<Seen> seen = new CopyOnWriteArrayList<>();
    public final AtomicInteger requests = new AtomicInteger();
    /** Each answer waits this long after the body is read: a slow backend. */
    public volatile long delayMs;
    /**
     * While set and not counted down, each request waits on it before answering (at most 30 s): a request held for as
     * long as a test needs it held, and let go at once.
     */
    public volatile java.util.concurrent.CountDownLatch hold;
    public volatile int status = 200;
    private Undertow server;
    /** While going down: connections are dropped unanswered, as by a crashed process (a graceful stop answers 503). */
    private volatile boolean dying;
    /** Requests being answered on a worker thread, for {@link #kill()} to wait on. */
    private final AtomicInteger working = new AtomicInteger();
    private final int port;

    public RecordingBackend(String name) {
        this.name = name;
        this.server = listen(0);
        this.port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    }

    private Undertow listen(int p) {
        // stopping waits at most 2 s for the requests being answered, then interrupts them: a backend slow on
        // purpose for longer would otherwise hold every down() and close() for the rest of its pause
        Undertow u = Undertow.builder().addHttpListener(p, "127.0.0.1").setIoThreads(1).setWorkerThreads(32)
                .setServerOption(UndertowOptions.SHUTDOWN_TIMEOUT, 2_000)
                .setHandler(this::handle).build();
        u.start();
        return u;
    }

    /**
     * Goes down at once: the port refuses connections until {@link #up()}. Requests being answered get at most 2 s
     * to finish; a slow answer's pause is cut short after that and the request dropped.
     */
    public synchronized void down() {
        if (server != null) {
            dying = true;
            server.stop();
            server = null;
        }
    }

    /** Comes back on the same port. */
    public synchronized void up() {
        if (server == null) {
            dying = false;
            server = listen(port);
        }
    }

    public synchronized boolean isUp() {
        return server != null;
    }

    /**
     * Dies like a killed process: from now on every connection is dropped without an answer, and the port goes
     * away once the requests already being answered are done (at most 2 s).
     */
    public void kill() {
        dying = true;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        synchronized (working) {
            long left;
            while (working.get() > 0 && (left = until - System.nanoTime()) > 0) {
                try {
                    working.wait(left / 1_000_000 + 1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        down();
    }

    private void handle(HttpServerExchange ex) {
        if (dying) {
            IoUtils.safeClose(ex.getConnection());
            return;
        }
        if (ex.isInIoThread()) {
            // going down between the check above and the dispatch, the stopped worker refuses the task: the
            // connection is dropped, as down() means, instead of Undertow answering 503 itself
            working.incrementAndGet();
            ex.dispatch(task -> {
                try {
                    ex.getConnection().getWorker().execute(() -> {
                        try {
                            task.run();
                        } finally {
                            done();
                        }
                    });
                } catch (RejectedExecutionException stopping) {
                    done();
                    IoUtils.safeClose(ex.getConnection());
                }
            }, this::handle);
            return;
        }
        ex.startBlocking();
        requests.incrementAndGet();
        Map<String, List<String>> h = new TreeMap<>();
        ex.getRequestHeaders().forEach(v -> h.put(v.getHeaderName().toString().toLowerCase(), new ArrayList<>(v)));
        // the bytes that arrived, then a marker if the body broke off: what reached the backend, either way
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        String body;
        try {
            ex.getInputStream().transferTo(got);
            body = got.toString(StandardCharsets.ISO_8859_1);
        } catch (Exception e) {
            body = got.toString(StandardCharsets.ISO_8859_1) + UNREADABLE + e + ">";
        }
        seen.add(new Seen(ex.getRequestMethod().toString(), ex.getRequestURI(), ex.getQueryString(), h, body));
        try {
            if (delayMs > 0) {
                SlowOnPurpose.pause(delayMs); // a slow backend on purpose
            }
            java.util.concurrent.CountDownLatch held = hold;
            if (held != null) {
                held.await(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        ex.setStatusCode(status);
        ex.getResponseHeaders().put(new HttpString("X-Test-Backend"), name);
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
        String path = ex.getRequestPath();
        ex.getResponseSender().send(path.equals("/echo-body") ? new String(got.toByteArray(), StandardCharsets.UTF_8)
                : path.equals("/path") ? ex.getRequestURI() + (ex.getQueryString().isEmpty() ? "" : "?" + ex.getQueryString())
                : name);
    }

    private void done() {
        synchronized (working) {
            if (working.decrementAndGet() == 0) {
                working.notifyAll();
            }
        }
    }

    /** Requests seen with {@code method}. */
    public int count(String method) {
        return (int) seen.stream().filter(s -> s.method().equals(method)).count();
    }

    /** The last request's headers, lower-cased names, each with its first value. */
    public Map<String, String> lastHeaders() {
        Map<String, String> first = new TreeMap<>();
        if (!seen.isEmpty()) {
            seen.get(seen.size() - 1).headers().forEach((k, v) -> first.put(k, v.get(0)));
        }
        return first;
    }

    public int port() {
        return port;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        down();
    }
}
