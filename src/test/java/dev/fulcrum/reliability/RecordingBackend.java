package dev.fulcrum.reliability;

import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP backend on a loopback port that records every request it receives (method, target, all header
 * values, body), so a hostile-input test can prove what, if anything, got through the proxy. It can be told
 * to answer slowly or with another status.
 */
final class RecordingBackend implements AutoCloseable {
    /** Starts the text that follows the bytes of a body that broke off before its end. */
    static final String UNREADABLE = "<unreadable: ";
    /** One request as the backend saw it; header names are lower-cased, each with every value it carried. */
    record Seen(String method, String uri, String query, Map<String, List<String>> headers, String body) {
    }

    final String name;
    final List<Seen> seen = new CopyOnWriteArrayList<>();
    final AtomicInteger requests = new AtomicInteger();
    volatile long delayMs;
    volatile int status = 200;
    private Undertow server;
    /** While going down: connections are dropped unanswered, as by a crashed process (a graceful stop answers 503). */
    private volatile boolean dying;
    private final int port;

    RecordingBackend(String name) {
        this.name = name;
        this.server = listen(0);
        this.port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    }

    private Undertow listen(int p) {
        Undertow u = Undertow.builder().addHttpListener(p, "127.0.0.1").setIoThreads(1).setWorkerThreads(32)
                .setHandler(this::handle).build();
        u.start();
        return u;
    }

    /** Goes down: the port refuses connections until {@link #up()}. */
    synchronized void down() {
        if (server != null) {
            dying = true;
            server.stop();
            server = null;
        }
    }

    /** Comes back on the same port. */
    synchronized void up() {
        if (server == null) {
            dying = false;
            server = listen(port);
        }
    }

    synchronized boolean isUp() {
        return server != null;
    }

    private void handle(HttpServerExchange ex) {
        if (dying) {
            org.xnio.IoUtils.safeClose(ex.getConnection());
            return;
        }
        if (ex.isInIoThread()) {
            // going down between the check above and the dispatch, the stopped worker refused the task and Undertow
            // answered 503 itself: a backend that answers rather than hangs up, which is not what down() means
            // (a 503 passes through the proxy as any 5xx; FaultsTest's flapping backend failed on one in CI)
            ex.dispatch(task -> {
                try {
                    ex.getConnection().getWorker().execute(task);
                } catch (java.util.concurrent.RejectedExecutionException stopping) {
                    org.xnio.IoUtils.safeClose(ex.getConnection());
                }
            }, this::handle);
            return;
        }
        ex.startBlocking();
        requests.incrementAndGet();
        Map<String, List<String>> h = new TreeMap<>();
        ex.getRequestHeaders().forEach(v -> h.put(v.getHeaderName().toString().toLowerCase(), new ArrayList<>(v)));
        // the bytes that arrived, then a marker if the body broke off: what reached the backend, either way
        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
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
                TimeUnit.MILLISECONDS.sleep(delayMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        ex.setStatusCode(status);
        ex.getResponseHeaders().put(new HttpString("X-Test-Backend"), name);
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
        ex.getResponseSender().send(name);
    }

    int port() {
        return port;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        down();
    }
}
