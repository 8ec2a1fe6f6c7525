package dev.fulcrum.testkit;

import dev.fulcrum.proxy.ProxySettings;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@link ProxySettings#defaults} on an OS-chosen port with the one or two fields a test is about changed, so a
 * test says what it varies instead of spelling out every field.
 * Example: {@code TestSettings.proxy().readMs(300).maxRetries(0).build()}.
 */
public final class TestSettings {
    private static final ProxySettings D = ProxySettings.defaults(0);
    private long drainTimeoutMs = D.drainTimeoutMs();
    private String accessLog = D.accessLog();
    private boolean preserveHost = D.preserveHost();
    private int maxRetries = D.maxRetries();
    private long connectMs = D.connectMs();
    private long readMs = D.readMs();
    private long requestHeaderMs = D.requestHeaderMs();
    private boolean stickyEnabled = D.stickyEnabled();
    private byte[] stickySecret = D.stickySecret();
    private int ioThreads = D.ioThreads();
    private boolean logDecisions = D.logDecisions();
    private boolean http1Front = D.http1Front();

    private TestSettings() {
    }

    public static TestSettings proxy() {
        return new TestSettings();
    }

    /**
     * Settings for tests that put the proxy under load or hostile input: the {@code maxRetries} and timeouts they
     * turn, a 5 s drain, and the access log off (it would put every request of a load test on standard error).
     */
    public static ProxySettings underLoad(int maxRetries, long connectMs, long readMs, long requestHeaderMs) {
        String accessLog = Files.isWritable(Path.of("/dev/null")) ? "/dev/null" : null;
        return proxy().drainTimeoutMs(5_000).accessLog(accessLog).maxRetries(maxRetries)
                .timeouts(connectMs, readMs, requestHeaderMs).build();
    }

    public TestSettings drainTimeoutMs(long ms) {
        drainTimeoutMs = ms;
        return this;
    }

    public TestSettings accessLog(String file) {
        accessLog = file;
        return this;
    }

    public TestSettings preserveHost(boolean preserve) {
        preserveHost = preserve;
        return this;
    }

    public TestSettings maxRetries(int n) {
        maxRetries = n;
        return this;
    }

    public TestSettings timeouts(long connect, long read, long requestHeader) {
        connectMs = connect;
        readMs = read;
        requestHeaderMs = requestHeader;
        return this;
    }

    public TestSettings readMs(long ms) {
        readMs = ms;
        return this;
    }

    public TestSettings requestHeaderMs(long ms) {
        requestHeaderMs = ms;
        return this;
    }

    /** Sticky cookies on, signed with {@code secret}. */
    public TestSettings sticky(byte[] secret) {
        stickyEnabled = true;
        stickySecret = secret;
        return this;
    }

    public TestSettings ioThreads(int n) {
        ioThreads = n;
        return this;
    }

    /** {@code proxy.logDecisions}: record how each request's backend was chosen. */
    public TestSettings logDecisions(boolean on) {
        logDecisions = on;
        return this;
    }

    /**
     * {@code proxy.http1Server}: true (the default) for Fulcrum's own HTTP/1.1 server side on requests without a body,
     * false for Undertow's on every request.
     */
    public TestSettings http1Front(boolean on) {
        http1Front = on;
        return this;
    }

    public ProxySettings build() {
        return new ProxySettings(D.host(), D.port(), D.maxHeaderBytes(), drainTimeoutMs, accessLog, preserveHost,
                maxRetries, D.retryNonIdempotent(), connectMs, readMs, D.idleMs(), requestHeaderMs, stickyEnabled,
                D.stickyCookie(), D.stickyTtlSeconds(), stickySecret, D.tls(), ioThreads, D.recentRequests(),
                logDecisions, D.http2(), http1Front);
    }
}
