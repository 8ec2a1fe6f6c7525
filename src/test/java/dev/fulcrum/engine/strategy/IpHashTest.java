package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import static dev.fulcrum.engine.strategy.StrategyFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IpHashTest {
    private static final int CLIENTS = 30_000;

    private static String client(int i) {
        return "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255);
    }

    @Test
    void aClientAlwaysReachesTheSameBackendAndSoDoesItOnAnotherInstance() {
        Strategy one = create(StrategySpec.IP_HASH, of("a", 1, "b", 2, "c", 3));
        Strategy two = create(StrategySpec.of(StrategySpec.IP_HASH), of("a", 1, "b", 2, "c", 3), 77);
        for (int i = 0; i < 1000; i++) {
            String id = one.pick(ip(client(i)), Eligibility.ADMITTING).id();
            assertThat(one.pick(ip(client(i)), Eligibility.ADMITTING).id()).isEqualTo(id);
            assertThat(two.pick(ip(client(i)), Eligibility.ADMITTING).id()).isEqualTo(id);
        }
    }

    // tolerance: 30,000 clients, sigma of a 50% share 0.29 points; 1.5 points > 5 sigma
    @Test
    void clientsSpreadInProportionToWeight() {
        Strategy s = create(StrategySpec.IP_HASH, of("a", 1, "b", 1, "c", 2));
        Map<String, Integer> n = new HashMap<>();
        for (int i = 0; i < CLIENTS; i++) {
            n.merge(s.pick(ip(client(i)), Eligibility.ADMITTING).id(), 1, Integer::sum);
        }
        assertThat(n.get("c") / (double) CLIENTS).isCloseTo(0.5, within(0.015));
        assertThat(n.get("a") / (double) CLIENTS).isCloseTo(0.25, within(0.015));
    }

    @Test
    void anIneligibleBackendsClientsAreRehashedToTheOthersDeterministically() {
        Candidates c = of("a", 1, "b", 1, "c", 1);
        Strategy s = create(StrategySpec.IP_HASH, c);
        Map<String, Integer> n = new HashMap<>();
        for (int i = 0; i < 3000; i++) {
            RequestContext r = ip(client(i));
            Backend b = s.pick(r, except(c.get(0)));
            assertThat(b.id()).isNotEqualTo("a");
            assertThat(s.pick(r, except(c.get(0)))).isSameAs(b);
            n.merge(b.id(), 1, Integer::sum);
        }
        assertThat(n.get("b") / 3000.0).isCloseTo(0.5, within(0.05));
        assertThat(s.pick(ip("1.1.1.1"), b -> false)).isNull();
        assertThat(s.pick(ip("1.1.1.1"), except(c.get(0), c.get(1))).id()).isEqualTo("c");
    }

    /** The documented difference from consistent-hash: a membership change remaps most clients. */
    @Test
    void addingABackendRemapsMostClientsUnlikeTheRing() {
        Candidates four = equal(4);
        Candidates five = with(four, "b999", 1);
        Strategy before = create(StrategySpec.IP_HASH, four);
        Strategy after = create(StrategySpec.IP_HASH, five);
        int moved = 0;
        for (int i = 0; i < CLIENTS; i++) {
            RequestContext r = ip(client(i));
            moved += before.pick(r, Eligibility.ADMITTING).id().equals(after.pick(r, Eligibility.ADMITTING).id()) ? 0 : 1;
        }
        // a modulo from 4 to 5 keeps a client only when h mod 4 == h mod 5 (1 in 5): about 80% move
        assertThat(moved / (double) CLIENTS).isCloseTo(0.8, within(0.02));
    }

    @Test
    void aRequestWithoutAClientIpStillPicks() {
        Strategy s = create(StrategySpec.IP_HASH, of("a", 1, "b", 1));
        assertThat(s.pick(new SimpleRequest(null, "GET", "/", Map.of(), Map.of(), Map.of()), Eligibility.ADMITTING))
                .isNotNull();
    }
}
