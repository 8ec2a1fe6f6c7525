package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineState.RouteInfo;
import dev.fulcrum.i18n.Texts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a route reads in the window: its match as the operator wrote it, e.g. {@code /api · X-Canary: 1 · GET}, and
 * a short name, {@code route 0 (/api · X-Canary: 1)}. A match value is a bare string (exact) or one of
 * {@code exact | prefix | regex | present | absent} (docs/REFERENCE.md §2.1): {@code X-Canary: 1},
 * {@code X-Canary: 1…} (prefix), {@code X-Canary ~ ^1$}, {@code X-Canary present}, {@code X-Canary absent}.
 */
public final class RouteText {
    private RouteText() {
    }

    /** The route's match in words; "every request" when it has none. */
    public static String match(RouteInfo r) {
        List<String> parts = new ArrayList<>();
        Map<String, Object> m = r.match() == null ? Map.of() : r.match();
        Object prefix = r.pathPrefix() != null ? r.pathPrefix() : m.get("pathPrefix");
        if (prefix != null) {
            parts.add(prefix.toString());
        }
        if (m.get("method") != null) {
            parts.add(value("method", m.get("method")));
        }
        if (m.get("host") != null) {
            parts.add(value("host", m.get("host")));
        }
        named(parts, m.get("headers"), "");
        named(parts, m.get("cookies"), "cookie ");
        named(parts, m.get("query"), "?");
        return parts.isEmpty() ? Texts.t("routes.match.every") : String.join(" · ", parts);
    }

    /** {@code route 0 (/api · X-Canary: 1)}, with its class when it has one. */
    public static String name(RouteInfo r) {
        String index = Integer.toString(r.index());
        return r.routeClass() == null ? Texts.t("routes.name", index, match(r))
                : Texts.t("routes.name.class", index, match(r), r.routeClass());
    }

    private static void named(List<String> parts, Object map, String before) {
        if (map instanceof Map<?, ?> fields) {
            fields.forEach((k, v) -> parts.add(value(before + k, v)));
        }
    }

    /** One field's condition: a bare string is exact. */
    static String value(String name, Object v) {
        if (v instanceof Map<?, ?> mv) {
            if (mv.get("exact") != null) {
                return name + ": " + mv.get("exact");
            }
            if (mv.get("prefix") != null) {
                return name + ": " + mv.get("prefix") + "\u2026";
            }
            if (mv.get("regex") != null) {
                return name + " ~ " + mv.get("regex");
            }
            if (Boolean.TRUE.equals(mv.get("present"))) {
                return Texts.t("routes.match.present", name);
            }
            if (Boolean.TRUE.equals(mv.get("absent"))) {
                return Texts.t("routes.match.absent", name);
            }
            return name + " " + mv;
        }
        if (v instanceof List<?> list) {
            return String.join("|", list.stream().map(String::valueOf).toList());
        }
        return name + ": " + v;
    }
}
