package dev.fulcrum.config;

import dev.fulcrum.engine.Router;

/**
 * A route ({@code routes[i]}, docs/REFERENCE.md §2.1): requests whose path starts with {@code pathPrefix} go to {@code pool}
 * (longest prefix wins). Both are required.
 *
 * @param pool        a name in {@code pools}, or {@code default}
 * @param stripPrefix remove the prefix before forwarding
 */
public record RouteConfig(String pathPrefix, String pool, boolean stripPrefix) {
    public static final RouteConfig DEFAULTS = new RouteConfig(null, null, false);

    public Router.Route toRoute() {
        return new Router.Route(pathPrefix, pool, stripPrefix);
    }
}
