package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.Split;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A weighted split with a sticky key (docs/REFERENCE.md §2.1 {@code routes[i].split}, {@code stickyBy}) over real
 * HTTP/1.1: one cookie value always lands in one arm, the arms' shares follow the weights, raising the canary moves
 * users from stable to canary only, and every client request is counted once in its arm's figures and carries its
 * arm in the request stream.
 */
class SplitProxyTest {
    private static final String SPLIT = """
            [{"pathPrefix": "/", "split": [{"pool": "stable", "weight": 95}, {"pool": "canary", "weight": 5}],
              "stickyBy": "cookie:uid"}]""";
    /** Users the shares are measured over. */
    private static final int USERS = 2000;

    @TempDir
    Path dir;
    private RoutedProxy p;

    @AfterEach
    void stop() {
        if (p != null) {
            p.close();
        }
    }

    private void start() {
        p = new RoutedProxy(dir).pool("default", "d").pool("stable", "s").pool("canary", "c").start(SPLIT);
    }

    /** Each user's arm ("s" or "c"), one request per user. */
    private Map<String, String> armsOfUsers() {
        Map<String, String> arm = new HashMap<>();
        for (int i = 0; i < USERS; i++) {
            String user = "user-" + i;
            arm.put(user, p.who("/x", "Cookie", "uid=" + user));
        }
        return arm;
    }

    @Test
    void oneCookieAlwaysLandsInOneArm() {
        start();
        Map<String, String> first = armsOfUsers();
        String canaryUser = first.entrySet().stream().filter(e -> e.getValue().equals("c")).findFirst().orElseThrow()
                .getKey();
        String stableUser = first.entrySet().stream().filter(e -> e.getValue().equals("s")).findFirst().orElseThrow()
                .getKey();
        Set<String> canarySeen = new HashSet<>();
        Set<String> stableSeen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            canarySeen.add(p.who("/x", "Cookie", "uid=" + canaryUser));
            stableSeen.add(p.who("/x", "Cookie", "theme=dark; uid=" + stableUser));
        }
        assertThat(canarySeen).containsExactly("c");
        assertThat(stableSeen).containsExactly("s");
        assertThat(p.backend("d").requests.get()).isZero();
    }

    @Test
    void theSharesFollowTheWeightsAndRaisingTheCanaryMovesUsersOnlyFromStableToCanary() {
        start();
        Map<String, String> at5 = armsOfUsers();
        long canary5 = at5.values().stream().filter("c"::equals).count();
        // 5% of 2000 is 100 (binomial sd about 10): within 40 of it, four sds, for a hash that spreads keys evenly
        assertThat(canary5).isBetween(60L, 140L);

        p.f.engine().setSplit(0, List.of(new Split.Arm("stable", 90), new Split.Arm("canary", 10)));
        Map<String, String> at10 = armsOfUsers();
        long canary10 = at10.values().stream().filter("c"::equals).count();
        assertThat(canary10).isBetween(140L, 260L); // 10%: 200 within 60
        int movedIn = 0;
        for (var e : at5.entrySet()) {
            String now = at10.get(e.getKey());
            if (e.getValue().equals("c")) {
                assertThat(now).as("a canary user stays on the canary: " + e.getKey()).isEqualTo("c");
            } else if (now.equals("c")) {
                movedIn++;
            }
        }
        assertThat(movedIn).isEqualTo(canary10 - canary5).isPositive();
    }

    @Test
    void everyRequestIsCountedOnceInItsArmAndCarriesItsArm() throws Exception {
        start();
        Map<String, String> arms = armsOfUsers();
        long canary = arms.values().stream().filter("c"::equals).count();
        Router.Route route = p.f.engine().router().route(0);
        await().atMost(Duration.ofSeconds(10)).until(() -> route.arms().stats()[0].figures().total()
                + route.arms().stats()[1].figures().total() == USERS);
        assertThat(route.arms().stats()[1].figures().total()).isEqualTo(canary);
        assertThat(route.arms().stats()[0].figures().total()).isEqualTo(USERS - canary);

        List<JsonNode> recent = p.requests();
        assertThat(recent).isNotEmpty();
        for (JsonNode r : recent) {
            assertThat(r.get("route").asInt()).isZero();
            assertThat(r.get("arm").asText()).isEqualTo(r.get("pool").asText());
            assertThat(r.get("arm").asText()).isEqualTo(r.get("backend").asText().equals("c") ? "canary" : "stable");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> p.logLines().size() >= USERS);
        for (JsonNode l : p.logLines()) {
            assertThat(l.get("arm").asText()).isEqualTo(l.get("backend").asText().equals("c") ? "canary" : "stable");
        }
    }
}
