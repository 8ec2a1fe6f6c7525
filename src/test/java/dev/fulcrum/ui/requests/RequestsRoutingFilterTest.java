package dev.fulcrum.ui.requests;

import static dev.fulcrum.ui.requests.Samples.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.ui.requests.RequestsViewModel.Mirrored;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Requests tab's route, arm, class and mirrored filters, and the details' routing line, without the toolkit. */
class RequestsRoutingFilterTest {
    private final RequestsViewModel vm = new RequestsViewModel();

    static RequestSample routed(String id, long at, String backend, Integer route, String arm, String cls,
                                boolean mirror) {
        RequestSample r = ok(id, at, backend);
        return new RequestSample(r.id(), r.startMillis(), arm == null ? "default" : arm, r.method(), r.path(),
                r.query(), r.scheme(), r.protocol(), r.client(), r.key(), r.keyHash(), r.attempts(), r.backend(),
                r.status(), r.bytesIn(), r.bytesOut(), r.latencyMs(), r.retried(), r.sticky(), r.spilled(),
                r.refused(), r.upgraded(), r.requestHeaders(), r.responseHeaders(), null,
                new RequestSample.Routing(route, arm, cls, mirror, false));
    }

    private List<String> ids() {
        return vm.rows().stream().map(r -> r.request().id()).toList();
    }

    @Test
    void eachFilterNarrowsAndItsAllChoicePassesEverything() {
        assertThat(vm.routedProperty().get()).as("no routed request yet: the filters stay hidden").isFalse();
        vm.add(List.of(ok("0:1", 1000, "d1"),
                routed("0:2", 2000, "s1", 0, "stable", "vip", false),
                routed("0:3", 3000, "c1", 0, "canary", "vip", false),
                routed("0:4", 4000, "m1", 0, "canary", "vip", true),
                routed("0:5", 5000, "b1", 1, null, "batch", false)), 0);
        assertThat(vm.routedProperty().get()).isTrue();
        assertThat(vm.routeChoices()).containsExactly("all routes", "route 0", "route 1");
        assertThat(vm.armChoices()).containsExactly("all arms", "canary", "stable");
        assertThat(vm.classChoices()).containsExactly("all classes", "batch", "vip");

        vm.routeProperty().set("route 0");
        assertThat(ids()).containsExactly("0:4", "0:3", "0:2");
        vm.armProperty().set("canary");
        assertThat(ids()).containsExactly("0:4", "0:3");
        vm.mirroredProperty().set(Mirrored.CLIENT);
        assertThat(ids()).containsExactly("0:3");
        assertThat(vm.summaryProperty().get()).isEqualTo("1 of 5 requests");
        vm.mirroredProperty().set(Mirrored.MIRRORED);
        assertThat(ids()).containsExactly("0:4");

        vm.routeProperty().set(RequestsViewModel.ALL_ROUTES);
        vm.armProperty().set(RequestsViewModel.ALL_ARMS);
        vm.mirroredProperty().set(Mirrored.ALL);
        vm.routeClassProperty().set("batch");
        assertThat(ids()).containsExactly("0:5");
        vm.routeClassProperty().set(null); // an emptied box: all
        assertThat(ids()).hasSize(5);
        assertThat(vm.summaryProperty().get()).isEqualTo("5 requests");
    }

    @Test
    void theDetailsSayHowARequestWasRouted() {
        assertThat(RequestText.routing(ok("0:1", 1, "a"))).isNull();
        assertThat(RequestText.details(ok("0:1", 1, "a"), false)).doesNotContainKey("Route");
        RequestSample copy = routed("0:2", 1, "m1", 0, "canary", "vip", true);
        assertThat(RequestText.details(copy, false)).containsEntry("Route",
                "route 0 · arm canary · class vip · a mirrored copy (its answer went to no client)");
    }
}
