package dev.fulcrum.proxy;

/**
 * {@link ProxySettings#defaults} on an OS-chosen port with the one or two fields a test is about changed, so a
 * test says what it varies instead of spelling out all seventeen fields.
 * Example: {@code TestSettings.proxy().readMs(300).maxRetries(0).build()}.
 */
public final class TestSettings {
    private ProxySettings s = ProxySettings.defaults(0);

    private TestSettings() {
    }

    public static TestSettings proxy() {
        return new TestSettings();
    }

    public TestSettings drainTimeoutMs(long ms) {
        s = new ProxySettings(s.host(), s.port(), s.maxHeaderBytes(), ms, s.accessLog(), s.preserveHost(),
                s.maxRetries(), s.retryNonIdempotent(), s.connectMs(), s.readMs(), s.idleMs(), s.requestHeaderMs(),
                s.stickyEnabled(), s.stickyCookie(), s.stickyTtlSeconds(), s.stickySecret(), s.tls());
        return this;
    }

    public TestSettings accessLog(String file) {
        s = new ProxySettings(s.host(), s.port(), s.maxHeaderBytes(), s.drainTimeoutMs(), file, s.preserveHost(),
                s.maxRetries(), s.retryNonIdempotent(), s.connectMs(), s.readMs(), s.idleMs(), s.requestHeaderMs(),
                s.stickyEnabled(), s.stickyCookie(), s.stickyTtlSeconds(), s.stickySecret(), s.tls());
        return this;
    }

    public TestSettings preserveHost(boolean preserve) {
        s = new ProxySettings(s.host(), s.port(), s.maxHeaderBytes(), s.drainTimeoutMs(), s.accessLog(), preserve,
                s.maxRetries(), s.retryNonIdempotent(), s.connectMs(), s.readMs(), s.idleMs(), s.requestHeaderMs(),
                s.stickyEnabled(), s.stickyCookie(), s.stickyTtlSeconds(), s.stickySecret(), s.tls());
        return this;
    }

    public TestSettings maxRetries(int n) {
        s = new ProxySettings(s.host(), s.port(), s.maxHeaderBytes(), s.drainTimeoutMs(), s.accessLog(), s.preserveHost(),
                n, s.retryNonIdempotent(), s.connectMs(), s.readMs(), s.idleMs(), s.requestHeaderMs(),
                s.stickyEnabled(), s.stickyCookie(), s.stickyTtlSeconds(), s.stickySecret(), s.tls());
        return this;
    }

    public TestSettings timeouts(long connectMs, long readMs, long requestHeaderMs) {
        s = new ProxySettings(s.host(), s.port(), s.maxHeaderBytes(), s.drainTimeoutMs(), s.accessLog(), s.preserveHost(),
                s.maxRetries(), s.retryNonIdempotent(), connectMs, readMs, s.idleMs(), requestHeaderMs,
                s.stickyEnabled(), s.stickyCookie(), s.stickyTtlSeconds(), s.stickySecret(), s.tls());
        return this;
    }

    public TestSettings readMs(long ms) {
        return timeouts(s.connectMs(), ms, s.requestHeaderMs());
    }

    public TestSettings requestHeaderMs(long ms) {
        return timeouts(s.connectMs(), s.readMs(), ms);
    }

    /** Sticky cookies on, signed with {@code secret}. */
    public TestSettings sticky(byte[] secret) {
        s = new ProxySettings(s.host(), s.port(), s.maxHeaderBytes(), s.drainTimeoutMs(), s.accessLog(), s.preserveHost(),
                s.maxRetries(), s.retryNonIdempotent(), s.connectMs(), s.readMs(), s.idleMs(), s.requestHeaderMs(),
                true, s.stickyCookie(), s.stickyTtlSeconds(), secret, s.tls());
        return this;
    }

    public ProxySettings build() {
        return s;
    }
}
