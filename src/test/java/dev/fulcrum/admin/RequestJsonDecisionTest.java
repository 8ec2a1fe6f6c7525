package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.requests.Decision;
import dev.fulcrum.requests.RequestSample;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request's decision goes out in {@code /api/requests} as the access log writes it, and an attached window reads it
 * back into the same value; a request without one has no {@code decision} field.
 */
class RequestJsonDecisionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static RequestSample sample(Decision d) {
        return new RequestSample("0:1", 0, "default", "GET", "/", null, "http", "HTTP/1.1", "127.0.0.1", null, 0,
                List.of(new RequestSample.Attempt("b", "SUCCESS", 1.5)), "b", 200, 0, 10, 2.0, false, false, false,
                false, false, List.of(), List.of(), d);
    }

    @Test
    void theDecisionRoundTripsAsTheAccessLogWritesIt() throws Exception {
        Decision d = new Decision(List.of(new Decision.Pick(1, "adaptive", List.of(
                new Decision.Candidate("a", 1, 2, false, null, 0.8, null),
                new Decision.Candidate("b", 0.55, 0, true, "busy", 0.61, "stale")),
                Arrays.asList(0.412, 1e-7), null, "a", "k \"1\"", -2L)));

        String sent = JSON.writeValueAsString(RequestJson.of(sample(d)));

        assertThat(JSON.readTree(sent).get("decision")).isEqualTo(JSON.readTree(d.toJson()));
        assertThat(RequestJson.parse(sent).sample().decision()).isEqualTo(d);
        assertThat(JSON.valueToTree(Har.of(List.of(sample(d)))).at("/log/entries/0/_decision"))
                .isEqualTo(JSON.readTree(d.toJson()));
    }

    @Test
    void noDecisionNoField() throws Exception {
        String sent = JSON.writeValueAsString(RequestJson.of(sample(null)));
        assertThat(JSON.readTree(sent).has("decision")).isFalse();
        assertThat(RequestJson.parse(sent).sample().decision()).isNull();
    }
}
