package dev.fulcrum.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IpTextTest {
    @ParameterizedTest
    @CsvSource({
        "2001:db8:0:0:0:0:0:1, 2001:db8::1",
        "2001:DB8::0001, 2001:db8::1",
        "0:0:0:0:0:0:0:1, ::1",
        "0:0:0:0:0:0:0:0, ::",
        "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1", // one zero group stays
        "2001:0:0:1:0:0:0:1, 2001:0:0:1::1", // the longer run
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1", // the first of two equal runs
        "fe80:0:0:0:0:0:0:1, fe80::1",
        "127.0.0.1, 127.0.0.1",
    })
    void addressesReadAsRfc5952AndNginxPrintThem(String in, String out) throws Exception {
        assertThat(IpText.of(InetAddress.getByName(in))).isEqualTo(out);
        assertThat(IpText.canonical(in)).isEqualTo(out);
    }

    @ParameterizedTest
    @CsvSource({"/path", "user-7", "example.com", "a:b:zz"})
    void otherKeysStayAsTyped(String key) {
        assertThat(IpText.canonical(key)).isEqualTo(key);
    }
}
