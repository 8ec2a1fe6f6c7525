package dev.fulcrum.proxy;

import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP backend on a loopback port for proxy tests: answers {@code name} on any path, echoes request
 * headers it was asked about, counts requests per method, and can be told to be slow or to fail.
 */
final class TestBackend implements AutoCloseable {
    final String name;
    final Map<String, AtomicInteger> byMethod = new ConcurrentHashMap<>();
    final AtomicInteger requests = new AtomicInteger();
    volatile long delayMs;
    volatile int status = 200;
    volatile Map<String, String> lastHeaders = Map.of();
    /** After {@link #kill()}: connections are dropped without an answer, as a crashed process drops them. */
    private volatile boolean dead;
    private final AtomicInteger working = new AtomicInteger();
    private final Undertow server;
    private final int port;

    TestBackend(String name) {
        this.name = name;
        this.server = Undertow.builder().addHttpListener(0, "127.0.0.1").setIoThreads(1).setWorkerThreads(8)
                .setHandler(this::handle).build();
        server.start();
        this.port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    }

    private void handle(HttpServerExchange ex) {
        if (dead) {
            org.xnio.IoUtils.safeClose(ex.getConnection());
            return;
        }
        if (ex.isInIoThread()) {
            working.incrementAndGet();
            ex.dispatch(() -> {
                try {
                    handle(ex);
                } finally {
                    synchronized (working) {
                        if (working.decrementAndGet() == 0) {
                            working.notifyAll();
                        }
                    }
                }
            });
            return;
        }
        ex.startBlocking();
        requests.incrementAndGet();
        byMethod.computeIfAbsent(ex.getRequestMethod().toString(), k -> new AtomicInteger()).incrementAndGet();
        Map<String, String> h = new ConcurrentHashMap<>();
        ex.getRequestHeaders().forEach(v -> h.put(v.getHeaderName().toString().toLowerCase(), v.getFirst()));
        lastHeaders = h;
        byte[] body;
        try {
            body = ex.getInputStream().readAllBytes();
            if (delayMs > 0) {
                TimeUnit.MILLISECONDS.sleep(delayMs);
            }
        } catch (Exception e) {
            return;
        }
        ex.setStatusCode(status);
        ex.getResponseHeaders().put(new HttpString("X-Test-Backend"), name);
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
        String answer = ex.getRequestPath().equals("/echo-body") ? new String(body, StandardCharsets.UTF_8)
                : ex.getRequestPath().equals("/path") ? ex.getRequestURI() + (ex.getQueryString().isEmpty() ? "" : "?" + ex.getQueryString())
                : name;
        ex.getResponseSender().send(answer);
    }

    /**
     * Dies like a killed process: from now on every connection is dropped without an answer (a graceful
     * {@link #close()} would answer requests caught in its shutdown with 503), then the server stops once the
     * requests already being answered are done.
     */
    void kill() {
        dead = true;
        long until = System.nanoTime() + 2_000_000_000L;
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
        server.stop();
    }

    int port() {
        return port;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    int count(String method) {
        AtomicInteger n = byMethod.get(method);
        return n == null ? 0 : n.get();
    }

    @Override
    public void close() {
        server.stop();
    }
}
