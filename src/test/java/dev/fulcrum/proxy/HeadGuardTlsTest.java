package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HeadGuard} on the https listener: it sits above TLS, so a folded or mis-versioned head is refused there as
 * on the plain port, pipelined answers come first, and HTTP/2 (its preface looks like a head) passes untouched.
 */
class HeadGuardTlsTest {
    @TempDir
    Path dir;
    private RunningFulcrum f;
    private ProxyServer proxy;

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
    }

    private void startTls() {
        f = RunningFulcrum.bareProxy(TestSettings.proxy().build().withTls(new ProxySettings.Tls(0, null, null,
                dir))).backend(new RecordingBackend("b")).start();
        proxy = f.proxy();
    }

    /** Writes {@code request} over TLS (HTTP/1.1, no ALPN) and reads until the proxy closes the connection. */
    private String overTls(String request) throws Exception {
        try (Socket s = PassThroughTest.trustAll().getSocketFactory().createSocket("127.0.0.1", proxy.tlsPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try {
                for (int n; (n = in.read(buf)) != -1; ) {
                    got.write(buf, 0, n);
                }
            } catch (IOException closed) {
                // a close after the answer: judge what arrived
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void aPipelinedFoldedHeadIsRefusedOverTlsAfterTheAnswerBeforeIt() throws Exception {
        startTls();
        String got = overTls("\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n 2\r\n\r\n");
        assertThat(got).startsWith("HTTP/1.1 200 ").contains("\r\n\r\nb");
        assertThat(got.substring(got.indexOf("HTTP/1.1", 1))).startsWith("HTTP/1.1 400 ")
                .contains("folding is not accepted");
    }

    @Test
    void anHttp3RequestLineGets505OverTls() throws Exception {
        startTls();
        assertThat(overTls("GET /a HTTP/3.0\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 505 ");
    }

    @Test
    void http2OverTlsPassesTheGuardUntouched() throws Exception {
        startTls();
        try (RawH2 c = new RawH2("127.0.0.1", proxy.tlsPort(), true)) {
            for (int i = 0; i < 3; i++) {
                RawH2.Stream s = c.streams.get(c.get("localhost:" + proxy.tlsPort(), "/h2/" + i));
                assertThat(s.await(5_000)).isTrue();
                assertThat(s.status).isEqualTo(200);
            }
        }
    }
}
