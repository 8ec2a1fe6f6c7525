package dev.fulcrum.lesson;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.demo.TrafficAnswer;
import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.engine.sim.KeyDistribution;
import dev.fulcrum.engine.sim.SideBySide;
import dev.fulcrum.engine.sim.SimBackend;
import dev.fulcrum.engine.sim.SimTrace;
import dev.fulcrum.engine.sim.StrategyFigures;
import dev.fulcrum.engine.sim.StrategyResult;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.replay.ComparisonResult;
import dev.fulcrum.replay.StrategyList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the room should see after a step, as a check on real figures ({@link Figures}): the kinds a lesson file's
 * {@code expect} (and {@code waitFor}) entries name, docs/REFERENCE.md §5. Each kind computes its figure, compares it
 * with what the lesson expects and says both in one line.
 *
 * <p>A passive kind only reads figures the engine and the traffic already have, so the window re-checks it as they
 * come in and {@code waitFor} polls it; an active kind sends requests or walks the ring, and is checked once, when
 * the step's actions and wait are over.
 *
 * <p>Example: {@code new Share("demo-c", Bound.between(0.09, 0.13))} over a step whose traffic had 1,000 answers,
 * 112 from demo-c, gives {@code Check(true, "share of demo-c 0.112 in [0.09, 0.13]")}.
 */
sealed interface Expectation {
    Check check(Figures f);

    /**
     * Whether it counts from where the engine's and the demo backends' counters stood when the step began (copies a
     * mirror pool received, requests shed), so the runner reads them then.
     */
    default boolean countsFromStepStart() {
        return false;
    }

    /** Whether it only reads figures (checked again and again while a step runs); false: sends or walks. */
    default boolean passive() {
        return true;
    }

    /** How many keys to look up before the step's actions, for {@link MovedKeys}; 0 for the rest. */
    default int keysToRemember() {
        return 0;
    }

    // ------------------------------------------------------------------ the lesson's traffic

    /** This step's share of answers from one backend (of one traffic class's answers when {@code requestClass}). */
    record Share(String backend, Bound bound, String requestClass) implements Expectation {
        Share(String backend, Bound bound) {
            this(backend, bound, null);
        }

        @Override
        public Check check(Figures f) {
            Map<String, Long> by = byBackend(f, requestClass);
            long total = total(by);
            if (total == 0) {
                return Check.of(false, words("lesson.check.none", words("lesson.check.share", backend),
                        answersOf(requestClass)));
            }
            long n = by.getOrDefault(backend, 0L);
            double share = (double) n / total;
            return Check.of(bound.holds(share), counted(bound.line(words("lesson.check.share", backend), share),
                    outOf(n, total, requestClass)));
        }
    }

    /**
     * This step's share of answers served by the backends of one pool: a split's arm, a route's pool (of one traffic
     * class's answers when {@code requestClass}). Which pool a backend is in is the engine's state now.
     */
    record PoolShare(String pool, Bound bound, String requestClass) implements Expectation {
        @Override
        public Check check(Figures f) {
            Map<String, Long> by = byBackend(f, requestClass);
            long total = total(by);
            if (total == 0) {
                return Check.of(false, words("lesson.check.none", words("lesson.check.pool_share", pool),
                        answersOf(requestClass)));
            }
            java.util.Set<String> members = members(f.state(), pool);
            long n = 0;
            for (Map.Entry<String, Long> e : by.entrySet()) {
                if (members.contains(e.getKey())) {
                    n += e.getValue();
                }
            }
            double share = (double) n / total;
            return Check.of(bound.holds(share), counted(bound.line(words("lesson.check.pool_share", pool), share),
                    outOf(n, total, requestClass)));
        }
    }

    /** This step's largest share of answers from any one backend. */
    record MaxShare(Bound bound) implements Expectation {
        @Override
        public Check check(Figures f) {
            Map<String, Long> by = byBackend(f, null);
            long total = total(by);
            if (total == 0) {
                return Check.of(false, words("lesson.check.none", words("lesson.check.max_share.what"),
                        answersOf(null)));
            }
            String top = null;
            long most = -1;
            for (Map.Entry<String, Long> e : by.entrySet()) {
                if (e.getValue() > most) {
                    top = e.getKey();
                    most = e.getValue();
                }
            }
            double share = (double) most / total;
            return Check.of(bound.holds(share), counted(bound.line(words("lesson.check.max_share", top), share),
                    outOf(most, total, null)));
        }
    }

    /** How many backends answered the lesson's traffic in this step. */
    record BackendsUsed(Bound bound) implements Expectation {
        @Override
        public Check check(Figures f) {
            long n = byBackend(f, null).entrySet().stream().filter(e -> !e.getKey().equals("-") && e.getValue() > 0)
                    .count();
            return Check.of(bound.holds(n), bound.line(words("lesson.check.backends_used"), n));
        }
    }

    /** How many answers the lesson's traffic (or one class of it) had in this step. */
    record Answered(Bound bound, String requestClass) implements Expectation {
        Answered(Bound bound) {
            this(bound, null);
        }

        @Override
        public Check check(Figures f) {
            long n = total(byBackend(f, requestClass));
            return Check.of(bound.holds(n), bound.line(words("lesson.check.answered", answersOf(requestClass)), n));
        }
    }

    /**
     * How many answers of the current traffic run (or of one class of it) had one HTTP status: a run's outcome, so a
     * request cut off in this step counts though it was sent in the step before.
     */
    record Status(int status, Bound bound, String requestClass) implements Expectation {
        Status(int status, Bound bound) {
            this(status, bound, null);
        }

        @Override
        public Check check(Figures f) {
            long n;
            if (requestClass == null) {
                TrafficSnapshot t = f.traffic();
                n = t == null ? 0 : t.byStatus().getOrDefault(status, 0L);
            } else {
                n = f.runAnswers().stream().filter(a -> a.status() == status
                        && requestClass.equals(a.requestClass())).count();
            }
            return Check.of(bound.holds(n), bound.line(words("lesson.check.status", whose(requestClass), status), n));
        }
    }

    /**
     * A latency percentile ({@code p50}, {@code p90}, {@code p99}) of this step's answers (of one traffic class's
     * when {@code requestClass}), in milliseconds; with {@code versus} (another class), that percentile over the same
     * percentile of the other class's answers in the step, so a machine slow for both classes alike moves neither
     * the ratio nor the check. Example: vip p90 45 ms, batch p90 410 ms, bound below 0.5: ratio 0.11 holds.
     */
    record Latency(String percentile, Bound bound, String requestClass, String versus) implements Expectation {
        static final List<String> PERCENTILES = List.of("p50", "p90", "p99");

        Latency(String percentile, Bound bound) {
            this(percentile, bound, null, null);
        }

        Latency(String percentile, Bound bound, String requestClass) {
            this(percentile, bound, requestClass, null);
        }

        @Override
        public Check check(Figures f) {
            String what = requestClass == null ? percentile : words("lesson.check.latency.of", percentile,
                    requestClass);
            long[] micros = micros(f, requestClass);
            if (micros.length == 0) {
                return Check.of(false, words("lesson.check.none", what, answersOf(requestClass)));
            }
            double ms = at(micros) / 1000.0;
            if (versus != null) {
                long[] theirs = micros(f, versus);
                if (theirs.length == 0) {
                    return Check.of(false, words("lesson.check.latency.none_versus", what, answersOf(versus)));
                }
                double other = at(theirs) / 1000.0;
                double ratio = other > 0 ? ms / other : Double.POSITIVE_INFINITY;
                return Check.of(bound.holds(ratio), counted(bound.line(words("lesson.check.latency.versus", what,
                        Bound.number(Math.round(ms)), percentile, versus, Bound.number(Math.round(other))), ratio),
                        words("lesson.check.latency.versus.count", micros.length, theirs.length)));
            }
            return Check.of(bound.holds(ms), words("lesson.check.latency", what, Bound.number(Math.round(ms)),
                    bound.text(bound.holds(ms)), micros.length));
        }

        /** This step's answered latencies of one class (all: null), sorted. */
        private static long[] micros(Figures f, String requestClass) {
            return f.answers().stream().filter(TrafficAnswer::answered)
                    .filter(a -> requestClass == null || requestClass.equals(a.requestClass()))
                    .mapToLong(TrafficAnswer::latencyMicros).sorted().toArray();
        }

        /** The percentile by nearest rank: the smallest latency at least p of the answers were at or below. */
        private long at(long[] sorted) {
            double p = switch (percentile) {
                case "p50" -> 0.50;
                case "p90" -> 0.90;
                default -> 0.99;
            };
            int rank = (int) Math.ceil(p * sorted.length) - 1;
            return sorted[Math.max(0, rank)];
        }
    }

    /** The current traffic run has sent everything and every answer is in. */
    record TrafficDone() implements Expectation {
        @Override
        public Check check(Figures f) {
            TrafficSnapshot t = f.traffic();
            if (t == null) {
                return Check.of(false, words("lesson.check.traffic.none"));
            }
            boolean done = t.state() == TrafficSnapshot.State.DONE;
            return Check.of(done, done ? words("lesson.check.traffic.done", t.completed())
                    : words("lesson.check.traffic.not_done", t.state()));
        }
    }

    /**
     * Requests of {@code method} a backend received more than once in the current traffic run: what the demo
     * backends received minus what the traffic sent (a retry of a request that reached a backend).
     */
    record Resent(String method, Bound bound) implements Expectation {
        @Override
        public Check check(Figures f) {
            TrafficSnapshot t = f.traffic();
            if (t == null) {
                return Check.of(false, words("lesson.check.resent.none", method));
            }
            long sent = method.equals("POST") ? t.posts() : t.gets();
            long received = f.receivedSinceTrafficStart(method);
            long again = Math.max(0, received - sent);
            return Check.of(bound.holds(again), counted(bound.line(words("lesson.check.resent", method), again),
                    words("lesson.check.resent.counts", sent, received)));
        }
    }

    /** No request of {@code method} of the current traffic run reached a backend twice. */
    record SentOnce(String method) implements Expectation {
        @Override
        public Check check(Figures f) {
            TrafficSnapshot t = f.traffic();
            if (t == null) {
                return Check.of(false, words("lesson.check.sent_once.no_traffic", method));
            }
            long sent = method.equals("POST") ? t.posts() : t.gets();
            long received = f.receivedSinceTrafficStart(method);
            if (sent == 0) {
                return Check.of(false, words("lesson.check.sent_once.none_sent", method, sent, received));
            }
            return received <= sent ? Check.of(true, words("lesson.check.sent_once", method, sent, received))
                    : Check.of(false, words("lesson.check.sent_twice", received - sent, method, sent, received));
        }
    }

    // ------------------------------------------------------------------ the engine's state

    /** A backend's breaker is in one state now, or passed through it since the step began. */
    record BreakerIs(String backend, String breakerState) implements Expectation {
        @Override
        public Check check(Figures f) {
            EngineState.BackendInfo b = f.state().backend(backend);
            if (b == null || b.breaker() == null) {
                return Check.of(false, words("lesson.check.breaker.no_backend", backend));
            }
            String now = b.breaker().state();
            if (now.equals(breakerState)) {
                return Check.of(true, words("lesson.check.breaker.is", backend, breaker(now)));
            }
            boolean reached = f.breakerEvents(backend).stream().anyMatch(e -> breakerState.equals(e.to()));
            return reached ? Check.of(true, words("lesson.check.breaker.went_now", backend, breaker(breakerState),
                    breaker(now)))
                    : Check.of(false, words("lesson.check.breaker.expected", backend, breaker(now),
                    breaker(breakerState)));
        }
    }

    /** A backend's breaker went through these states, in this order, since the step began. */
    record BreakerWent(String backend, List<String> states) implements Expectation {
        @Override
        public Check check(Figures f) {
            List<String> seen = new ArrayList<>();
            for (EngineEvent e : f.breakerEvents(backend)) {
                seen.add(e.to());
            }
            int matched = 0;
            for (String s : seen) {
                if (matched < states.size() && s.equals(states.get(matched))) {
                    matched++;
                }
            }
            String want = breakers(states);
            String got = seen.isEmpty() ? words("lesson.check.breaker.no_transition") : breakers(seen);
            return matched == states.size() ? Check.of(true, words("lesson.check.breaker.went", backend, want))
                    : Check.of(false, words("lesson.check.breaker.went_expected", backend, got, want));
        }
    }

    /**
     * An engine event of {@code type} ({@code guard}: a canary guard rolled its arm back; {@code split}: a split's
     * weights changed) happened since the step began, or (happened false) did not. The line names the last one:
     * {@code guard event on route 0: canary error rate 0.48 above stable's 0 by more than 0.2 for 1 s}.
     */
    record Event(String type, boolean happened) implements Expectation {
        static final List<String> TYPES = List.of("guard", "split");

        @Override
        public Check check(Figures f) {
            List<EngineEvent> seen = f.events(type);
            if (seen.isEmpty()) {
                return Check.of(!happened, words("lesson.check.event.none", type));
            }
            EngineEvent e = seen.get(seen.size() - 1);
            String event = seen.size() > 1 ? words("lesson.check.event.times", type, seen.size())
                    : words("lesson.check.event", type);
            String what = words(e.route() == null ? "lesson.check.event.what" : "lesson.check.event.on_route", event,
                    (e.from() == null ? "" : e.from() + " → ") + e.to(), e.route());
            return Check.of(happened, happened ? what : words("lesson.check.event.unexpected", what));
        }
    }

    /**
     * Copies of the lesson's traffic the demo backends of {@code pool} received marked {@code X-Fulcrum-Mirror: 1}
     * since the step began, per request the lesson's traffic sent in the step (answered or not: a copy arrives
     * before its request's answer): a mirror at 20 percent gives about 0.2.
     */
    record Mirrored(String pool, Bound bound) implements Expectation {
        @Override
        public boolean countsFromStepStart() {
            return true;
        }

        @Override
        public Check check(Figures f) {
            long copies = f.mirroredSinceStepStart(pool);
            long sent = f.sentSinceStepStart();
            if (sent == 0) {
                return Check.of(false, words("lesson.check.mirrored.none_sent", pool, copies));
            }
            double per = (double) copies / sent;
            return Check.of(bound.holds(per), counted(bound.line(words("lesson.check.mirrored", pool), per),
                    words("lesson.check.mirrored.counts", copies, sent)));
        }
    }

    /**
     * The share of the copies mirrored to {@code pool} since the step began that came back 5xx or with no answer, as
     * the engine counts them ({@code pools.NAME.mirror} of {@code /api/state}): the shadow's errors, which no client
     * saw.
     */
    record MirrorErrors(String pool, Bound bound) implements Expectation {
        @Override
        public boolean countsFromStepStart() {
            return true;
        }

        @Override
        public Check check(Figures f) {
            EngineState.MirrorCounts c = f.mirrorCountsSinceStepStart(pool);
            if (c.sent() == 0) {
                return Check.of(false, words("lesson.check.mirror_errors.none", pool));
            }
            // the engine's errors are the copies answered 5xx or not at all (failed counts the latter again)
            double share = (double) c.errors() / c.sent();
            return Check.of(bound.holds(share), counted(bound.line(words("lesson.check.mirror_errors", pool), share),
                    words("lesson.check.mirror_errors.counts", c.errors(), c.sent())));
        }
    }

    /**
     * Requests the engine shed at a route's class ceiling ({@code maxInFlightPerBackend}) since the step began: of
     * route {@code route}, or of every route when it is null.
     */
    record Shed(Integer route, Bound bound) implements Expectation {
        @Override
        public boolean countsFromStepStart() {
            return true;
        }

        @Override
        public Check check(Figures f) {
            long n = f.shedSinceStepStart(route);
            return Check.of(bound.holds(n), bound.line(route == null ? words("lesson.check.shed")
                    : words("lesson.check.shed.route", route), n));
        }
    }

    /** A backend's state now: UP, DOWN, EJECTED, DRAINING or DRAINED (docs/REFERENCE.md §4). */
    record StateIs(String backend, String backendState) implements Expectation {
        @Override
        public Check check(Figures f) {
            EngineState.BackendInfo b = f.state().backend(backend);
            String now = b == null ? "gone" : b.state();
            String said = b == null ? words("lesson.check.state.gone") : Texts.word("state", now);
            return backendState.equals(now) ? Check.of(true, words("lesson.check.state", backend, said))
                    : Check.of(false, words("lesson.check.state.expected", backend, said,
                    Texts.word("state", backendState)));
        }
    }

    /** A backend's effective weight now (its weight with slow start's ramp applied). */
    record EffectiveWeight(String backend, Bound bound) implements Expectation {
        @Override
        public Check check(Figures f) {
            EngineState.BackendInfo b = f.state().backend(backend);
            if (b == null) {
                return Check.of(false, words("lesson.check.weight.no_backend", backend));
            }
            double w = b.effectiveWeight();
            return Check.of(bound.holds(w), counted(bound.line(words("lesson.check.weight", backend), w),
                    words("lesson.check.weight.set", b.weight())));
        }
    }

    /** The last what-if preview's fraction of keys that would move. */
    record PreviewMoved(Bound bound) implements Expectation {
        @Override
        public Check check(Figures f) {
            EngineClient.Preview p = f.lastPreview();
            if (p == null) {
                return Check.of(false, words("lesson.check.preview.none"));
            }
            return Check.of(bound.holds(p.movedFraction()), bound.line(words("lesson.check.preview"),
                    p.movedFraction()));
        }
    }

    // ------------------------------------------------------------------ sent, walked or simulated once

    /** The backends that answer requests sent one after the other are exactly these, in order. */
    record Sequence(List<String> backends, String path, Map<String, String> headers) implements Expectation {
        @Override
        public boolean passive() {
            return false;
        }

        @Override
        public Check check(Figures f) {
            List<String> got = f.picks(backends.size(), path, headers);
            String seen = String.join(" ", got);
            return got.equals(backends) ? Check.of(true, words("lesson.check.sequence", seen))
                    : Check.of(false, words("lesson.check.sequence.expected", seen, String.join(" ", backends)));
        }
    }

    /**
     * Each of {@code keys} users ({@code k0 .. k<keys-1>}, the key in {@code keyIn}: {@code cookie:NAME} or
     * {@code header:NAME}) sends {@code requests} requests one after the other; every user's answers must come from
     * one pool (one arm of the split) each time, and the users must land in more than one pool, or nothing was shown.
     * Example: 100 users at 95/5: {@code 100 users, 3 requests each: 95 in stable, 5 in canary, none changed arm}.
     */
    record StickyArms(String keyIn, int keys, int requests) implements Expectation {
        @Override
        public boolean passive() {
            return false;
        }

        @Override
        public Check check(Figures f) {
            Map<String, String> poolOf = new java.util.HashMap<>();
            for (EngineState.BackendInfo b : f.state().backends()) {
                poolOf.put(b.id(), b.pool());
            }
            dev.fulcrum.demo.TrafficSettings.KeyPlacement place =
                    dev.fulcrum.demo.TrafficSettings.KeyPlacement.forStrategyKey(keyIn);
            Map<String, Integer> users = new java.util.TreeMap<>();
            int changed = 0;
            int unanswered = 0;
            String example = null;
            for (int k = 0; k < keys; k++) {
                String[] h = place.headerFor("k" + k);
                java.util.Set<String> pools = new java.util.TreeSet<>();
                for (String backend : f.picks(requests, "/", Map.of(h[0], h[1]))) {
                    String pool = poolOf.get(backend);
                    if (pool == null) {
                        unanswered++;
                    } else {
                        pools.add(pool);
                    }
                }
                if (pools.size() > 1) {
                    changed++;
                    example = example == null ? words("lesson.check.sticky.example", "k" + k,
                            String.join(" " + words("lesson.check.and") + " ", pools)) : example;
                } else if (pools.size() == 1) {
                    users.merge(pools.iterator().next(), 1, Integer::sum);
                }
            }
            StringBuilder line = new StringBuilder(words("lesson.check.sticky", keys, keyIn, requests) + " ");
            users.forEach((pool, n) -> line.append(words("lesson.check.sticky.in", n, pool)).append(", "));
            line.append(changed == 0 ? words("lesson.check.sticky.none_changed")
                    : words("lesson.check.sticky.changed", changed, example));
            if (unanswered > 0) {
                line.append(", ").append(words("lesson.check.sticky.unanswered", unanswered));
            }
            boolean shown = users.size() > 1;
            if (changed == 0 && !shown) {
                line.append(": ").append(words("lesson.check.sticky.not_shown"));
            }
            return Check.of(changed == 0 && unanswered == 0 && shown, line.toString());
        }
    }

    /** The longest run of one backend in {@code requests} requests sent one after the other. */
    record LongestRun(Bound bound, int requests) implements Expectation {
        @Override
        public boolean passive() {
            return false;
        }

        @Override
        public Check check(Figures f) {
            List<String> got = f.picks(requests, "/", Map.of());
            int best = 0;
            String who = "-";
            for (int i = 0, run = 0; i < got.size(); i++) {
                run = i > 0 && got.get(i).equals(got.get(i - 1)) ? run + 1 : 1;
                if (run > best) {
                    best = run;
                    who = got.get(i);
                }
            }
            return Check.of(bound.holds(best), bound.line(words("lesson.check.longest_run", requests, who), best));
        }
    }

    /**
     * The longest run of one backend when the side-by-side simulator plays {@code requests} requests through
     * {@code strategy} (or the textbook {@code naive-weighted-round-robin}, which is no engine strategy) over the
     * pool's backends and weights: real engine strategies on a simulated clock.
     */
    record SimulatedLongestRun(String strategy, Bound bound, int requests) implements Expectation {
        static final String NAIVE = "naive-weighted-round-robin";

        @Override
        public boolean passive() {
            return false;
        }

        @Override
        public Check check(Figures f) {
            List<SimBackend> backends = new ArrayList<>();
            for (EngineState.BackendInfo b : f.state().backends()) {
                if (f.pool().equals(b.pool())) {
                    backends.add(SimBackend.of(b.id(), b.weight(), 5));
                }
            }
            if (backends.isEmpty()) {
                return Check.of(false, words("lesson.check.simulated.empty", strategy));
            }
            boolean naive = strategy.equals(NAIVE);
            SideBySide.Settings s = new SideBySide.Settings(backends,
                    naive ? List.of() : List.of(StrategySpec.of(strategy)), naive, null, null, 1);
            StrategyResult r = SideBySide.run(s, SimTrace.generate(requests, 100, new KeyDistribution.Uniform(100), 0, 1))
                    .results().get(0);
            return Check.of(bound.holds(r.longestRun()), bound.line(words("lesson.check.simulated", strategy, requests,
                    r.longestRunBackend()), r.longestRun()));
        }
    }

    /**
     * The p99 latency of {@code strategy} over the p99 of {@code versus} when a shipped recording is compared side by
     * side (as {@code --compare}) on a config's simulated backends: the strategy tried on recorded traffic before it
     * meets a user. Example: {@code strategy} a score avoiding the slow backend, {@code versus} round robin, bound
     * below 0.5: the score's p99 must be under half of round robin's.
     *
     * @param recording a classpath resource (the shipped {@code samples/recordings/...}) or a file
     * @param on        a config whose default pool's backends are simulated, resource or file
     * @param logFormat an nginx recording's {@code log_format}, or null for {@code combined} (or a format told by
     *                  the content)
     */
    record RecordedP99(String strategy, String versus, String recording, String on, String logFormat, Bound bound)
            implements Expectation {
        @Override
        public boolean passive() {
            return false;
        }

        @Override
        public Check check(Figures f) {
            ComparisonResult r = RecordedComparisons.compare(recording, on, logFormat,
                    StrategyList.parse(strategy + "," + versus));
            StrategyFigures mine = r.strategies().get(0);
            StrategyFigures theirs = r.strategies().get(1);
            double ratio = theirs.p99Ms() > 0 ? mine.p99Ms() / theirs.p99Ms() : Double.POSITIVE_INFINITY;
            java.util.Locale root = java.util.Locale.ROOT;
            return Check.of(bound.holds(ratio), bound.line(words("lesson.check.recorded",
                    java.nio.file.Path.of(recording).getFileName(), String.format(root, "%,d", r.requests()),
                    mine.spec().type(), String.format(root, "%.1f", mine.p99Ms()), theirs.name(),
                    String.format(root, "%.1f", theirs.p99Ms())), ratio));
        }
    }

    /**
     * The fraction of keys {@code k0 .. k<keys-1>} whose backend changed between before the step's actions and now,
     * looked up on the ring. With {@code onlyTo} a moved key should have gone to that backend, with {@code onlyFrom}
     * come from it; the others are strays, whose fraction of all keys must stay within {@code strays} (none, unless
     * the lesson allows some: Maglev moves a few).
     */
    record MovedKeys(Bound bound, int keys, String onlyTo, String onlyFrom, Bound strays) implements Expectation {
        @Override
        public boolean passive() {
            return false;
        }

        @Override
        public int keysToRemember() {
            return keys;
        }

        @Override
        public Check check(Figures f) {
            Map<String, String> before = f.keysBefore(keys);
            Map<String, String> now = f.keysNow(keys);
            int moved = 0;
            int stray = 0;
            for (Map.Entry<String, String> e : before.entrySet()) {
                String after = now.get(e.getKey());
                if (!e.getValue().equals(after)) {
                    moved++;
                    if (onlyTo != null && !onlyTo.equals(after) || onlyFrom != null && !onlyFrom.equals(e.getValue())) {
                        stray++;
                    }
                }
            }
            int n = Math.max(1, before.size());
            double fraction = (double) moved / n;
            String line = bound.line(words("lesson.check.moved"), fraction);
            boolean ok = bound.holds(fraction);
            if (onlyTo != null || onlyFrom != null) {
                String who = onlyTo != null ? words("lesson.check.moved.to", onlyTo)
                        : words("lesson.check.moved.from", onlyFrom);
                double strayFraction = (double) stray / n;
                ok &= strays.holds(strayFraction);
                line += stray == 0 ? words("lesson.check.moved.all", who) : words("lesson.check.moved.strays", stray,
                        who, Bound.number(strayFraction), strays.text());
            }
            return Check.of(ok, line);
        }
    }

    /**
     * How unevenly the pool's ring or Maglev table spreads the key space: the largest share of any backend over its
     * fair share (its weight over the total), 1.0 when perfectly even.
     */
    record RingSpread(Bound bound) implements Expectation {
        @Override
        public boolean passive() {
            return false;
        }

        @Override
        public Check check(Figures f) {
            EngineClient.Ring ring = f.ring();
            if (ring == null || ring.share().isEmpty()) {
                return Check.of(false, words("lesson.check.ring.none"));
            }
            long total = 0;
            for (EngineState.BackendInfo b : f.state().backends()) {
                if (ring.share().containsKey(b.id())) {
                    total += b.weight();
                }
            }
            double worst = 0;
            for (Map.Entry<String, Double> e : ring.share().entrySet()) {
                EngineState.BackendInfo b = f.state().backend(e.getKey());
                double fair = b == null || total == 0 ? 1.0 / ring.share().size() : (double) b.weight() / total;
                worst = Math.max(worst, e.getValue() / fair);
            }
            return Check.of(bound.holds(worst), bound.line(words("lesson.check.ring.spread", ring.type()), worst));
        }
    }

    /** This step's answers by their {@code X-Fulcrum-Backend} header (of one class's, unless it is null). */
    private static Map<String, Long> byBackend(Figures f, String requestClass) {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (TrafficAnswer a : f.answers()) {
            if (a.answered() && (requestClass == null || requestClass.equals(a.requestClass()))) {
                out.merge(a.backend(), 1L, Long::sum);
            }
        }
        return out;
    }

    /** {@code answers to the lesson's traffic}, or {@code vip answers} for one class. */
    private static String answersOf(String requestClass) {
        return requestClass == null ? words("lesson.check.answers.lesson") : whose(requestClass);
    }

    /** {@code answers}, or {@code vip answers} for one class. */
    static String whose(String requestClass) {
        return requestClass == null ? words("lesson.check.answers") : words("lesson.check.answers.class",
                requestClass);
    }

    /** A check line and the counts it rests on in brackets after it: {@code ... in [0.09, 0.13] (112 of 1000 answers)}. */
    private static String counted(String line, String counts) {
        return words("lesson.check.counted", line, counts);
    }

    /** {@code (112 of 1000 answers)}, or {@code (12 of 100 vip answers)} for one class. */
    private static String outOf(long n, long total, String requestClass) {
        return requestClass == null ? words("lesson.check.out_of", n, total)
                : words("lesson.check.out_of.class", n, total, requestClass);
    }

    /** A breaker state as the window says it ({@code breaker.open}); the value itself as the engine writes it. */
    static String breaker(String state) {
        return Texts.word("breaker", state);
    }

    /** Breaker states one after the other: {@code HALF_OPEN → OPEN}. */
    static String breakers(List<String> states) {
        return String.join(" → ", states.stream().map(Expectation::breaker).toList());
    }

    private static String words(String key, Object... args) {
        return Check.words(key, args);
    }

    /** The ids of the backends of {@code pool} in {@code state}. */
    static java.util.Set<String> members(EngineState state, String pool) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (EngineState.BackendInfo b : state.backends()) {
            if (pool.equals(b.pool())) {
                out.add(b.id());
            }
        }
        return out;
    }

    private static long total(Map<String, Long> by) {
        long n = 0;
        for (Map.Entry<String, Long> e : by.entrySet()) {
            if (!e.getKey().equals("-")) {
                n += e.getValue();
            }
        }
        return n;
    }
}
