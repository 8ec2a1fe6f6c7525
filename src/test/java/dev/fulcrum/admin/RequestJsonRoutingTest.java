package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.requests.RequestSample;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a request was routed goes out in {@code /api/requests} ({@code route}, {@code arm}, {@code class} when set,
 * {@code mirror} and {@code shed} only when true) and in HAR ({@code _route}, {@code _arm}, {@code _class},
 * {@code _mirror}), and an attached window reads it back; a request of the default pool reads as it always did.
 */
class RequestJsonRoutingTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static RequestSample sample(RequestSample.Routing routing) {
        return new RequestSample("0:1", 0, "canary", "GET", "/", null, "http", "HTTP/1.1", "127.0.0.1", null, 0,
                List.of(new RequestSample.Attempt("b", "SUCCESS", 1.5)), "b", 200, 0, 10, 2.0, false, false, false,
                false, false, List.of(), List.of(), null, routing);
    }

    @Test
    void aSplitRequestsRouteArmAndClassRoundTrip() throws Exception {
        RequestSample.Routing g = new RequestSample.Routing(2, "canary", "vip", false, false);
        String sent = JSON.writeValueAsString(RequestJson.of(sample(g)));
        JsonNode n = JSON.readTree(sent);
        assertThat(n.get("route").asInt()).isEqualTo(2);
        assertThat(n.get("arm").asText()).isEqualTo("canary");
        assertThat(n.get("class").asText()).isEqualTo("vip");
        assertThat(n.has("mirror")).isFalse();
        assertThat(n.has("shed")).isFalse();
        assertThat(RequestJson.parse(sent).sample().routing()).isEqualTo(g);

        JsonNode har = JSON.valueToTree(Har.of(List.of(sample(g)))).at("/log/entries/0");
        assertThat(har.get("_route").asInt()).isEqualTo(2);
        assertThat(har.get("_arm").asText()).isEqualTo("canary");
        assertThat(har.get("_class").asText()).isEqualTo("vip");
        assertThat(har.has("_mirror")).isFalse();
    }

    @Test
    void aMirroredCopyAndAShedSayTheyAre() throws Exception {
        RequestSample.Routing copy = new RequestSample.Routing(0, null, null, true, false);
        String sent = JSON.writeValueAsString(RequestJson.of(sample(copy)));
        assertThat(JSON.readTree(sent).get("mirror").asBoolean()).isTrue();
        assertThat(JSON.readTree(sent).has("arm")).isFalse();
        assertThat(RequestJson.parse(sent).sample().routing()).isEqualTo(copy);
        assertThat(JSON.valueToTree(Har.of(List.of(sample(copy)))).at("/log/entries/0/_mirror").asBoolean()).isTrue();

        RequestSample.Routing shed = new RequestSample.Routing(1, null, "batch", false, true);
        sent = JSON.writeValueAsString(RequestJson.of(sample(shed)));
        assertThat(JSON.readTree(sent).get("shed").asBoolean()).isTrue();
        assertThat(RequestJson.parse(sent).sample().routing()).isEqualTo(shed);
    }

    @Test
    void theDefaultPoolsRequestsHaveNoRoutingFields() throws Exception {
        JsonNode n = JSON.readTree(JSON.writeValueAsString(RequestJson.of(sample(RequestSample.Routing.NONE))));
        for (String f : List.of("route", "arm", "class", "mirror", "shed")) {
            assertThat(n.has(f)).as(f).isFalse();
        }
        assertThat(RequestJson.parse(n.toString()).sample().routing()).isEqualTo(RequestSample.Routing.NONE);
        JsonNode har = JSON.valueToTree(Har.of(List.of(sample(RequestSample.Routing.NONE)))).at("/log/entries/0");
        assertThat(har.has("_route")).isFalse();
    }
}
