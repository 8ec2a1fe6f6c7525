package dev.fulcrum.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Routes a request path to a pool by the longest matching prefix (docs/REFERENCE.md §2.1 {@code routes}), on segment
 * boundaries: {@code /api} matches {@code /api}, {@code /api/users} and {@code /api?x=1}, not {@code /apix}.
 * Example: routes {@code /api} to pool api and {@code /api/admin} to pool admin send {@code /api/admin/x} to
 * admin, {@code /api/x} to api and {@code /other} to the default pool.
 */
public final class Router {
    public static final Router EMPTY = new Router(List.of());

    /** @param stripPrefix remove {@code pathPrefix} from the path before forwarding */
    public record Route(String pathPrefix, String pool, boolean stripPrefix) {
        /** True when {@code path} is this prefix or continues it at a segment boundary. */
        boolean matches(String path) {
            if (!path.startsWith(pathPrefix)) {
                return false;
            }
            return path.length() == pathPrefix.length() || pathPrefix.endsWith("/")
                    || path.charAt(pathPrefix.length()) == '/' || path.charAt(pathPrefix.length()) == '?';
        }
    }

    private final List<Route> longestFirst;

    public Router(List<Route> routes) {
        List<Route> sorted = new ArrayList<>(routes);
        sorted.sort(Comparator.comparingInt((Route r) -> r.pathPrefix().length()).reversed());
        this.longestFirst = List.copyOf(sorted);
    }

    public List<Route> routes() {
        return longestFirst;
    }

    /** The longest route matching the path, or null for the default pool (also for a null path). */
    public Route match(String path) {
        if (path == null) {
            return null;
        }
        for (Route r : longestFirst) {
            if (r.matches(path)) {
                return r;
            }
        }
        return null;
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
