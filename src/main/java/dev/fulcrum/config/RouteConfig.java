package dev.fulcrum.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.CanaryGuard;
import dev.fulcrum.engine.routing.Mirror;
import dev.fulcrum.engine.routing.RouteMatch;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.engine.routing.StickyKey;
import dev.fulcrum.engine.strategy.StrategySpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A route ({@code routes[i]}, docs/REFERENCE.md §2.1): requests it matches go to {@code pool}, or are split between
 * pools. It matches by {@code pathPrefix} (today's field) or by {@code match} (path prefix, host, method, headers,
 * cookies, query); routes are tried in order, the first that matches wins, and when every route gives a path prefix
 * alone the longest prefix wins. The fields after {@code stripPrefix} are left out of a saved file when unset.
 *
 * @param pool                  a name in {@code pools}, or {@code default}; without a split, required
 * @param stripPrefix           remove the prefix before forwarding
 * @param match                 what else the request must carry, or null
 * @param routeClass            {@code "class"}: the route's traffic class, or null
 * @param strategy              the route's own strategy over its pool, or null for the pool's
 * @param maxInFlightPerBackend the class's ceiling on each backend, or null
 * @param split                 weighted arms (each a pool), or null
 * @param stickyBy              what keeps a user in one arm: {@code cookie:NAME}, {@code header:NAME}, {@code ip},
 *                              {@code none} (null: none)
 * @param mirror                a copy of a share of the requests to another pool, or null
 * @param guard                 rolls the canary arm back when it does worse than the first, or null
 */
public record RouteConfig(String pathPrefix, String pool, boolean stripPrefix,
                          @JsonInclude(JsonInclude.Include.NON_NULL) RouteMatchConfig match,
                          @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("class") String routeClass,
                          @JsonInclude(JsonInclude.Include.NON_NULL) StrategySpec strategy,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Integer maxInFlightPerBackend,
                          @JsonInclude(JsonInclude.Include.NON_NULL) List<SplitArmConfig> split,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String stickyBy,
                          @JsonInclude(JsonInclude.Include.NON_NULL) MirrorConfig mirror,
                          @JsonInclude(JsonInclude.Include.NON_NULL) GuardConfig guard) {
    public static final RouteConfig DEFAULTS = new RouteConfig(null, null, false);

    /** Today's route: a path prefix to a pool. */
    public RouteConfig(String pathPrefix, String pool, boolean stripPrefix) {
        this(pathPrefix, pool, stripPrefix, null, null, null, null, null, null, null, null);
    }

    /** The path prefix it matches: {@code pathPrefix}, else {@code match.pathPrefix}, else null (any path). */
    public String prefix() {
        return pathPrefix != null ? pathPrefix : match == null ? null : match.pathPrefix();
    }

    /** The engine's route; call only on a config that passed validation. */
    public Router.Route toRoute() {
        RouteMatch m = match == null ? RouteMatch.prefix(pathPrefix) : match.toMatch(prefix());
        Split s = null;
        if (split != null) {
            List<Split.Arm> arms = new ArrayList<>();
            split.forEach(a -> arms.add(new Split.Arm(a.pool(), a.weight())));
            s = new Split(arms, StickyKey.parse(stickyBy));
        }
        Mirror mir = mirror == null ? null : new Mirror(mirror.pool(), mirror.percent(), mirror.maxBodyBytes());
        CanaryGuard g = guard == null ? null : new CanaryGuard(guard.arm(), guard.errorRateAbove(),
                guard.p99AboveBaselineBy(), guard.minRequests(), guard.forMs());
        return new Router.Route(m, pool, stripPrefix, routeClass, strategy == null ? null : strategy.withDefaults(),
                maxInFlightPerBackend, s, mir, g);
    }
}
