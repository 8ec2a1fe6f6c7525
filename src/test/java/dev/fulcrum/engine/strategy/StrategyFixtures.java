package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.TestBackends;
import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.engine.breaker.CircuitBreaker;
import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.hash.KeySpace;
import dev.fulcrum.time.ManualClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** Builders shared by the strategy tests: backends, candidates, a hand-driven clock, requests. */
final class StrategyFixtures {
    private StrategyFixtures() {
    }

    /** A ticker the test moves by hand. */
    static final ManualClock CLOCK = new ManualClock(1_000_000_000L, 1_000L);

    static Backend backend(String id) {
        return backend(id, null);
    }

    static Backend backend(String id, Integer maxInFlight) {
        return TestBackends.backend("p", new BackendSpec(id, "http://127.0.0.1:1", 1, maxInFlight, false),
                BreakerSpec.DEFAULT, CLOCK, 10_000);
    }

    /** Candidates from (id, weight) pairs, weights scaled as the pool scales them: {@code of("a", 5, "b", 1)}. */
    static Candidates of(Object... idWeight) {
        List<Backend> list = new ArrayList<>();
        int[] w = new int[idWeight.length / 2];
        for (int i = 0; i < idWeight.length; i += 2) {
            list.add(backend((String) idWeight[i]));
            w[i / 2] = ((Integer) idWeight[i + 1]) * Strategies.WEIGHT_SCALE;
        }
        return new Candidates(list, w);
    }

    /** Candidates over existing backends with the given configured weights. */
    static Candidates over(List<Backend> backends, int... weights) {
        int[] w = new int[weights.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = weights[i] * Strategies.WEIGHT_SCALE;
        }
        return new Candidates(backends, w);
    }

    /** n backends "b000".."b{n-1}" of weight 1. */
    static Candidates equal(int n) {
        List<Backend> list = new ArrayList<>();
        int[] w = new int[n];
        for (int i = 0; i < n; i++) {
            list.add(backend(String.format("b%03d", i)));
            w[i] = Strategies.WEIGHT_SCALE;
        }
        return new Candidates(list, w);
    }

    /** The same candidates without the backend of that id. */
    static Candidates without(Candidates c, String id) {
        List<Backend> list = new ArrayList<>();
        List<Integer> w = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) {
            if (!c.get(i).id().equals(id)) {
                list.add(c.get(i));
                w.add(c.weight(i));
            }
        }
        return new Candidates(list, w.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The same candidates plus one more (kept sorted by id). */
    static Candidates with(Candidates c, String id, int weight) {
        List<Backend> list = new ArrayList<>(c.backends());
        list.add(backend(id));
        list.sort(null);
        int[] w = new int[list.size()];
        for (int i = 0; i < w.length; i++) {
            Backend b = list.get(i);
            int old = c.backends().indexOf(b);
            w[i] = old >= 0 ? c.weight(old) : weight * Strategies.WEIGHT_SCALE;
        }
        return new Candidates(list, w);
    }

    static StrategyEnv env(long seed) {
        return StrategyEnv.of(CLOCK, RandomSource.seeded(seed));
    }

    static Strategy create(StrategySpec spec, Candidates c, long seed) {
        return Strategies.create(spec, c, null, env(seed));
    }

    static Strategy create(String type, Candidates c) {
        return create(StrategySpec.of(type), c, 42);
    }

    static RequestContext ip(String ip) {
        return SimpleRequest.get(ip, "/");
    }

    static final RequestContext ANY = SimpleRequest.get("127.0.0.1", "/");

    /** Picks n times (with every backend eligible) and returns the ids in order. */
    static List<String> sequence(Strategy s, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(s.pick(ANY, Eligibility.ADMITTING).id());
        }
        return out;
    }

    /** Pick counts by id over n picks of the supplied requests. */
    static Map<String, Integer> counts(Strategy s, int n, Supplier<RequestContext> requests, Eligibility e) {
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Backend b = s.pick(requests.get(), e);
            m.merge(b == null ? "none" : b.id(), 1, Integer::sum);
        }
        return m;
    }

    static Map<String, Integer> counts(Strategy s, int n) {
        return counts(s, n, () -> ANY, Eligibility.ADMITTING);
    }

    /** Takes n in-flight slots on b, as a pick's lease would. */
    static void hold(Backend b, int n) {
        for (int i = 0; i < n; i++) {
            if (TestBackends.tryAcquire(b) == CircuitBreaker.REFUSED) {
                throw new IllegalStateException("no slot on " + b);
            }
        }
    }

    static Eligibility except(Backend... excluded) {
        Set<Backend> no = Set.of(excluded);
        return b -> !no.contains(b);
    }

    /** Key -> owner for keys "key-0".."key-{n-1}". */
    static Map<String, String> owners(KeySpace ks, int n) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String k = "key-" + i;
            m.put(k, ks.owner(k));
        }
        return m;
    }
}
