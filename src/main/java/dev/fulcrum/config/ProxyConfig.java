package dev.fulcrum.config;

/**
 * The proxy listener ({@code proxy}, docs/REFERENCE.md §2.1).
 *
 * @param host           address to listen on
 * @param port           HTTP port (0 = pick a free port)
 * @param maxHeaderBytes request headers over this size are answered 431
 * @param drainTimeoutMs on shutdown, how long in-flight requests may take to finish
 * @param accessLog      file for the JSON-lines access log; null = standard error
 * @param preserveHost   forward the client's Host header instead of the backend's address
 * @param tls            the optional HTTPS listener; never null
 * @param ioThreads      threads that run the proxy's sockets; 0 = one per core, at least 2
 * @param recentRequests completed requests each of those threads keeps for the window and {@code /api/requests}
 *                       (overwriting the oldest); 0 keeps none
 * @param logDecisions   record how each request's backend was chosen (candidates, scores, draws, fallbacks) in the
 *                       access log's {@code "decision"} and the request stream; a reload changes it live
 * @param http1Server    what reads the plain port's HTTP/1.1 requests: {@link #FULCRUM} (the default), Fulcrum's own
 *                       server side for the plainest requests without a body and Undertow's for the rest, or
 *                       {@link #UNDERTOW} for Undertow's on every request
 */
public record ProxyConfig(String host, int port, int maxHeaderBytes, long drainTimeoutMs, String accessLog,
                          boolean preserveHost, TlsConfig tls, int ioThreads, int recentRequests,
                          boolean logDecisions, String http1Server) {
    public static final int DEFAULT_RECENT_REQUESTS = 1024;
    public static final String UNDERTOW = "undertow";
    public static final String FULCRUM = "fulcrum";
    public static final ProxyConfig DEFAULT = new ProxyConfig("127.0.0.1", 8080, 8192, 30_000, null, true, TlsConfig.DEFAULT, 0);

    public ProxyConfig {
        tls = tls == null ? TlsConfig.DEFAULT : tls;
        http1Server = http1Server == null ? FULCRUM : http1Server;
    }

    /** A listener on the default HTTP/1.1 server side. */
    public ProxyConfig(String host, int port, int maxHeaderBytes, long drainTimeoutMs, String accessLog,
                       boolean preserveHost, TlsConfig tls, int ioThreads, int recentRequests, boolean logDecisions) {
        this(host, port, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, tls, ioThreads, recentRequests,
                logDecisions, FULCRUM);
    }

    /** A listener that does not record decisions. */
    public ProxyConfig(String host, int port, int maxHeaderBytes, long drainTimeoutMs, String accessLog,
                       boolean preserveHost, TlsConfig tls, int ioThreads, int recentRequests) {
        this(host, port, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, tls, ioThreads, recentRequests, false);
    }

    /** A listener keeping the default number of recent requests. */
    public ProxyConfig(String host, int port, int maxHeaderBytes, long drainTimeoutMs, String accessLog,
                       boolean preserveHost, TlsConfig tls, int ioThreads) {
        this(host, port, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, tls, ioThreads,
                DEFAULT_RECENT_REQUESTS);
    }

    public ProxyConfig withPort(int newPort) {
        return new ProxyConfig(host, newPort, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, tls, ioThreads,
                recentRequests, logDecisions, http1Server);
    }

    public ProxyConfig withTls(TlsConfig t) {
        return new ProxyConfig(host, port, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, t, ioThreads,
                recentRequests, logDecisions, http1Server);
    }

    public ProxyConfig withLogDecisions(boolean on) {
        return new ProxyConfig(host, port, maxHeaderBytes, drainTimeoutMs, accessLog, preserveHost, tls, ioThreads,
                recentRequests, on, http1Server);
    }
}
