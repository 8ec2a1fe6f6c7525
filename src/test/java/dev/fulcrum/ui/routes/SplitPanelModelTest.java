package dev.fulcrum.ui.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.EngineState.ArmInfo;
import dev.fulcrum.admin.EngineState.GuardInfo;
import dev.fulcrum.admin.EngineState.MirrorInfo;
import dev.fulcrum.admin.EngineState.RouteInfo;
import dev.fulcrum.engine.routing.Split;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SplitPanelModelTest {
    static ArmInfo arm(String pool, int weight, long requests, double errorRate, double p50, double p99) {
        return new ArmInfo(pool, weight, weight / 100.0, weight / 100.0, requests, Math.round(requests * errorRate),
                requests / 60.0, errorRate, p50, p99);
    }

    static RouteInfo route(List<ArmInfo> arms, GuardInfo guard, MirrorInfo mirror) {
        return new RouteInfo(0, null, null, false, Map.of("headers", Map.of("X-Canary", "1")), "vip", null, null,
                arms, null, mirror, guard, 0);
    }

    @Test
    void differenceIsCanaryMinusBaseline() {
        SplitPanelModel m = new SplitPanelModel(route(List.of(arm("stable", 90, 900, 0.005, 10, 40),
                arm("canary", 10, 150, 0.032, 12, 55)), null, null));
        assertThat(m.difference()).isEqualTo(
                "canary − stable: errors +2.7 points · p50 +2 ms · p99 +15 ms");
        assertThat(m.tooFew()).isFalse();
        assertThat(m.judgement()).startsWith("samples: stable 900 · canary 150 requests");
        assertThat(m.title()).isEqualTo("Route 0 · X-Canary: 1 · class vip");
        assertThat(m.columns()).extracting(SplitPanelModel.Column::role).containsExactly("baseline", "canary");
        assertThat(m.columns().get(1).share()).isEqualTo("10% configured (weight 10) · 10% measured");
    }

    @Test
    void tooFewUsesTheGuardsMinimumOrAHundred() {
        List<ArmInfo> arms = List.of(arm("stable", 90, 900, 0, 10, 40), arm("canary", 10, 95, 0, 10, 40));
        SplitPanelModel noGuard = new SplitPanelModel(route(arms, null, null));
        assertThat(noGuard.tooFew()).isTrue();
        assertThat(noGuard.judgement()).isEqualTo(
                "too few requests to judge: canary has 95 of the 100 a comparison needs in the last minute");
        GuardInfo guard = new GuardInfo("canary", 0.02, null, 50, 10_000, "watching", 1, null);
        assertThat(new SplitPanelModel(route(arms, guard, null)).tooFew()).isFalse();
        GuardInfo strict = new GuardInfo("canary", 0.02, null, 1000, 10_000, "too-few", 1, null);
        SplitPanelModel m = new SplitPanelModel(route(arms, strict, null));
        assertThat(m.judgement()).isEqualTo("too few requests to judge: stable has 900, canary has 95 of the 1000 the"
                + " guard needs in the last minute");
        assertThat(m.guardState()).isEqualTo("too few requests");
    }

    @Test
    void guardStateAndReasonAreShown() {
        GuardInfo g = new GuardInfo("canary", 0.02, 0.5, 100, 10_000, "rolled-back", 1,
                "canary errors 12.0% vs baseline 0.5% (+11.5 points > 2.0)");
        SplitPanelModel m = new SplitPanelModel(route(List.of(arm("stable", 100, 900, 0, 1, 2),
                arm("canary", 0, 300, 0.12, 1, 2)), g, null));
        assertThat(m.guardState()).isEqualTo("rolled back");
        assertThat(m.guardStyle()).isEqualTo("guard-rolled-back");
        assertThat(m.guardDetail()).startsWith("canary errors 12.0% vs baseline 0.5%")
                .contains("errors above baseline + 2.0 points or p99 above baseline × 1.50 held 10 s");
    }

    @Test
    void mirrorCounts() {
        MirrorInfo mi = new MirrorInfo("shadow", 10, 65536, 1234, 3, 1, 2, 0);
        SplitPanelModel m = new SplitPanelModel(route(null, null, mi));
        assertThat(m.hasSplit()).isFalse();
        assertThat(m.mirrorText()).isEqualTo("mirror 10% of requests to shadow: 1,234 sent · 3 errors (1 no answer) · 2"
                + " too large (over 65,536 bytes) · 0 dropped");
    }

    @Test
    void canarySliderSharesTheRestByWeight() {
        List<ArmInfo> two = List.of(arm("stable", 90, 0, 0, 0, 0), arm("canary", 10, 0, 0, 0, 0));
        assertThat(SplitPanelModel.withCanary(two, 25)).containsExactly(new Split.Arm("stable", 75),
                new Split.Arm("canary", 25));
        List<ArmInfo> three = List.of(arm("a", 60, 0, 0, 0, 0), arm("b", 30, 0, 0, 0, 0), arm("c", 10, 0, 0, 0, 0));
        assertThat(SplitPanelModel.withCanary(three, 50)).containsExactly(new Split.Arm("a", 34),
                new Split.Arm("b", 16), new Split.Arm("c", 50));
        assertThat(SplitPanelModel.withCanary(two, 100)).containsExactly(new Split.Arm("stable", 0),
                new Split.Arm("canary", 100));
    }

    @Test
    void dragSendsAtMostOneSplitPerIntervalAndTheFinalOnRelease() {
        List<List<Split.Arm>> sent = new ArrayList<>();
        List<String> undone = new ArrayList<>();
        SplitCommands c = new SplitCommands((route, arms) -> sent.add(arms),
                (route, restore, to) -> undone.add(RoutesController.words(restore) + " → " + RoutesController.words(to)));
        List<ArmInfo> arms = List.of(arm("stable", 90, 0, 0, 0, 0), arm("canary", 10, 0, 0, 0, 0));
        List<Split.Arm> from = SplitPanelModel.now(arms);
        long t = 1_000;
        c.dragged(0, from, SplitPanelModel.withCanary(arms, 12), t);
        c.dragged(0, from, SplitPanelModel.withCanary(arms, 14), t + 50);  // within the interval: held back
        c.dragged(0, from, SplitPanelModel.withCanary(arms, 16), t + 100);
        c.dragged(0, from, SplitPanelModel.withCanary(arms, 20), t + SplitCommands.DRAG_SEND_INTERVAL_MS);
        assertThat(sent).extracting(l -> l.get(1).weight()).containsExactly(12, 20);
        c.set(0, from, SplitPanelModel.withCanary(arms, 30));
        assertThat(sent).extracting(l -> l.get(1).weight()).containsExactly(12, 20, 30);
        assertThat(undone).containsExactly("stable 90 / canary 10 → stable 70 / canary 30");
        // released where the drag last sent: nothing sent again, still undoable
        c.dragged(0, from, SplitPanelModel.withCanary(arms, 40), t + 1_000);
        c.set(0, from, SplitPanelModel.withCanary(arms, 40));
        assertThat(sent).extracting(l -> l.get(1).weight()).containsExactly(12, 20, 30, 40);
        assertThat(undone).hasSize(2);
        // dragged away and back: the final split is sent, nothing to undo
        c.dragged(0, from, SplitPanelModel.withCanary(arms, 50), t + 2_000);
        c.set(0, from, from);
        assertThat(sent).extracting(l -> l.get(1).weight()).containsExactly(12, 20, 30, 40, 50, 10);
        assertThat(undone).hasSize(2);
    }
}
