package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Each wither changes its own setting and keeps every other one. */
class ProxySettingsTest {
    private final ProxySettings base = ProxySettings.defaults(8080).withRecentRequests(7).withLogDecisions(true)
            .withHttp2(false);

    @Test
    void eachWitherChangesOnlyItsOwnSetting() {
        ProxySettings.Tls tls = new ProxySettings.Tls(8443, null, null, Path.of("certs"));
        assertThat(base.recentRequests()).isEqualTo(7);
        assertThat(base.logDecisions()).isTrue();
        assertThat(base.http2()).isFalse();

        assertThat(base.withTls(tls).tls()).isEqualTo(tls);
        assertThat(base.withTls(tls).withTls(null)).isEqualTo(base);
        assertThat(base.withRecentRequests(3).recentRequests()).isEqualTo(3);
        assertThat(base.withRecentRequests(3).withRecentRequests(7)).isEqualTo(base);
        assertThat(base.withLogDecisions(false).logDecisions()).isFalse();
        assertThat(base.withLogDecisions(false).withLogDecisions(true)).isEqualTo(base);
        assertThat(base.withHttp2(true).http2()).isTrue();
        assertThat(base.withHttp2(true).withHttp2(false)).isEqualTo(base);
    }
}
