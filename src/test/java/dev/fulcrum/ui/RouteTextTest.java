package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.RouteInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouteTextTest {
    @Test
    void matchReadsAsWritten() {
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put("X-Canary", "1");
        headers.put("X-Tier", Map.of("prefix", "gold"));
        headers.put("X-Debug", Map.of("present", true));
        Map<String, Object> match = new LinkedHashMap<>();
        match.put("method", List.of("GET", "HEAD"));
        match.put("headers", headers);
        match.put("cookies", Map.of("beta", Map.of("regex", "^on$")));
        RouteInfo r = new RouteInfo(2, "/api", null, false, match, "batch", null, null, null, null, null, null, 0);
        assertThat(RouteText.match(r)).isEqualTo("/api · GET|HEAD · X-Canary: 1 · X-Tier: gold… · X-Debug present"
                + " · cookie beta ~ ^on$");
        assertThat(RouteText.name(r)).startsWith("route 2 (/api · GET|HEAD").endsWith(" class batch");
        assertThat(RouteText.match(new RouteInfo(0, null, "x", false, null, null, null, null, null, null, null,
                null, 0))).isEqualTo("every request");
    }
}
