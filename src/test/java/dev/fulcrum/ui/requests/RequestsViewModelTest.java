package dev.fulcrum.ui.requests;

import static dev.fulcrum.ui.requests.Samples.failed;
import static dev.fulcrum.ui.requests.Samples.ok;
import static dev.fulcrum.ui.requests.Samples.request;
import static dev.fulcrum.ui.requests.Samples.success;
import static dev.fulcrum.ui.requests.Samples.tunnel;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.ui.requests.RequestsViewModel.StatusClass;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Requests tab's list without the toolkit: order, bound, filters, pause, the open WebSockets and the seed. */
class RequestsViewModelTest {
    private final RequestsViewModel vm = new RequestsViewModel();

    private List<String> ids() {
        return vm.rows().stream().map(r -> r.request().id()).toList();
    }

    @Test
    void theNewestIsOnTopWhateverOrderABatchCameIn() {
        vm.add(List.of(ok("0:1", 1000, "a"), ok("1:1", 3000, "b"), ok("0:2", 2000, "a")), 0);
        vm.add(List.of(ok("1:2", 4000, "b")), 0);

        assertThat(ids()).containsExactly("1:2", "1:1", "0:2", "0:1");
        assertThat(vm.summaryProperty().get()).isEqualTo("4 requests");
    }

    @Test
    void requestsEndingInTheSameMillisecondKeepTheOrderTheyCameIn() {
        vm.add(List.of(ok("0:1", 1000, "a"), ok("0:2", 1000, "a"), ok("0:3", 1000, "a")), 0);

        assertThat(ids()).containsExactly("0:3", "0:2", "0:1");
    }

    @Test
    void keepsTheNewestFiveThousandAndSaysHowManyCame() {
        List<RequestSample> batch = new ArrayList<>();
        for (int i = 0; i < RequestsViewModel.MAX_ROWS + 1000; i++) {
            batch.add(ok("0:" + i, i, "a"));
        }
        vm.add(batch.subList(0, 3000), 0);
        vm.add(batch.subList(3000, batch.size()), 0);

        assertThat(vm.rows()).hasSize(RequestsViewModel.MAX_ROWS);
        assertThat(vm.rows().get(0).request().id()).isEqualTo("0:5999");
        assertThat(vm.rows().get(RequestsViewModel.MAX_ROWS - 1).request().id()).isEqualTo("0:1000");
        assertThat(vm.summaryProperty().get()).isEqualTo("5,000 requests (the newest 5,000 of 6,000)");
    }

    @Test
    void theBoundTrimsTheFilteredRowsToo() {
        vm.statusProperty().set(StatusClass.SERVER_ERROR);
        List<RequestSample> batch = new ArrayList<>();
        for (int i = 0; i < RequestsViewModel.MAX_ROWS + 10; i++) {
            batch.add(i % 2 == 0 ? ok("0:" + i, i, "a") : request("0:" + i, i, "default", "/x", 502, null,
                    List.of(failed("a", "SERVER_ERROR"))));
        }
        vm.add(batch, 0);

        assertThat(vm.rows()).hasSize(RequestsViewModel.MAX_ROWS / 2).allSatisfy(r ->
                assertThat(r.request().status()).isEqualTo(502));
        assertThat(vm.rows().get(vm.rows().size() - 1).request().id()).isEqualTo("0:11");
    }

    @Test
    void filtersByTextStatusClassBackendAndPool() {
        vm.add(List.of(ok("0:1", 1, "a"),
                request("0:2", 2, "api", "/api/users", 404, "api-1", List.of(success("api-1"))),
                request("0:3", 3, "api", "/api/slow", 499, null, List.of(failed("api-2", "CLIENT_ABORT"))),
                request("0:4", 4, "api", "/api/x", 200, "api-2", List.of(failed("api-1", "CONNECT_FAILURE"),
                        success("api-2"))),
                request("0:5", 5, "default", "/boom", 503, null, List.of(failed("a", "SERVER_ERROR")))), 0);

        vm.statusProperty().set(StatusClass.CLIENT_ERROR);
        assertThat(ids()).containsExactly("0:3", "0:2");
        vm.statusProperty().set(StatusClass.CLIENT_LEFT);
        assertThat(ids()).containsExactly("0:3");
        vm.statusProperty().set(StatusClass.SERVER_ERROR);
        assertThat(ids()).containsExactly("0:5");
        vm.statusProperty().set(StatusClass.SUCCESS);
        assertThat(ids()).containsExactly("0:4", "0:1");
        assertThat(vm.summaryProperty().get()).isEqualTo("2 of 5 requests");

        vm.statusProperty().set(StatusClass.ALL);
        vm.backendProperty().set("api-1"); // answered, or tried
        assertThat(ids()).containsExactly("0:4", "0:2");
        vm.backendProperty().set(RequestsViewModel.ALL_BACKENDS);
        vm.poolProperty().set("default");
        assertThat(ids()).containsExactly("0:5", "0:1");
        vm.poolProperty().set(RequestsViewModel.ALL_POOLS);
        vm.textProperty().set("USERS");
        assertThat(ids()).containsExactly("0:2");
        vm.textProperty().set("api-1 ✗");
        assertThat(ids()).containsExactly("0:4");
        vm.textProperty().set("");
        assertThat(ids()).hasSize(5);
    }

    @Test
    void aNewRequestJoinsTheFilteredRowsOnlyWhenItPasses() {
        vm.statusProperty().set(StatusClass.SERVER_ERROR);
        vm.add(List.of(ok("0:1", 1, "a")), 0);
        vm.add(List.of(request("0:2", 2, "default", "/x", 502, null, List.of(failed("a", "SERVER_ERROR")))), 0);

        assertThat(ids()).containsExactly("0:2");
        vm.statusProperty().set(StatusClass.ALL);
        assertThat(ids()).containsExactly("0:2", "0:1");
    }

    @Test
    void thePauseStopsTheListCountsWhatArrivesAndResumingPutsItOnTop() {
        vm.add(List.of(ok("0:1", 1, "a")), 0);
        vm.pausedProperty().set(true);

        for (int i = 2; i <= 1235; i++) {
            vm.add(List.of(ok("0:" + i, i, "a")), 0);
        }

        assertThat(ids()).containsExactly("0:1");
        assertThat(vm.newWhilePaused()).isEqualTo(1234);
        assertThat(vm.summaryProperty().get()).isEqualTo("1 request · paused, 1,234 new");

        vm.pausedProperty().set(false);

        assertThat(vm.rows()).hasSize(1235);
        assertThat(vm.rows().get(0).request().id()).isEqualTo("0:1235");
        assertThat(vm.summaryProperty().get()).isEqualTo("1,235 requests");
    }

    @Test
    void theOpenWebSocketsSitOnTopAndAreReplacedByTheNextListing() {
        vm.add(List.of(ok("0:1", 1, "a")), 0);
        vm.setOpen(List.of(tunnel("tunnel:1", 0, "a", 10, 20, 500)));
        vm.add(List.of(ok("0:2", 2, "a")), 0);

        assertThat(vm.rows()).extracting(r -> r.request().id() + (r.open() ? " open" : ""))
                .containsExactly("tunnel:1 open", "0:2", "0:1");
        assertThat(vm.summaryProperty().get()).isEqualTo("2 requests · 1 open");

        vm.setOpen(List.of(tunnel("tunnel:2", 5, "b", 0, 0, 10), tunnel("tunnel:1", 0, "a", 30, 40, 1500)));
        assertThat(vm.rows()).extracting(r -> r.request().id() + " " + r.request().bytesIn())
                .containsExactly("tunnel:2 0", "tunnel:1 30", "0:2 0", "0:1 0");

        vm.statusProperty().set(StatusClass.SWITCHED);
        assertThat(ids()).containsExactly("tunnel:2", "tunnel:1");
        vm.setOpen(List.of());
        assertThat(ids()).isEmpty();
    }

    @Test
    void whilePausedTheOpenListingWaitsToo() {
        vm.setOpen(List.of(tunnel("tunnel:1", 0, "a", 1, 1, 1)));
        vm.pausedProperty().set(true);
        vm.setOpen(List.of());
        assertThat(ids()).containsExactly("tunnel:1");
        vm.pausedProperty().set(false);
        assertThat(ids()).isEmpty();
    }

    @Test
    void theSeedGoesBelowAndWhatIsListedAlreadyIsNotListedTwice() {
        vm.add(List.of(ok("0:9", 9000, "a"), ok("0:8", 8000, "a")), 0);
        vm.seed(List.of(ok("0:8", 8000, "a"), ok("0:7", 7000, "a"), ok("0:6", 6000, "a")));
        vm.add(List.of(ok("0:7", 7000, "a"), ok("0:10", 10_000, "a")), 0);

        assertThat(ids()).containsExactly("0:10", "0:9", "0:8", "0:7", "0:6");
    }

    @Test
    void theFilterChoicesAreTheBackendsAndPoolsSeenOrKnownSorted() {
        vm.add(List.of(request("0:1", 1, "api", "/api", 200, "api-2", List.of(failed("api-1", "TIMEOUT"),
                success("api-2")))), 0);
        vm.knownNames(List.of("web", "api-1"), List.of("default", "api"));

        assertThat(vm.backendChoices()).containsExactly(RequestsViewModel.ALL_BACKENDS, "api-1", "api-2", "web");
        assertThat(vm.poolChoices()).containsExactly(RequestsViewModel.ALL_POOLS, "api", "default");
    }

    @Test
    void requestsTheSourceCouldNotDeliverAreCounted() {
        vm.add(List.of(ok("0:1", 1, "a")), 40);
        vm.add(List.of(), 2);

        assertThat(vm.summaryProperty().get()).isEqualTo("1 request · 42 not sampled");
    }

    @Test
    void theListToExportIsWhatIsShown() {
        vm.add(List.of(ok("0:1", 1, "a"), ok("0:2", 2, "b")), 0);
        vm.backendProperty().set("b");

        assertThat(vm.shown()).extracting(RequestSample::id).containsExactly("0:2");
    }
}
