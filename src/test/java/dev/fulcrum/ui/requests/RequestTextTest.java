package dev.fulcrum.ui.requests;

import static dev.fulcrum.ui.requests.Samples.failed;
import static dev.fulcrum.ui.requests.Samples.request;
import static dev.fulcrum.ui.requests.Samples.success;
import static dev.fulcrum.ui.requests.Samples.tunnel;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.requests.RequestSample;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a request reads in the table and its details. */
class RequestTextTest {
    @Test
    void theRetryPathMarksEachFailedAttempt() {
        assertThat(RequestText.attempts(request("0:1", 0, "api", "/", 200, "b",
                List.of(failed("a", "CONNECT_FAILURE"), success("b"))))).isEqualTo("a ✗ → b");
        assertThat(RequestText.attempts(request("0:1", 0, "api", "/", 502, null,
                List.of(failed("a", "TIMEOUT"), failed("b", "SERVER_ERROR"))))).isEqualTo("a ✗ → b ✗");
        assertThat(RequestText.attempts(request("0:1", 0, "api", "/", 499, null,
                List.of(failed("a", "CLIENT_ABORT"))))).isEqualTo("a (client left)");
        assertThat(RequestText.attempts(request("0:1", 0, "api", "/", 200, "a", List.of(success("a")))))
                .isEqualTo("a");
        RequestSample refused = new RequestSample("0:1", 0, "api", "GET", "/", null, "http", "HTTP/1.1", "1.2.3.4",
                null, 0, List.of(), null, 503, 0, 60, 0.1, false, false, false, true, false, List.of(), List.of());
        assertThat(RequestText.attempts(refused)).isEqualTo("none (refused)");
    }

    @Test
    void sizesAndDurationsReadAsInABrowsersNetworkPanel() {
        assertThat(RequestText.size(512)).isEqualTo("512 B");
        assertThat(RequestText.size(1234)).isEqualTo("1.2 kB");
        assertThat(RequestText.size(34_000)).isEqualTo("34 kB");
        assertThat(RequestText.size(1_234_567)).isEqualTo("1.2 MB");
        assertThat(RequestText.duration(0.42)).isEqualTo("0.42 ms");
        assertThat(RequestText.duration(12.34)).isEqualTo("12.3 ms");
        assertThat(RequestText.duration(412.4)).isEqualTo("412 ms");
        assertThat(RequestText.duration(1530)).isEqualTo("1.53 s");
        assertThat(RequestText.duration(125_000)).isEqualTo("2 min 05 s");
    }

    @Test
    void aWebSocketShowsItsBytesEachWayAndAnOpenOneItsLifeSoFar() {
        RequestSample ws = tunnel("tunnel:1", 0, "a", 1200, 34_000, 12_000);

        assertThat(RequestText.bytes(ws)).isEqualTo("↑ 1.2 kB  ↓ 34 kB");
        assertThat(RequestText.status(ws, true)).isEqualTo("101 open");
        assertThat(RequestText.latency(ws, true)).isEqualTo("open 12.00 s");
        assertThat(RequestText.details(ws, true)).containsEntry("Open for", "12.00 s so far")
                .containsEntry("Bytes from the client", "1.2 kB").containsEntry("Flags", "upgraded (open)");
    }

    @Test
    void theDetailsNameTheKeyAndItsHash() {
        RequestSample hashed = new RequestSample("0:1", 0, "default", "GET", "/k/k42", "a=1", "http", "HTTP/1.1",
                "127.0.0.1", "/k/k42", -1L, List.of(success("b")), "b", 200, 0, 5, 1, false, true, false, false, false,
                List.of(new RequestSample.Header("Authorization", "Bearer ***")), List.of());

        assertThat(RequestText.details(hashed, false)).containsEntry("Request", "GET /k/k42?a=1")
                .containsEntry("Key", "\"/k/k42\"").containsEntry("Hash", "0xffffffffffffffff (18446744073709551615)")
                .containsEntry("Flags", "sticky");
        assertThat(RequestText.headers(hashed.requestHeaders())).isEqualTo("Authorization: Bearer ***");
    }
}
