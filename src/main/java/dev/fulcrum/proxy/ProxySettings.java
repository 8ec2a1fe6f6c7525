package dev.fulcrum.proxy;

import java.time.Duration;

/**
 * What the proxy listener needs from the config (docs/REFERENCE.md §2.1 {@code proxy}, {@code retries},
 * {@code timeouts}, {@code stickySession}).
 *
 * @param accessLog   a file for the JSON-lines access log, or null for standard error
 * @param stickySecret key that signs sticky cookies; every instance with the same config derives the same
 * @param ioThreads   threads that run the proxy's sockets; 0 = one per core, at least 2
 * @param recentRequests completed requests each I/O thread keeps in the {@code RequestStream}; 0 keeps none
 * @param logDecisions record how each request's backend was chosen, in the access log and the request stream (the
 *                     start's value; a config reload changes it through {@code ProxyServer.logDecisions})
 * @param http2       HTTP/2 on every listener: h2c on the plain one (the connection preface, or {@code Upgrade: h2c}),
 *                    h2 through ALPN on the TLS one; one switch because it is one Undertow server option for all
 * @param http1Front  Fulcrum's own HTTP/1.1 server side ({@link Http1Front}) reads the plain port's requests without a
 *                    body ({@code proxy.http1Server: "fulcrum"}); Undertow's reads the rest, and all of them when off
 */
public record ProxySettings(String host, int port, int maxHeaderBytes, long drainTimeoutMs, String accessLog,
                            boolean preserveHost, int maxRetries, boolean retryNonIdempotent, long connectMs,
                            long readMs, long idleMs, long requestHeaderMs, boolean stickyEnabled,
                            String stickyCookie, long stickyTtlSeconds, byte[] stickySecret, Tls tls, int ioThreads,
                            int recentRequests, boolean logDecisions, boolean http2, boolean http1Front) {

    /** Settings whose plain HTTP/1.1 requests without a body Fulcrum's own server side reads, as by default. */
    public ProxySettings(String host, int port, int maxHeaderBytes, long drainTimeoutMs, String accessLog,
                         boolean preserveHost, int maxRetries, boolean retryNonIdempotent, long connectMs, long readMs,
                         long idleMs, long requestHeaderMs, boolean stickyEnabled, String stickyCookie,
                         long stickyTtlSeconds, byte[] stickySecret, Tls tls, int ioThreads, int recentRequests,
                         boolean logDecisions, boolean http2) {
        this(host, port, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, maxRetries, retryNonIdempotent,
                connectMs, readMs, idleMs, requestHeaderMs, stickyEnabled, stickyCookie, stickyTtlSeconds, stickySecret,
                tls, ioThreads, recentRequests, logDecisions, http2, true);
    }

    /** Settings that do not record decisions, with HTTP/2 on. */
    public ProxySettings(String host, int port, int maxHeaderBytes, long drainTimeoutMs, String accessLog,
                         boolean preserveHost, int maxRetries, boolean retryNonIdempotent, long connectMs, long readMs,
                         long idleMs, long requestHeaderMs, boolean stickyEnabled, String stickyCookie,
                         long stickyTtlSeconds, byte[] stickySecret, Tls tls, int ioThreads, int recentRequests) {
        this(host, port, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, maxRetries, retryNonIdempotent,
                connectMs, readMs, idleMs, requestHeaderMs, stickyEnabled, stickyCookie, stickyTtlSeconds, stickySecret,
                tls, ioThreads, recentRequests, false, true);
    }

    /** Settings keeping 1024 recent requests per I/O thread. */
    public ProxySettings(String host, int port, int maxHeaderBytes, long drainTimeoutMs, String accessLog,
                         boolean preserveHost, int maxRetries, boolean retryNonIdempotent, long connectMs, long readMs,
                         long idleMs, long requestHeaderMs, boolean stickyEnabled, String stickyCookie,
                         long stickyTtlSeconds, byte[] stickySecret, Tls tls, int ioThreads) {
        this(host, port, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, maxRetries, retryNonIdempotent,
                connectMs, readMs, idleMs, requestHeaderMs, stickyEnabled, stickyCookie, stickyTtlSeconds, stickySecret,
                tls, ioThreads, 1024);
    }

    /**
     * The HTTPS listener (HTTP/2 through ALPN when {@link ProxySettings#http2}); certificate and privateKey are PEM paths,
     * both null for a local certificate kept in {@code certificateDir}, for localhost and {@code names}.
     */
    public record Tls(int port, String certificate, String privateKey, java.nio.file.Path certificateDir,
                      java.util.List<String> names) {
        public Tls {
            names = names == null ? java.util.List.of() : java.util.List.copyOf(names);
        }

        /** A listener whose local certificate names loopback only. */
        public Tls(int port, String certificate, String privateKey, java.nio.file.Path certificateDir) {
            this(port, certificate, privateKey, certificateDir, java.util.List.of());
        }
    }

    public static ProxySettings defaults(int port) {
        return new ProxySettings("127.0.0.1", port, 8192, 30_000, null, true, 2, false, 3000, 30_000, 60_000, 10_000,
                false, "FULCRUM_STICKY", 3600, new byte[32], null, 0);
    }

    public ProxySettings withTls(Tls t) {
        return with(t, recentRequests, logDecisions, http2);
    }

    public ProxySettings withRecentRequests(int n) {
        return with(tls, n, logDecisions, http2);
    }

    public ProxySettings withLogDecisions(boolean on) {
        return with(tls, recentRequests, on, http2);
    }

    public ProxySettings withHttp2(boolean on) {
        return with(tls, recentRequests, logDecisions, on);
    }

    public ProxySettings withHttp1Front(boolean on) {
        return new ProxySettings(host, port, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, maxRetries,
                retryNonIdempotent, connectMs, readMs, idleMs, requestHeaderMs, stickyEnabled, stickyCookie,
                stickyTtlSeconds, stickySecret, tls, ioThreads, recentRequests, logDecisions, http2, on);
    }

    /** These settings with the four a wither may change. */
    private ProxySettings with(Tls t, int recent, boolean decisions, boolean h2) {
        return new ProxySettings(host, port, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, maxRetries,
                retryNonIdempotent, connectMs, readMs, idleMs, requestHeaderMs, stickyEnabled, stickyCookie,
                stickyTtlSeconds, stickySecret, t, ioThreads, recent, decisions, h2, http1Front);
    }

    public Duration drainTimeout() {
        return Duration.ofMillis(drainTimeoutMs);
    }
}
