package dev.fulcrum.ui.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.requests.RequestSample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Live stage's model on a hand-moved clock: no toolkit, no waiting for an animation. */
class LiveModelTest {
    private double t;
    private final LiveModel model = new LiveModel(() -> t);
    private final StageLayout layout = new StageLayout(1200, 700, List.of("a", "b", "c"));

    static RequestSample sample(int status, double latencyMs, boolean refused, String... tried) {
        List<RequestSample.Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < tried.length; i++) {
            attempts.add(new RequestSample.Attempt(tried[i], i < tried.length - 1 ? "CONNECT_FAILURE" : "SUCCESS", 1));
        }
        return new RequestSample("0:1", 0, "default", "GET", "/", null, "http", "HTTP/1.1", "10.0.0.1", null, 0,
                List.copyOf(attempts), refused || tried.length == 0 ? null : tried[tried.length - 1], status, 0, 5,
                latencyMs, tried.length > 1, false, false, refused, false, List.of(), List.of());
    }

    private static RequestSource.Batch batch(RequestSample... rs) {
        return new RequestSource.Batch(List.of(rs), 0);
    }

    private static void near(Flight.Position p, StageLayout.Point where) {
        assertThat(p).isNotNull();
        assertThat(p.x()).isCloseTo(where.x(), within(0.5));
        assertThat(p.y()).isCloseTo(where.y(), within(0.5));
    }

    @Test
    void aRequestProxiedToBBecomesADotThatFliesToBAndBack() {
        model.offer(batch(sample(200, 10, false, "b")));

        assertThat(model.flights()).singleElement().satisfies(f -> {
            assertThat(f.destination()).isEqualTo("b");
            assertThat(f.kind()).isEqualTo(Flight.Kind.OK);
            assertThat(f.count()).isEqualTo(1);
        });
        Flight f = model.flights().get(0);
        near(f.at(0, layout), layout.client(f.lane()));
        near(f.at(Flight.TO_PROXY, layout), layout.proxyIn());
        near(f.at(Flight.TO_PROXY + 0.001 + Flight.TO_BACKEND, layout), layout.card("b").entry());
        assertThat(f.at(Flight.TO_PROXY + 0.2, layout).x()).as("on its way right, to the cards")
                .isBetween(layout.proxyOut().x(), layout.card("b").entry().x());

        t = f.length() + 0.01;
        assertThat(model.flights()).as("home and gone").isEmpty();
    }

    @Test
    void aBacklogIsCountedButNeitherDrawnNorTakenIntoTheScale() {
        // a minute of 50 req/s kept while the tab was hidden: 40 sampled, the rest counted as dropped
        List<RequestSample> forty = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            forty.add(sample(200, 10, false, "a"));
        }
        model.skip(new RequestSource.Batch(forty, 2_960));

        assertThat(model.requests()).isEqualTo(3_000);
        assertThat(model.flights()).isEmpty();
        assertThat(model.scale()).isEqualTo(1);

        // and the next request, back at the usual rate, is one dot for one request
        t = 0.05;
        model.offer(batch(sample(200, 10, false, "b")));
        assertThat(model.flights()).singleElement().satisfies(f -> assertThat(f.count()).isEqualTo(1));

        // paused, a backlog is what came while paused
        model.pause();
        model.skip(new RequestSource.Batch(List.of(), 7));
        assertThat(model.seenWhilePaused()).isEqualTo(7);
    }

    @Test
    void aBatchReadAfterAStallIsDrawnAtItsLastSecondsShareADotPerRequest() {
        // 25 req/s, and the window stalls for 8 s (starting up, a long pause in the machine) between two reads
        model.offer(batch(sample(200, 10, false, "a")));
        t = 8;
        List<RequestSample> sampled = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            sampled.add(sample(200, 10, false, i % 2 == 0 ? "a" : "b"));
        }
        int before = model.flights().size();
        model.offer(new RequestSource.Batch(sampled, 160));

        // the 200 are counted; the rate is theirs over 8 s, and what is drawn is the last second's share, one each
        assertThat(model.requests()).isEqualTo(201);
        assertThat(model.scale()).isEqualTo(1);
        List<Flight> born = model.flights().subList(before, model.flights().size());
        assertThat(born).allSatisfy(f -> assertThat(f.count()).isEqualTo(1));
        assertThat(born.size()).isBetween(20, 30);
    }

    @Test
    void aLoneRequestReadAfterASlowFrameIsStillADot() {
        // a loaded machine: the frame after the last read comes 2.5 s later, with the one request a user sent
        model.offer(batch());
        t = 2.5;
        model.offer(batch(sample(200, 10, false, "b")));

        assertThat(model.flights()).singleElement().extracting(Flight::destination).isEqualTo("b");
    }

    @Test
    void atAFrameASecondEachBatchsDotsLeaveOverItsSecond() {
        model.offer(batch(sample(200, 10, false, "a")));
        t = 1;
        List<RequestSample> second = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            second.add(sample(200, 10, false, "b"));
        }
        int before = model.flights().size();
        model.offer(new RequestSource.Batch(second, 0));

        List<Flight> born = model.flights().subList(before, model.flights().size());
        assertThat(born).hasSize(25);
        double first = born.stream().mapToDouble(Flight::born).min().orElseThrow();
        double last = born.stream().mapToDouble(Flight::born).max().orElseThrow();
        assertThat(first).isEqualTo(1);
        assertThat(last - first).as("spread over the second, not sent as one clump").isGreaterThan(0.9);
    }

    @Test
    void aRetryBouncesOffTheFirstBackendAndGoesOnToTheSecond() {
        model.offer(batch(sample(200, 10, false, "a", "c")));
        Flight f = model.flights().get(0);

        double atA = Flight.TO_PROXY + 0.001 + Flight.TO_BACKEND;
        near(f.at(atA, layout), layout.card("a").entry());
        near(f.at(atA + Flight.BOUNCE, layout), layout.proxyOut());
        near(f.at(atA + Flight.BOUNCE + Flight.TO_BACKEND, layout), layout.card("c").entry());
        assertThat(f.destination()).isEqualTo("c");
    }

    @Test
    void aRefusalStopsAtTheProxyAndFadesThere() {
        model.offer(batch(sample(503, 1, true)));
        Flight f = model.flights().get(0);

        assertThat(f.kind()).isEqualTo(Flight.Kind.REFUSED);
        assertThat(f.destination()).isNull();
        for (double s = Flight.TO_PROXY + 0.01; s < f.length(); s += 0.05) {
            Flight.Position p = f.at(s, layout);
            near(p, layout.proxyIn());
            assertThat(p.fading()).isTrue();
        }
    }

    @Test
    void aSlowerAnswerIsHeldLongerAtItsBackend() {
        assertThat(Flight.dwell(300)).isGreaterThan(Flight.dwell(5) * 4);
        model.offer(batch(sample(200, 300, false, "a"), sample(200, 5, false, "b")));
        List<Flight> f = model.flights();
        assertThat(f.get(0).length() - f.get(1).length()).isCloseTo(Flight.dwell(300) - Flight.dwell(5), within(0.11));
    }

    @Test
    void aboveTheBudgetOneDotStandsForSeveralRequestsAndTheirSharesHold() {
        // 1000 requests a second for two seconds, 3 in 4 to a, each frame's batch sampled to 50 of 100
        long dotsToA = 0;
        long dotsToB = 0;
        long represented = 0;
        for (int frame = 0; frame < 40; frame++) {
            t = frame * 0.05;
            List<RequestSample> rs = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                rs.add(sample(200, 1, false, i % 4 == 3 ? "b" : "a"));
            }
            int before = model.flights().size();
            model.offer(new RequestSource.Batch(rs, 25));
            for (Flight f : model.flights().subList(before, model.flights().size())) {
                represented += f.count();
                if (f.destination().equals("a")) {
                    dotsToA++;
                } else {
                    dotsToB++;
                }
            }
        }

        assertThat(model.scale()).isEqualTo(5);
        assertThat(model.requests()).isEqualTo(2_000);
        assertThat(represented).as("every request is in some dot, give or take the groups still filling")
                .isBetween(2_000L - 2 * 5 * 2, 2_000L);
        assertThat((double) dotsToA / (dotsToA + dotsToB)).isCloseTo(0.75, within(0.03));
        assertThat(model.dots()).isLessThanOrEqualTo((long) (2 * LiveModel.MAX_DOTS_PER_SECOND * 1.2));
    }

    @Test
    void pauseHoldsEveryDotStillAndCountsWhatCameMeanwhile() {
        model.offer(batch(sample(200, 10, false, "a")));
        t = 0.3;
        Flight f = model.flights().get(0);
        Flight.Position before = f.at(model.now(), layout);

        model.pause();
        t = 5;
        model.offer(batch(sample(200, 10, false, "b"), sample(200, 10, false, "c")));

        assertThat(f.at(model.now(), layout)).isEqualTo(before);
        assertThat(model.flights()).hasSize(1);
        assertThat(model.seenWhilePaused()).isEqualTo(2);

        model.resume();
        t = 5.1;
        assertThat(model.now()).isCloseTo(0.4, within(1e-9));
        assertThat(f.at(model.now(), layout)).isNotEqualTo(before);
    }

    @Test
    void onlyTheLanesOfClientsSeenAreDrawnTheFirstLevelWithTheProxy() {
        assertThat(LiveCanvas.drawn(new String[] {"", "", ""}, 0)).as("no client yet: one lane shows where").isTrue();
        assertThat(LiveCanvas.drawn(new String[] {"", "", ""}, 1)).isFalse();
        String[] one = {"127.0.0.1", "", ""};
        assertThat(LiveCanvas.drawn(one, 0)).isTrue();
        assertThat(LiveCanvas.drawn(one, 1)).isFalse();
        assertThat(LiveCanvas.drawn(one, 2)).isFalse();
        StageLayout l = new StageLayout(1000, 600, List.of("a"));
        assertThat(l.client(0).y()).isEqualTo(l.proxyIn().y());
        assertThat(l.client(1).y()).isLessThan(l.client(0).y());
        assertThat(l.client(2).y()).isGreaterThan(l.client(0).y());
    }
}
