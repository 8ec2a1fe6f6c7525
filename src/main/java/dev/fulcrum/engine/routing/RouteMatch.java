package dev.fulcrum.engine.routing;

import dev.fulcrum.engine.strategy.RequestContext;
import java.util.List;
import java.util.Set;

/**
 * What a route matches on (docs/REFERENCE.md §2.1 {@code routes[i].match}): a path prefix on segment boundaries, the
 * host (without its port, case-insensitive), the method, and conditions on headers (names case-insensitive), cookies
 * and query parameters. Every condition given must hold; one left out holds for any request. Immutable.
 *
 * <p>Example: {@code pathPrefix /api, headers {X-Canary: "1"}} matches {@code GET /api/cart} with {@code X-Canary: 1},
 * not without it, and not {@code /apix}.
 *
 * @param pathPrefix null for any path
 * @param host       null for any host
 * @param methods    upper case; empty for any method
 */
public record RouteMatch(String pathPrefix, ValueMatcher host, Set<String> methods, List<Named> headers,
                         List<Named> cookies, List<Named> query) {
    /** A condition on the value of one named header, cookie or query parameter. */
    public record Named(String name, ValueMatcher matcher) {
    }

    public RouteMatch {
        methods = methods == null ? Set.of() : Set.copyOf(methods);
        headers = headers == null ? List.of() : List.copyOf(headers);
        cookies = cookies == null ? List.of() : List.copyOf(cookies);
        query = query == null ? List.of() : List.copyOf(query);
    }

    /** Today's route: a path prefix alone. */
    public static RouteMatch prefix(String pathPrefix) {
        return new RouteMatch(pathPrefix, null, Set.of(), List.of(), List.of(), List.of());
    }

    /** True when the route matches on nothing but its path prefix (such routes keep the longest-prefix rule). */
    public boolean prefixOnly() {
        return host == null && methods.isEmpty() && headers.isEmpty() && cookies.isEmpty() && query.isEmpty();
    }

    /** True when {@code path} (decoded, slashes merged) is this prefix or continues it at a segment boundary. */
    public boolean matchesPath(String path) {
        if (pathPrefix == null) {
            return true;
        }
        if (path == null || !path.startsWith(pathPrefix)) {
            return false;
        }
        return path.length() == pathPrefix.length() || pathPrefix.endsWith("/")
                || path.charAt(pathPrefix.length()) == '/' || path.charAt(pathPrefix.length()) == '?';
    }

    /** True when every condition holds for {@code request}, whose routed path is {@code path}. */
    public boolean matches(RequestContext request, String path) {
        if (!matchesPath(path)) {
            return false;
        }
        if (!methods.isEmpty() && !methods.contains(request.method())) {
            return false;
        }
        if (host != null && !host.test(hostName(request.header("Host")))) {
            return false;
        }
        for (int i = 0; i < headers.size(); i++) {
            Named h = headers.get(i);
            if (!h.matcher().test(request.header(h.name()))) {
                return false;
            }
        }
        for (int i = 0; i < cookies.size(); i++) {
            Named c = cookies.get(i);
            if (!c.matcher().test(request.cookie(c.name()))) {
                return false;
            }
        }
        for (int i = 0; i < query.size(); i++) {
            Named q = query.get(i);
            if (!q.matcher().test(request.queryParam(q.name()))) {
                return false;
            }
        }
        return true;
    }

    /** The host of a Host header without its port ({@code [::1]:8080} is {@code [::1]}); null stays null. */
    static String hostName(String host) {
        if (host == null) {
            return null;
        }
        int colon = host.lastIndexOf(':');
        if (colon < 0 || host.indexOf(']', colon) >= 0) {
            return host;
        }
        return host.substring(0, colon);
    }
}
