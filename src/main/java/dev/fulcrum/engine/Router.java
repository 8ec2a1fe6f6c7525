package dev.fulcrum.engine;

import dev.fulcrum.engine.routing.ArmStats;
import dev.fulcrum.engine.routing.CanaryGuard;
import dev.fulcrum.engine.routing.ClassCeiling;
import dev.fulcrum.engine.routing.Mirror;
import dev.fulcrum.engine.routing.RouteMatch;
import dev.fulcrum.engine.routing.RouteStrategy;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Routes a request to a pool (docs/REFERENCE.md §2.1 {@code routes}). Routes are tried in the order written and the
 * first that matches wins; when every route matches on its path prefix alone, the longest prefix wins instead, as it
 * always has. A path prefix matches on segment boundaries: {@code /api} matches {@code /api}, {@code /api/users} and
 * {@code /api?x=1}, not {@code /apix}. Example: routes {@code /api} to pool api and {@code /api/admin} to pool admin
 * send {@code /api/admin/x} to admin, {@code /api/x} to api and {@code /other} to the default pool.
 *
 * <p>Immutable, but for each route's live state ({@link Route}): a request reads the router once through the engine's
 * volatile field.
 */
public final class Router {
    public static final Router EMPTY = new Router(List.of());

    /**
     * One route: what it matches, where it sends (a pool, or a {@link Split} between pools), and what rides along (its
     * class, its own strategy, a class ceiling, a mirror, a canary guard). Equal routes are equal in their definition;
     * the live state (the split as changed by the admin API or the guard, each arm's figures, the mirror's counters,
     * the ceiling's counts) is carried over by {@link Engine#setRouter} to an equal route of the next router.
     */
    public static final class Route {
        private final RouteMatch match;
        private final String pool;
        private final boolean stripPrefix;
        private final String routeClass;
        private RouteStrategy strategy;
        private ClassCeiling ceiling;
        private final Split configuredSplit;
        private Mirror mirror;
        private CanaryGuard guard;
        private int index;
        /** The split now and each arm's figures, replaced together (control thread); null without a split. */
        private volatile Arms arms;

        /** The split now, and the figures of each of its arms, in arm order. */
        public record Arms(Split split, ArmStats[] stats) {
        }

        /** A route by path prefix alone. */
        public Route(String pathPrefix, String pool, boolean stripPrefix) {
            this(RouteMatch.prefix(pathPrefix), pool, stripPrefix, null, null, null, null, null, null);
        }

        /**
         * @param pool       the pool it sends to; null with a split
         * @param routeClass its traffic class ({@code "class"}), or null
         * @param strategy   its own strategy over its pool, or null for the pool's
         * @param ceiling    {@code maxInFlightPerBackend}, or null
         */
        public Route(RouteMatch match, String pool, boolean stripPrefix, String routeClass, StrategySpec strategy,
                     Integer ceiling, Split split, Mirror mirror, CanaryGuard guard) {
            this.match = Objects.requireNonNull(match, "match");
            this.pool = pool;
            this.stripPrefix = stripPrefix;
            this.routeClass = routeClass;
            this.strategy = strategy == null ? null : new RouteStrategy(strategy);
            this.ceiling = ceiling == null ? null : new ClassCeiling(ceiling);
            this.configuredSplit = split;
            this.mirror = mirror;
            this.guard = guard;
            this.arms = split == null ? null : new Arms(split, stats(split, null));
        }

        public RouteMatch match() {
            return match;
        }

        /** The path prefix it matches, or null for any path. */
        public String pathPrefix() {
            return match.pathPrefix();
        }

        /** The pool it sends to, or null when it splits. */
        public String pool() {
            return pool;
        }

        public boolean stripPrefix() {
            return stripPrefix;
        }

        /** Its traffic class, or null. */
        public String routeClass() {
            return routeClass;
        }

        /** Its own strategy over its pool, or null. */
        public RouteStrategy strategy() {
            return strategy;
        }

        /** Its class ceiling per backend, or null. */
        public ClassCeiling ceiling() {
            return ceiling;
        }

        /** The split as configured, or null. */
        public Split configuredSplit() {
            return configuredSplit;
        }

        /** The split now (the admin API's and the guard's changes applied), or null. */
        public Split split() {
            Arms a = arms;
            return a == null ? null : a.split();
        }

        /** The split now with each arm's figures, or null without a split. */
        public Arms arms() {
            return arms;
        }

        public Mirror mirror() {
            return mirror;
        }

        public CanaryGuard guard() {
            return guard;
        }

        /** Its place in {@code routes}, as written (what {@code /api/routes/{index}} names). */
        public int index() {
            return index;
        }

        /** The pools it may send to: its pool, or each arm's. */
        public List<String> pools() {
            Split s = split();
            if (s == null) {
                return List.of(pool);
            }
            List<String> out = new ArrayList<>();
            s.arms().forEach(a -> out.add(a.pool()));
            return out;
        }

        /** Sets the live split (control thread); the figures of an arm whose pool stays are kept. */
        void setSplit(Split next) {
            setSplit(next, -1);
        }

        /** {@link #setSplit(Split)} with arm {@code fresh}'s figures started afresh (-1: none). */
        void setSplit(Split next, int fresh) {
            ArmStats[] stats = stats(next, arms);
            if (fresh >= 0) {
                stats[fresh] = new ArmStats();
            }
            arms = new Arms(next, stats);
        }

        /** Rolls each arm's figures up (control thread, once a second). */
        void roll(long nowNanos) {
            Arms a = arms;
            if (a != null) {
                for (ArmStats s : a.stats()) {
                    s.roll(nowNanos);
                }
            }
        }

        /** Takes over the live state of {@code previous}, an equal route of the router before this one. */
        void adopt(Route previous) {
            arms = previous.arms;
            strategy = previous.strategy;
            ceiling = previous.ceiling;
            mirror = previous.mirror;
            guard = previous.guard;
        }

        private static ArmStats[] stats(Split split, Arms before) {
            ArmStats[] out = new ArmStats[split.arms().size()];
            for (int i = 0; i < out.length; i++) {
                int was = before == null ? -1 : before.split().indexOf(split.arms().get(i).pool());
                out[i] = was >= 0 ? before.stats()[was] : new ArmStats();
            }
            return out;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Route r && r.match.equals(match) && Objects.equals(r.pool, pool)
                    && r.stripPrefix == stripPrefix && Objects.equals(r.routeClass, routeClass)
                    && Objects.equals(spec(r.strategy), spec(strategy))
                    && Objects.equals(max(r.ceiling), max(ceiling)) && Objects.equals(r.configuredSplit, configuredSplit)
                    && mirrorEquals(r.mirror, mirror) && guardEquals(r.guard, guard);
        }

        @Override
        public int hashCode() {
            return Objects.hash(match, pool, stripPrefix, routeClass, configuredSplit);
        }

        private static StrategySpec spec(RouteStrategy s) {
            return s == null ? null : s.spec();
        }

        private static Integer max(ClassCeiling c) {
            return c == null ? null : c.max();
        }

        private static boolean mirrorEquals(Mirror a, Mirror b) {
            return a == null ? b == null : b != null && a.pool().equals(b.pool()) && a.percent() == b.percent()
                    && a.maxBodyBytes() == b.maxBodyBytes();
        }

        private static boolean guardEquals(CanaryGuard a, CanaryGuard b) {
            return a == null ? b == null : b != null && a.arm().equals(b.arm())
                    && Objects.equals(a.errorRateAbove(), b.errorRateAbove())
                    && Objects.equals(a.p99AboveBaselineBy(), b.p99AboveBaselineBy())
                    && a.minRequests() == b.minRequests() && a.forMs() == b.forMs();
        }

        @Override
        public String toString() {
            return "routes[" + index + "] " + (match.pathPrefix() == null ? "*" : match.pathPrefix()) + " -> "
                    + (pool != null ? pool : split().describe());
        }
    }

    /** The routes as written. */
    private final List<Route> written;
    /** The order they are tried in. */
    private final List<Route> tried;

    public Router(List<Route> routes) {
        this.written = List.copyOf(routes);
        for (int i = 0; i < written.size(); i++) {
            written.get(i).index = i;
        }
        if (written.stream().allMatch(r -> r.match().prefixOnly() && r.pathPrefix() != null)) {
            List<Route> sorted = new ArrayList<>(written);
            sorted.sort(Comparator.comparingInt((Route r) -> r.pathPrefix().length()).reversed());
            this.tried = List.copyOf(sorted);
        } else {
            this.tried = written;
        }
    }

    /** The routes in the order they are tried. */
    public List<Route> routes() {
        return tried;
    }

    /** The routes as written ({@code routes[i]} is {@code written().get(i)}). */
    public List<Route> written() {
        return written;
    }

    /** The route at {@code index} as written, or null. */
    public Route route(int index) {
        return index >= 0 && index < written.size() ? written.get(index) : null;
    }

    /**
     * The first route matching the path alone, or null for the default pool (also for a null path). Routes that
     * match on more than the path are passed by: they need the request ({@link #match(RequestContext, String)}).
     */
    public Route match(String path) {
        if (path == null) {
            return null;
        }
        for (Route r : tried) {
            if (r.match().prefixOnly() && r.match().matchesPath(path)) {
                return r;
            }
        }
        return null;
    }

    /** The route {@code request} takes, its routed path {@code path}, or null for the default pool. */
    public Route match(RequestContext request, String path) {
        for (int i = 0; i < tried.size(); i++) {
            Route r = tried.get(i);
            if (r.match().matches(request, path)) {
                return r;
            }
        }
        return null;
    }

    /** Carries the live state of each route of {@code previous} over to its equal route here. */
    void adopt(Router previous) {
        List<Route> left = new ArrayList<>(previous.written);
        for (Route r : written) {
            for (int i = 0; i < left.size(); i++) {
                if (left.get(i).equals(r)) {
                    r.adopt(left.remove(i));
                    break;
                }
            }
        }
    }

    /**
     * The path with each run of slashes made one, as nginx's {@code merge_slashes} does before it matches locations:
     * routed as written, {@code //api/x} would pass the {@code /api} rule by and go to the default pool.
     */
    public static String mergeSlashes(String path) {
        if (path.indexOf("//") < 0) {
            return path;
        }
        StringBuilder b = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c != '/' || i == 0 || path.charAt(i - 1) != '/') {
                b.append(c);
            }
        }
        return b.toString();
    }
}
