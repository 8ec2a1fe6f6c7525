package dev.fulcrum.reliability;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.BackendView;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.engine.StrategySpec;
import dev.fulcrum.proxy.ProxyServer;
import dev.fulcrum.proxy.ProxySettings;
import dev.fulcrum.testkit.TestSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The real proxy on a loopback port in front of an engine, as production wires it (Engine.start, a
 * round-robin default pool, {@link ProxyServer}); closes everything it started.
 */
final class ProxyHarness implements AutoCloseable {
    final Engine engine;
    final ProxyServer proxy;
    private final List<AutoCloseable> owned = new ArrayList<>();

    private ProxyHarness(Engine engine, ProxyServer proxy) {
        this.engine = engine;
        this.proxy = proxy;
    }

    static ProxyHarness start(EngineSettings engineSettings, ProxySettings settings, String... idUrlPairs) {
        Engine engine = Engine.start(engineSettings);
        engine.addPool(Engine.DEFAULT_POOL, StrategySpec.of(StrategySpec.ROUND_ROBIN));
        for (int i = 0; i < idUrlPairs.length; i += 2) {
            engine.addBackend(Engine.DEFAULT_POOL, new BackendSpec(idUrlPairs[i], idUrlPairs[i + 1], 1, null, false), false);
        }
        return new ProxyHarness(engine, new ProxyServer(engine, settings).start());
    }

    /** Proxy settings with the few knobs these tests turn; everything else as {@link ProxySettings#defaults}. */
    static ProxySettings settings(int maxRetries, long connectMs, long readMs, long requestHeaderMs) {
        // the access log would put every request of the load tests on standard error
        String accessLog = java.nio.file.Files.isWritable(java.nio.file.Path.of("/dev/null")) ? "/dev/null" : null;
        return TestSettings.proxy().drainTimeoutMs(5_000).accessLog(accessLog).maxRetries(maxRetries)
                .timeouts(connectMs, readMs, requestHeaderMs).build();
    }

    <T extends AutoCloseable> T own(T c) {
        owned.add(c);
        return c;
    }

    String url() {
        return proxy.url();
    }

    int port() {
        return proxy.port();
    }

    int totalInFlight() {
        return engine.backends().stream().mapToInt(BackendView::activeRequests).sum();
    }

    Optional<BackendView> view(String id) {
        return engine.backends().stream().filter(v -> v.id().equals(id)).findFirst();
    }

    /**
     * Sends raw bytes and reads until the proxy closes the connection or {@code readTimeoutMs} passes.
     * @return what came back, and whether the proxy closed the connection
     */
    RawAnswer raw(byte[] request, int readTimeoutMs) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port())) {
            s.setSoTimeout(readTimeoutMs);
            OutputStream out = s.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                // the proxy may close before reading everything (an oversized request): still read its answer
            }
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            boolean closed = false;
            try {
                int n;
                while ((n = in.read(buf)) != -1) {
                    got.write(buf, 0, n);
                    RawAnswer sofar = new RawAnswer(got.toString(StandardCharsets.ISO_8859_1), false);
                    if (sofar.complete() && sofar.status() < 400) {
                        // a successful answer on a kept-alive connection: look briefly for a close, then stop
                        s.setSoTimeout(500);
                    }
                }
                closed = true;
            } catch (SocketTimeoutException e) {
                closed = false;
            } catch (IOException e) {
                closed = true; // reset by the proxy counts as closed
            }
            return new RawAnswer(got.toString(StandardCharsets.ISO_8859_1), closed);
        }
    }

    /** A raw answer: the bytes as ISO-8859-1 text and whether the server closed the connection. */
    record RawAnswer(String text, boolean closed) {
        /** The status code of the first response line, or -1 when nothing parseable came back. */
        int status() {
            if (!text.startsWith("HTTP/")) {
                return -1;
            }
            int sp = text.indexOf(' ');
            try {
                return Integer.parseInt(text.substring(sp + 1, sp + 4));
            } catch (RuntimeException e) {
                return -1;
            }
        }

        /** A full response: the header block and a Content-Length body (or a final zero chunk) arrived. */
        boolean complete() {
            int end = text.indexOf("\r\n\r\n");
            if (end < 0) {
                return false;
            }
            String head = text.substring(0, end).toLowerCase(java.util.Locale.ROOT);
            int cl = head.indexOf("\r\ncontent-length:");
            if (cl >= 0) {
                int eol = head.indexOf("\r\n", cl + 2);
                String v = head.substring(cl + 17, eol < 0 ? head.length() : eol).trim();
                return text.length() - end - 4 >= Long.parseLong(v);
            }
            return !head.contains("chunked") || text.endsWith("0\r\n\r\n");
        }

        String firstLine() {
            int eol = text.indexOf("\r\n");
            return eol < 0 ? text : text.substring(0, eol);
        }
    }

    @Override
    public void close() {
        proxy.close();
        engine.close();
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort teardown
            }
        }
    }
}
