package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoutesTextTest {
    private static EngineState withRoutes(List<EngineState.RouteInfo> routes) {
        return new EngineState("http://127.0.0.1:8080", Map.of(), Map.of(), routes, List.of());
    }

    @Test
    void theStatusBarListsTheRoutesInMatchingOrderAndTheDefault() {
        String text = MainController.routesText(withRoutes(List.of(new EngineState.RouteInfo("/api/v2", "v2", true),
                new EngineState.RouteInfo("/api", "api", false))));
        assertThat(text).isEqualTo("   ·   routes: /api/v2 → v2 (strip), /api → api, else → default");
    }

    @Test
    void withoutRoutesNothingIsShown() {
        assertThat(MainController.routesText(withRoutes(List.of()))).isEmpty();
    }

    @Test
    void aSplitRouteNamesItsArmsAndAHeaderMatchItsHeader() {
        EngineState.RouteInfo split = new EngineState.RouteInfo(0, null, null, false,
                Map.of("headers", Map.of("X-Canary", "1")), null, null, null,
                List.of(new EngineState.ArmInfo("stable", 90, 0.9, 0, 0, 0, 0, 0, 0, 0),
                        new EngineState.ArmInfo("canary", 10, 0.1, 0, 0, 0, 0, 0, 0, 0)), null, null, null, 0);
        assertThat(MainController.routesText(withRoutes(List.of(split))))
                .isEqualTo("   ·   routes: X-Canary: 1 → stable 90/canary 10, else → default");
    }
}
