package dev.fulcrum.proxy;

import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.strategy.StrategySpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.SlowOnPurpose;
import dev.fulcrum.testkit.TestSettings;
import dev.fulcrum.testkit.WebSocketEcho;
import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.websockets.core.WebSockets;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a local development proxy must pass through untouched: WebSockets, SSE, routes, HTTPS/2, big bodies. */
class PassThroughTest {
    private final List<Undertow> servers = new CopyOnWriteArrayList<>();
    private RunningFulcrum f;

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
        servers.forEach(Undertow::stop);
    }

    private void start(ProxySettings settings, String id, String url) {
        f = RunningFulcrum.bareProxy(settings).backend(id, url).start();
    }

    private String server(io.undertow.server.HttpHandler handler) {
        Undertow u = Undertow.builder().addHttpListener(0, "127.0.0.1").setIoThreads(1).setWorkerThreads(4)
                .setServerOption(io.undertow.UndertowOptions.MAX_ENTITY_SIZE, -1L)
                .setHandler(handler).build();
        u.start();
        servers.add(u);
        return "http://127.0.0.1:" + ((InetSocketAddress) u.getListenerInfo().get(0).getAddress()).getPort();
    }


    @Test
    void expect100ContinueIsAnsweredByTheProxyBeforeTheBodyIsSent() throws Exception {
        // curl sends Expect: 100-continue with any upload over 1 kB and waits (1 s) for the interim answer
        String backend = server(ex -> ex.getRequestReceiver().receiveFullString((e, body) -> e.getResponseSender()
                .send("got " + body + " expect=" + e.getRequestHeaders().getFirst(Headers.EXPECT))));
        start(ProxySettings.defaults(0), "b", backend);
        try (java.net.Socket c = new java.net.Socket("127.0.0.1", f.port())) {
            c.setSoTimeout(5_000);
            c.getOutputStream().write(("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            java.io.InputStream in = c.getInputStream();
            String interim = readHead(in);
            assertThat(interim).startsWith("HTTP/1.1 100 ");
            c.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
            String head = readHead(in);
            assertThat(head).startsWith("HTTP/1.1 200 ");
            int length = Integer.parseInt(head.replaceAll("(?is).*content-length: *(\\d+).*", "$1"));
            assertThat(new String(in.readNBytes(length), StandardCharsets.US_ASCII)).isEqualTo("got hello expect=null");
        }
    }

    private static String readHead(java.io.InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new java.io.EOFException("connection closed after: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }

    @Test
    void aWebSocketEchoesBothWaysThroughTheProxyAndReleasesItsSlotOnClose() throws Exception {
        String backend = server(WebSocketEcho.handler());
        start(ProxySettings.defaults(0), "ws", backend);
        List<String> got = new CopyOnWriteArrayList<>();
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        WebSocket ws = f.http().newWebSocketBuilder().buildAsync(URI.create(f.url().replace("http", "ws") + "/ws"),
                new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        got.add(data.toString());
                        webSocket.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                        closed.complete(statusCode);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        assertThat(f.inFlight()).isEqualTo(1);
        ws.sendText("one", true).get(5, TimeUnit.SECONDS);
        ws.sendText("two", true).get(5, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 2);
        assertThat(got).containsExactly("echo: one", "echo: two");
        ws.sendClose(4001, "bye").get(5, TimeUnit.SECONDS);
        assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo(4001);
        await().atMost(Duration.ofSeconds(10)).until(() -> f.inFlight() == 0);
    }

    @Test
    void drainingABackendClosesItsWebSocketsAfterTheDrainTimeout() throws Exception {
        String backend = server(Handlers.path().addPrefixPath("/ws", Handlers.websocket((exchange, channel) -> channel.resumeReceives())));
        start(TestSettings.proxy().drainTimeoutMs(500).build(), "ws", backend);
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        f.http().newWebSocketBuilder().buildAsync(URI.create(f.url().replace("http", "ws") + "/ws"),
                new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                        closed.complete(statusCode);
                        return null;
                    }

                    @Override
                    public void onError(WebSocket webSocket, Throwable error) {
                        closed.complete(-1);
                    }
                }).get(10, TimeUnit.SECONDS);
        f.engine().drain("ws");
        // the open WebSocket keeps the drain waiting...
        assertThat(f.engine().backends().get(0).state().name()).isEqualTo("DRAINING");
        // ...until drainTimeoutMs, when the proxy closes it and the drain completes
        closed.get(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(10)).until(() -> f.engine().backends().get(0).state().name().equals("DRAINED"));
    }

    @Test
    void serverSentEventsReachTheClientAsTheBackendWritesThem() throws Exception {
        String backend = server(ex -> {
            if (ex.isInIoThread()) {
                ex.dispatch(PassThroughTest::tenEventsOneEvery100ms);
                return;
            }
        });
        start(ProxySettings.defaults(0), "sse", backend);
        long start = System.nanoTime();
        HttpResponse<InputStream> r = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/events")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = r.body()) {
            StringBuilder first = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && !first.toString().endsWith("\n\n")) {
                first.append((char) c);
            }
            long firstAt = System.nanoTime() - start;
            assertThat(first.toString()).startsWith("data: 0");
            byte[] rest = in.readAllBytes();
            long doneAt = System.nanoTime() - start;
            assertThat(new String(rest)).contains("data: 9");
            // the backend needs ~900 ms for all ten; the first event must not wait for the rest
            assertThat(doneAt - firstAt).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(500));
        }
        assertThat(r.headers().firstValue("content-type")).hasValue("text/event-stream");
    }

    private static void tenEventsOneEvery100ms(HttpServerExchange ex) {
        ex.startBlocking();
        ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/event-stream");
        try (OutputStream out = ex.getOutputStream()) {
            for (int i = 0; i < 10; i++) {
                out.write(("data: " + i + "\n\n").getBytes());
                out.flush();
                SlowOnPurpose.pause(100); // a backend slow on purpose: events spaced out in time
            }
        } catch (Exception e) {
            // client gone
        }
    }

    @Test
    void routesSendPrefixesToTheirPoolAndStripPrefixRemovesIt() throws Exception {
        String web = server(ex -> ex.getResponseSender().send("web " + ex.getRequestURI()));
        String api = server(ex -> ex.getResponseSender().send("api " + ex.getRequestURI()));
        String v2 = server(ex -> ex.getResponseSender().send("v2 " + ex.getRequestURI()));
        start(ProxySettings.defaults(0), "web", web);
        f.engine().addPool("api", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        f.engine().addBackend("api", new BackendSpec("api-1", api, 1, null, false), false);
        f.engine().addPool("v2", StrategySpec.of(StrategySpec.ROUND_ROBIN));
        f.engine().addBackend("v2", new BackendSpec("v2-1", v2, 1, null, false), false);
        f.engine().setRouter(new Router(List.of(new Router.Route("/api", "api", false),
                new Router.Route("/api/v2", "v2", true))));
        assertThat(body("/api/x")).isEqualTo("api /api/x");
        assertThat(body("/api")).isEqualTo("api /api");
        assertThat(body("/apix")).isEqualTo("web /apix");
        assertThat(body("/x")).isEqualTo("web /x");
        assertThat(body("/api/v2/users?id=1")).isEqualTo("v2 /users");
        assertThat(body("/api/v2")).isEqualTo("v2 /");
        // the router merges slash runs (nginx's merge_slashes) and strips the prefix however the client encoded it
        assertThat(body("//api//x")).isEqualTo("api //api//x");
        assertThat(body("/api//v2/users")).isEqualTo("v2 /users");
        assertThat(body("/%61pi/v%32/a%20b")).isEqualTo("v2 /a%20b");
    }

    private String body(String path) throws Exception {
        return f.http().send(HttpRequest.newBuilder(URI.create(f.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void preserveHostFalseSendsTheBackendsOwnHost() throws Exception {
        String backend = server(ex -> ex.getResponseSender().send(ex.getRequestHeaders().getFirst(Headers.HOST)
                + "|" + ex.getRequestHeaders().getFirst(Headers.X_FORWARDED_HOST)));
        start(TestSettings.proxy().preserveHost(false).build(), "h", backend);
        String got = body("/");
        assertThat(got).startsWith(backend.substring("http://".length()) + "|127.0.0.1:" + f.port());
    }

    @Test
    void httpsNegotiatesHttp2WithAGeneratedLocalhostCertificate(@TempDir Path dir) throws Exception {
        String backend = server(ex -> ex.getResponseSender().send("secure " + ex.getProtocol()));
        start(ProxySettings.defaults(0).withTls(new ProxySettings.Tls(0, null, null, dir)), "s", backend);
        assertThat(dir.resolve("localhost.crt")).exists();
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trustAll()).build();
        HttpResponse<String> r = h2.send(HttpRequest.newBuilder(URI.create(f.proxy().tlsUrl() + "/x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(r.body()).isEqualTo("secure HTTP/1.1");
        assertThat(r.headers().firstValue("x-fulcrum-backend")).hasValue("s");
        // plain HTTP/1.1 stays on the plain port
        assertThat(body("/y")).isEqualTo("secure HTTP/1.1");
    }

    @Test
    void theStickyCookieSetOverTlsIsSecure(@TempDir Path dir) throws Exception {
        String backend = server(ex -> ex.getResponseSender().send("ok"));
        start(TestSettings.proxy().sticky("k".getBytes(StandardCharsets.UTF_8)).build()
                .withTls(new ProxySettings.Tls(0, null, null, dir)), "s", backend);
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trustAll()).build();
        HttpResponse<String> r = h2.send(HttpRequest.newBuilder(URI.create(f.proxy().tlsUrl() + "/x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.headers().firstValue("set-cookie").orElseThrow()).startsWith("FULCRUM_STICKY=")
                .contains("; Secure").contains("; HttpOnly").contains("; SameSite=Lax");
        HttpResponse<String> plain = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(plain.headers().firstValue("set-cookie").orElseThrow()).doesNotContainIgnoringCase("secure");
    }

    @Test
    void aBrokenKeyFileIsAnErrorNamingTheFieldAndFile(@TempDir Path dir) throws Exception {
        Path cert = dir.resolve("c.pem");
        Path key = dir.resolve("k.pem");
        TlsContexts.local(dir, java.util.List.of());
        java.nio.file.Files.copy(dir.resolve("localhost.crt"), cert);
        java.nio.file.Files.writeString(key, "-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TlsContexts.fromPem(cert, key))
                .hasMessageStartingWith("proxy.tls.privateKey: ").hasMessageContaining("(got: " + key + ")");
        java.nio.file.Files.writeString(cert, "hello");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TlsContexts.fromPem(cert, dir.resolve("localhost.key")))
                .hasMessageStartingWith("proxy.tls.certificate: no certificate").hasMessageContaining(cert.toString());
    }

    /** A TLS context that trusts any certificate (the proxy's own, made for the test). */
    static SSLContext trustAll() throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {new X509TrustManager() {
            public void checkClientTrusted(X509Certificate[] c, String a) {
            }

            public void checkServerTrusted(X509Certificate[] c, String a) {
            }

            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        return ctx;
    }

    /**
     * The proxy runs in its own JVM with a 64 MiB heap: buffering either 200 MB body whole would end it with an
     * OutOfMemoryError, so both transfers completing is the proof that bodies stream with bounded memory. The
     * backend answers every path with 200 MB, {@code /metrics.json} included, so this also holds the metrics
     * poller to its cap (reading such an answer whole would fill the heap).
     */
    @Test
    void twoHundredMegabytesStreamBothWaysThroughAProxyWithA64MegabyteHeap(@TempDir Path dir) throws Exception {
        long size = 200L * 1024 * 1024;
        String backend = server(ex -> {
            if (ex.isInIoThread()) {
                ex.dispatch(() -> bigBody(ex, size));
                return;
            }
        });
        Path config = dir.resolve("big.json");
        Files.writeString(config, "{\"healthCheck\":{\"enabled\":false},\"strategy\":{\"type\":\"round-robin\"},"
                + "\"backends\":[{\"id\":\"big\",\"url\":\"" + backend + "\"}]}");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process proxyProcess = new ProcessBuilder(java, "-Xmx64m", "-XX:+ExitOnOutOfMemoryError", "-cp",
                System.getProperty("java.class.path"), "dev.fulcrum.Main", "--headless", "--config", config.toString(),
                "--proxy-port", "0", "--admin-port", "0").redirectError(dir.resolve("proxy.err").toFile()).start();
        try {
            java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(proxyProcess.getInputStream()));
            CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            String line = ready.get(60, TimeUnit.SECONDS);
            assertThat(line).startsWith("fulcrum ready proxy=");
            String proxyUrl = line.substring("fulcrum ready proxy=".length(), line.indexOf(" admin="));
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

            HttpResponse<InputStream> down = client.send(HttpRequest.newBuilder(URI.create(proxyUrl + "/download")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            long read = 0;
            try (InputStream in = down.body()) {
                byte[] buf = new byte[64 * 1024];
                int n;
                while ((n = in.read(buf)) != -1) {
                    read += n;
                }
            }
            assertThat(read).isEqualTo(size);
            Supplier<InputStream> zeros = () -> new InputStream() {
                long left = size;

                @Override
                public int read() {
                    return left-- > 0 ? 0 : -1;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (left <= 0) {
                        return -1;
                    }
                    int n = (int) Math.min(len, left);
                    left -= n;
                    return n;
                }
            };
            HttpResponse<String> up = client.send(HttpRequest.newBuilder(URI.create(proxyUrl + "/upload"))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(zeros)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(up.body()).isEqualTo("received " + size);
            assertThat(proxyProcess.isAlive()).isTrue();
        } catch (Exception | AssertionError e) {
            System.err.println("proxy stderr:\n" + Files.readString(dir.resolve("proxy.err")));
            throw e;
        } finally {
            proxyProcess.destroy();
            if (!proxyProcess.waitFor(30, TimeUnit.SECONDS)) {
                proxyProcess.destroyForcibly();
            }
        }
    }

    private static void bigBody(HttpServerExchange ex, long size) {
        ex.startBlocking();
        try {
            if (ex.getRequestPath().equals("/upload")) {
                long n = 0;
                byte[] buf = new byte[64 * 1024];
                int r;
                InputStream in = ex.getInputStream();
                while ((r = in.read(buf)) != -1) {
                    n += r;
                }
                ex.getResponseSender().send("received " + n);
                return;
            }
            ex.getResponseHeaders().put(Headers.CONTENT_LENGTH, size);
            byte[] chunk = new byte[64 * 1024];
            try (OutputStream out = ex.getOutputStream()) {
                for (long sent = 0; sent < size; sent += chunk.length) {
                    out.write(chunk, 0, (int) Math.min(chunk.length, size - sent));
                }
            }
        } catch (Exception e) {
            // client gone
        }
    }
}
