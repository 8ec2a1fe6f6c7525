package dev.fulcrum.proxy;

import io.undertow.Undertow;
import io.undertow.server.handlers.HostHeaderHandler;
import io.undertow.server.handlers.ResponseCodeHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fulcrum's HostHeaderHandler (src/main/java/io/undertow/...) against the one it replaces: Undertow's own, loaded from
 * the undertow-core jar on a class loader of its own (parent: the platform loader, so none of this class path's
 * copies are seen), answering 200 behind it; ours on this class path in front of the same answer. Each is sent the same
 * raw requests and every status line (code and reason phrase) must be the same. The Host values are the forms the
 * rules name, each edge of the port and the IP-literals, and a thousand random strings over the characters that matter
 * to the rules, on HTTP/1.1, HTTP/1.0 and an absolute-form target.
 */
class HostHeaderHandlerTest {
    private static URLClassLoader original;
    private static Object undertows;
    private static Undertow ours;
    private static int undertowsPort;

    @BeforeAll
    static void start() throws Exception {
        List<URL> jars = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.endsWith(".jar")) {
                jars.add(Path.of(entry).toUri().toURL());
            }
        }
        original = new URLClassLoader(jars.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        Class<?> handlers = original.loadClass("io.undertow.server.handlers.HostHeaderHandler");
        assertThat(handlers.getProtectionDomain().getCodeSource().getLocation().getPath()).contains("undertow-core");
        assertThat(HostHeaderHandler.class.getProtectionDomain().getCodeSource().getLocation().getPath())
                .as("this class path's HostHeaderHandler is Fulcrum's").doesNotContain("undertow-core");
        Class<?> undertow = original.loadClass("io.undertow.Undertow");
        Class<?> handler = original.loadClass("io.undertow.server.HttpHandler");
        Object builder = undertow.getMethod("builder").invoke(null);
        builder.getClass().getMethod("addHttpListener", int.class, String.class).invoke(builder, 0, "127.0.0.1");
        builder.getClass().getMethod("setIoThreads", int.class).invoke(builder, 1);
        builder.getClass().getMethod("setHandler", handler).invoke(builder,
                original.loadClass("io.undertow.server.handlers.ResponseCodeHandler").getField("HANDLE_200").get(null));
        undertows = builder.getClass().getMethod("build").invoke(builder);
        undertow.getMethod("start").invoke(undertows);
        Object info = ((List<?>) undertow.getMethod("getListenerInfo").invoke(undertows)).get(0);
        undertowsPort = ((InetSocketAddress) info.getClass().getMethod("getAddress").invoke(info)).getPort();
        ours = Undertow.builder().addHttpListener(0, "127.0.0.1").setIoThreads(1)
                .setHandler(ResponseCodeHandler.HANDLE_200).build();
        ours.start();
    }

    @AfterAll
    static void stop() throws Exception {
        undertows.getClass().getMethod("stop").invoke(undertows);
        ours.stop();
        original.close();
    }

    @Test
    void everyVerdictAndReasonIsUndertowsOwn() throws IOException {
        List<String> requests = new ArrayList<>();
        for (String host : hosts()) {
            requests.add("GET /a HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
            requests.add("GET /a HTTP/1.0\r\nHost: " + host + "\r\n\r\n");
            requests.add("GET http://h.test:8080/a HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
        }
        requests.add("GET /a HTTP/1.1\r\n\r\n");
        requests.add("GET /a HTTP/1.0\r\n\r\n");
        requests.add("GET /a HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n");
        requests.add("GET /a HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n");
        requests.add("GET http://h.test/a HTTP/1.1\r\n\r\n");
        int refused = 0;
        for (String request : requests) {
            String theirs = statusLine(undertowsPort, request);
            assertThat(statusLine(((InetSocketAddress) ours.getListenerInfo().get(0).getAddress()).getPort(), request)).as("%s", request).isEqualTo(theirs);
            refused += theirs.startsWith("HTTP/1.1 400") ? 1 : 0;
        }
        // the corpus must exercise both answers, or agreeing would prove nothing
        assertThat(refused).isBetween(requests.size() / 5, requests.size() * 4 / 5);
    }

    @Test
    void aPlainNameAddressOrLiteralPassesAndEachRuleNamesItself() {

        assertThat(HostHeaderHandler.refusal("app.example:8080", null)).isNull();
        assertThat(HostHeaderHandler.refusal("127.0.0.1", null)).isNull();
        assertThat(HostHeaderHandler.refusal("[::1]:443", null)).isNull();
        assertThat(HostHeaderHandler.refusal("[v1.x:y]", null)).isNull();
        assertThat(HostHeaderHandler.refusal("a%41b", null)).isNull();
        assertThat(HostHeaderHandler.refusal("app:0", null)).isEqualTo("Host Header Malformed Port");
        assertThat(HostHeaderHandler.refusal("app:65536", null)).isEqualTo("Host Header Malformed Port");
        assertThat(HostHeaderHandler.refusal("app:", null)).isEqualTo("Host Header Malformed Port");
        assertThat(HostHeaderHandler.refusal("[::1", null)).isEqualTo("Host Header Malformed IP-Literal");
        assertThat(HostHeaderHandler.refusal("[::g]", null)).isEqualTo("Host Header Malformed IP-Literal");
        assertThat(HostHeaderHandler.refusal("user@app", null)).isEqualTo("Host Header Bad Characters");
        assertThat(HostHeaderHandler.refusal("a%4", null)).isEqualTo("Host Header Malformed IP-Literal");
        assertThat(HostHeaderHandler.refusal("other.test", "http://app.test/a")).isEqualTo("URI Host Header NO MATCH");
    }

    private static Set<String> hosts() {
        // "": an empty Host, which RFC 9112 3.2 has a client send when the target has no authority
        Set<String> hosts = new LinkedHashSet<>(List.of("", "h.test", "h.test:80", "h.test:8080", "h.test:0",
                "h.test:1", "h.test:65535", "h.test:65536", "h.test:+80", "h.test:-80", "h.test:-0", "h.test:",
                "h.test:8o", "h.test:99999999999", ":80", "127.0.0.1", "127.0.0.1:80", "256.1.1.1", "1.2.3", "[::1]",
                "[::1]:80", "[::1]:", "[::1", "::1]", "[::1]x", "[1:2:3:4:5:6:7:8]", "[1::2::3]", "[::ffff:1.2.3.4]",
                "[v1.a]", "[v.a]", "[vg.a]", "[v1.]", "[v1.a:b]", "[v1.a b]", "[]", "a[b]", "h%20t", "h%2", "h%zz",
                "%41%42", "a_b~c", "a!$&'()*+,;=b", "user@h.test", "h test", "h.test, x", "h/test", "h?t", "h#t",
                "\u00e9.test", "h.test:80:80", "[::1]:80:80", "[[::1]]", "]", "[", "v1.a", "h.test.", "H.TEST"));
        Random random = new Random(36);
        String alphabet = "ab.9:[]%v1fF-_~!,@ +/";
        while (hosts.size() < 1_050) {
            StringBuilder b = new StringBuilder();
            int n = 1 + random.nextInt(9);
            for (int i = 0; i < n; i++) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String h = b.toString().trim();
            if (!h.isEmpty()) {
                hosts.add(h);
            }
        }
        return hosts;
    }

    private static String statusLine(int port, String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int c = in.read(); c != -1 && c != '\r'; c = in.read()) {
                line.write(c);
            }
            return line.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
