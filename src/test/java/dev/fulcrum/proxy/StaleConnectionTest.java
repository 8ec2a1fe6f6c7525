package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.BackendView;
import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A backend that closes an idle keep-alive connection just as the proxy sends the next request on it (Node's dev
 * servers close idle connections after 5 s). Here made certain: each connection answers its first request and is
 * closed, unanswered, when a second one arrives on it.
 */
class StaleConnectionTest {
    private RunningFulcrum f;

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void aGetOnAConnectionTheBackendJustClosedIsSentAgainOnANewOneAndNotHeldAgainstIt() throws Exception {
        RawBackend b = closingBackend(false);
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            statuses.add(f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/get" + i)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
        }
        assertThat(statuses).containsOnly(200);
        BackendView v = f.engine().backends().get(0);
        assertThat(v.failures()).isZero();
        assertThat(v.breaker().name()).isEqualTo("CLOSED");
        assertThat(count(b, "GET /get")).isEqualTo(16 + 15); // each once on a new connection, 15 more on closed ones
    }

    @Test
    void aPostOnSuchAConnectionIsNotSentAgain() throws Exception {
        RawBackend b = closingBackend(false);
        assertThat(f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/first")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
        int status = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/order"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        // whether the POST got there cannot be known: it is never resent (docs/REFERENCE.md §3)
        assertThat(status).isEqualTo(502);
        assertThat(count(b, "POST /order")).isEqualTo(1);
    }

    @Test
    void aResetInsteadOfACloseIsHandledTheSame() throws Exception {
        closingBackend(true);
        for (int i = 0; i < 6; i++) {
            assertThat(f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/r" + i)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode()).as("request " + i).isEqualTo(200);
        }
    }

    private RawBackend closingBackend(boolean reset) throws Exception {
        RawBackend b = RawBackend.ok();
        b.answersPerConnection = 1;
        b.resetInsteadOfClose = reset;
        f = RunningFulcrum.bareProxy(TestSettings.proxy().build()).backend("dev", b).start();
        return b;
    }

    private static int count(RawBackend b, String requestLineStart) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(requestLineStart)).matcher(b.received.toString());
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
