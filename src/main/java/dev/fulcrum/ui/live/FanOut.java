package dev.fulcrum.ui.live;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.ArmInfo;
import dev.fulcrum.admin.EngineState.RouteInfo;
import dev.fulcrum.i18n.Texts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Live stage's shape when routes split or mirror (docs/REFERENCE.md §2.1 {@code routes}): the proxy fans out to
 * one group of cards per pool (each split arm's pool, each mirror pool, each plain route's pool, and the pool selected
 * in the toolbar when it has backends and no
 * route names it), each group labelled with its pool and the routes that send to it, and one edge from the proxy to
 * a group per arm or mirror, labelled with the configured share, the measured share and the rate. Plain Java from one
 * sample of the engine; {@link #of} answers null when no route splits or mirrors, and the stage is drawn as it always
 * was.
 *
 * <p>Example: route 0 on {@code X-Canary: 1} splitting stable 90 / canary 10 and mirroring to shadow: groups
 * {@code stable · route 0 (X-Canary: 1)}, {@code canary · route 0 (X-Canary: 1)}, {@code shadow · mirror of route 0};
 * edges {@code 90% set · 88% measured} / {@code 12.3 req/s} to stable and {@code mirror 100%} / {@code 1,234 copies}
 * to shadow.
 */
public final class FanOut {
    /** A pool's group of cards: its backends in the engine's order; {@code mirror} when only copies go to it. */
    public record Group(String pool, String label, List<String> backends, boolean mirror) {
    }

    /** An edge from the proxy to a pool's group, in two short lines. */
    public record Edge(String pool, String line1, String line2, boolean mirror) {
    }

    private final List<Group> groups;
    private final List<Edge> edges;

    FanOut(List<Group> groups, List<Edge> edges) {
        this.groups = List.copyOf(groups);
        this.edges = List.copyOf(edges);
    }

    public List<Group> groups() {
        return groups;
    }

    public List<Edge> edges() {
        return edges;
    }

    /** Every backend on the stage, group after group. */
    public List<String> backends() {
        List<String> out = new ArrayList<>();
        groups.forEach(g -> out.addAll(g.backends()));
        return out;
    }

    /** The group of {@code pool}, or null. */
    public Group group(String pool) {
        return groups.stream().filter(g -> g.pool().equals(pool)).findFirst().orElse(null);
    }

    /** The fan-out of {@code s}, or null when no route splits or mirrors (the stage shows {@code selected} alone). */
    public static FanOut of(EngineState s, String selected) {
        if (s == null || s.routes() == null) {
            return null;
        }
        Map<String, List<String>> routesOf = new LinkedHashMap<>();
        Map<String, Boolean> onlyMirror = new LinkedHashMap<>();
        List<Edge> edges = new ArrayList<>();
        if (s.routes().stream().noneMatch(r -> r.split() != null && !r.split().isEmpty() || r.mirror() != null)) {
            return null;
        }
        // once one route fans out, every route's pool has its group: a request of a plain route must land somewhere
        for (RouteInfo r : s.routes()) {
            boolean split = r.split() != null && !r.split().isEmpty();
            String name = Texts.t("live.fan.route", Integer.toString(r.index())) + shortMatch(r);
            if (split) {
                for (ArmInfo a : r.split()) {
                    routesOf.computeIfAbsent(a.pool(), p -> new ArrayList<>()).add(name);
                    onlyMirror.put(a.pool(), false);
                    edges.add(new Edge(a.pool(), Texts.t("live.fan.share", pct(a.share()), pct(a.measuredShare())),
                            Texts.t("live.rate", String.format(Locale.ROOT, "%.1f", a.rps())), false));
                }
            } else if (r.pool() != null) {
                routesOf.computeIfAbsent(r.pool(), p -> new ArrayList<>()).add(name);
                onlyMirror.put(r.pool(), false);
                edges.add(new Edge(r.pool(), name, "", false));
            }
            if (r.mirror() != null) {
                String pool = r.mirror().pool();
                routesOf.computeIfAbsent(pool, p -> new ArrayList<>())
                        .add(Texts.t("live.fan.mirrorof", Integer.toString(r.index())));
                onlyMirror.putIfAbsent(pool, true);
                edges.add(new Edge(pool, Texts.t("live.fan.mirror", pct(r.mirror().percent() / 100)),
                        Texts.t("live.fan.copies", String.format(Locale.ROOT, "%,d", r.mirror().sent())), true));
            }
        }
        if (routesOf.isEmpty()) {
            return null;
        }
        boolean selectedHasBackends = s.backends().stream().anyMatch(b -> b.pool().equals(selected));
        if (selected != null && !routesOf.containsKey(selected) && s.pools().containsKey(selected)
                && selectedHasBackends) {
            routesOf.put(selected, List.of(Texts.t("live.fan.others")));
            onlyMirror.put(selected, false);
        }
        List<Group> groups = new ArrayList<>();
        routesOf.forEach((pool, names) -> {
            List<String> ids = s.backends().stream().filter(b -> pool.equals(b.pool()))
                    .map(EngineState.BackendInfo::id).toList();
            groups.add(new Group(pool, pool + " · " + String.join(", ", names), ids, onlyMirror.get(pool)));
        });
        return new FanOut(groups, edges);
    }

    /** A route's match in a few characters for a group's label: {@code (X-Canary: 1)}, {@code (/api)}. */
    private static String shortMatch(RouteInfo r) {
        if (matchesEverything(r)) {
            return "";
        }
        String m = dev.fulcrum.ui.RouteText.match(r);
        return " (" + (m.length() > 28 ? m.substring(0, 27) + "\u2026" : m) + ")";
    }

    /** Whether a route has no condition (RouteText calls its match "every request"): the fields RouteText reads. */
    private static boolean matchesEverything(RouteInfo r) {
        Map<String, Object> m = r.match() == null ? Map.of() : r.match();
        return r.pathPrefix() == null && java.util.stream.Stream.of("pathPrefix", "method", "host", "headers",
                "cookies", "query").allMatch(k -> m.get(k) == null
                        || m.get(k) instanceof Map<?, ?> fields && fields.isEmpty());
    }

    static String pct(double share) {
        return String.format(Locale.ROOT, "%.0f%%", share * 100);
    }
}
