package dev.fulcrum.ui.routes;

import dev.fulcrum.admin.EngineState.ArmInfo;
import dev.fulcrum.admin.EngineState.GuardInfo;
import dev.fulcrum.admin.EngineState.MirrorInfo;
import dev.fulcrum.admin.EngineState.RouteInfo;
import dev.fulcrum.engine.routing.Split;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.RouteText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a route's split panel says, as plain Java from one sample of the route ({@link RouteInfo}): each arm's figures
 * over the last minute side by side, the canary (the last arm) against the baseline (the first), whether there are
 * enough requests to judge, the guard's state, and the mirror's counts. The controller sets labels from these strings;
 * a test reads the same.
 *
 * <p>Example: stable 90% with 900 requests, 0.5% errors, p99 40 ms; canary 10% with 95 requests, 3.2% errors, p99
 * 55 ms; a guard with minRequests 100: {@link #difference()} reads
 * {@code canary − stable: errors +2.7 points · p50 +2 ms · p99 +15 ms} and {@link #judgement()} reads
 * {@code too few requests to judge: canary has 95 of the 100 the guard needs}.
 */
public final class SplitPanelModel {
    /** The smallest sample judged without a guard (a guard says its own {@code minRequests}). */
    public static final int DEFAULT_MIN_REQUESTS = 100;

    /** One arm's column: every figure already in words. */
    public record Column(String pool, String role, String share, String rate, String errorRate, String p50, String p99,
                         String requests) {
    }

    private final RouteInfo route;

    public SplitPanelModel(RouteInfo route) {
        this.route = route;
    }

    public RouteInfo route() {
        return route;
    }

    public boolean hasSplit() {
        return route.split() != null && route.split().size() >= 2;
    }

    /** {@code route 0 · X-Canary: 1 · class vip}. */
    public String title() {
        String index = Integer.toString(route.index());
        return route.routeClass() == null ? Texts.t("routes.title", index, RouteText.match(route))
                : Texts.t("routes.title.class", index, RouteText.match(route), route.routeClass());
    }

    /** Each arm, in order (baseline first, canary last). */
    public List<Column> columns() {
        List<Column> out = new ArrayList<>();
        if (route.split() == null) {
            return out;
        }
        int n = route.split().size();
        for (int i = 0; i < n; i++) {
            ArmInfo a = route.split().get(i);
            String role = i == 0 ? Texts.t("routes.role.baseline") : i == n - 1 ? Texts.t("routes.role.canary")
                    : Texts.t("routes.role.arm", Integer.toString(i + 1));
            out.add(new Column(a.pool(), role,
                    Texts.t("routes.share", pct(a.share()), Integer.toString(a.weight()), pct(a.measuredShare())),
                    Texts.t("routes.rate", String.format(Locale.ROOT, "%.1f", a.rps())),
                    String.format(Locale.ROOT, "%.1f%%", a.errorRate() * 100),
                    ms(a.p50Ms()), ms(a.p99Ms()),
                    Texts.t("routes.requests", count(a.requests()), count(a.errors()))));
        }
        return out;
    }

    public ArmInfo baseline() {
        return hasSplit() ? route.split().get(0) : null;
    }

    public ArmInfo canary() {
        return hasSplit() ? route.split().get(route.split().size() - 1) : null;
    }

    /** The smallest sample each arm needs before the comparison means anything: the guard's, or 100. */
    public int minRequests() {
        GuardInfo g = route.guard();
        return g != null && g.minRequests() > 0 ? g.minRequests() : DEFAULT_MIN_REQUESTS;
    }

    /** Whether either arm has fewer requests over the last minute than {@link #minRequests()}. */
    public boolean tooFew() {
        return hasSplit() && (baseline().requests() < minRequests() || canary().requests() < minRequests());
    }

    /** Canary minus baseline: error rate in points, p50 and p99 in ms (not the rate: the shares set that). */
    public String difference() {
        if (!hasSplit()) {
            return "";
        }
        ArmInfo b = baseline();
        ArmInfo c = canary();
        return Texts.t("routes.difference", c.pool(), b.pool(),
                String.format(Locale.ROOT, "%+.1f", (c.errorRate() - b.errorRate()) * 100),
                String.format(Locale.ROOT, "%+.0f", c.p50Ms() - b.p50Ms()),
                String.format(Locale.ROOT, "%+.0f", c.p99Ms() - b.p99Ms()));
    }

    /** Whether the samples are big enough, in words naming both sizes. */
    public String judgement() {
        if (!hasSplit()) {
            return "";
        }
        ArmInfo b = baseline();
        ArmInfo c = canary();
        String min = Integer.toString(minRequests());
        String need = route.guard() != null ? Texts.t("routes.need.guard", min)
                : Texts.t("routes.need.comparison", min);
        if (tooFew()) {
            List<String> short_ = new ArrayList<>();
            for (ArmInfo a : List.of(b, c)) {
                if (a.requests() < minRequests()) {
                    short_.add(Texts.t("routes.has", a.pool(), count(a.requests())));
                }
            }
            return Texts.t("routes.too_few", String.join(", ", short_), need);
        }
        return Texts.t("routes.samples", b.pool(), count(b.requests()), c.pool(), count(c.requests()), min);
    }

    /** The guard's state in a word or two: watching, too few, breaching, rolled back, idle; "no guard". */
    public String guardState() {
        GuardInfo g = route.guard();
        if (g == null) {
            return Texts.t("routes.guard.none");
        }
        return switch (g.state() == null ? "" : g.state()) {
            case "watching" -> Texts.t("routes.guard.watching");
            case "too-few" -> Texts.t("routes.guard.too_few");
            case "breaching" -> Texts.t("routes.guard.breaching");
            case "rolled-back" -> Texts.t("routes.guard.rolled_back");
            case "idle" -> Texts.t("routes.guard.idle");
            case "" -> Texts.t("routes.guard.not_judged");
            default -> g.state();
        };
    }

    /** The style class of the guard's state, for its colour: {@code guard-watching}, {@code guard-breaching}... */
    public String guardStyle() {
        GuardInfo g = route.guard();
        return "guard-" + (g == null || g.state() == null ? "none" : g.state());
    }

    /** The guard's bounds and reason: {@code errors ≤ baseline + 2 points, p99 ≤ baseline × 1.5, held 10 s}. */
    public String guardDetail() {
        GuardInfo g = route.guard();
        if (g == null) {
            return Texts.t("routes.guard.detail.none");
        }
        List<String> bounds = new ArrayList<>();
        if (g.errorRateAbove() != null) {
            bounds.add(Texts.t("routes.guard.errors_above",
                    String.format(Locale.ROOT, "%.1f", g.errorRateAbove() * 100)));
        }
        if (g.p99AboveBaselineBy() != null) {
            bounds.add(Texts.t("routes.guard.p99_above",
                    String.format(Locale.ROOT, "%.2f", 1 + g.p99AboveBaselineBy())));
        }
        // the engine's reason stays as the engine words it; the window's sentence around it is translated, and
        // too few requests, which the panel's own judgement line says in the window's language, is not said twice
        String watch = Texts.t("routes.guard.rolls", g.arm() == null ? Texts.t("routes.guard.the_canary") : g.arm(),
                bounds.isEmpty() ? Texts.t("routes.guard.no_bound") : String.join(Texts.t("routes.guard.or"), bounds),
                String.format(Locale.ROOT, "%.0f", g.forMs() / 1000.0), Integer.toString(g.minRequests()));
        return g.reason() == null || g.reason().isBlank() || "too-few".equals(g.state()) ? watch
                : g.reason() + " · " + watch;
    }

    /** {@code mirror 10% to shadow: 1,234 sent · 3 errors · 0 too large}, or null without a mirror. */
    public String mirrorText() {
        MirrorInfo m = route.mirror();
        if (m == null) {
            return null;
        }
        return Texts.t("routes.mirror", pct(m.percent() / 100), m.pool(), count(m.sent()), count(m.errors()),
                count(m.failed()), count(m.tooLarge()), count(m.maxBodyBytes()), count(m.dropped()));
    }

    /** The canary's share now, 0-100, rounded. */
    public int canaryPercent() {
        return hasSplit() ? (int) Math.round(canary().share() * 100) : 0;
    }

    /**
     * The split with the canary (the last arm) at {@code percent} of 100 and the other arms sharing the rest in
     * proportion to their weights now (evenly when they are all 0); the first arm takes what rounding leaves.
     * Example: stable 90, canary 10, percent 25: stable 75, canary 25.
     */
    public static List<Split.Arm> withCanary(List<ArmInfo> arms, int percent) {
        int p = Math.max(0, Math.min(100, percent));
        int n = arms.size();
        int rest = 100 - p;
        long othersTotal = 0;
        for (int i = 0; i < n - 1; i++) {
            othersTotal += arms.get(i).weight();
        }
        int[] w = new int[n];
        int given = 0;
        for (int i = 1; i < n - 1; i++) {
            w[i] = othersTotal == 0 ? rest / (n - 1) : (int) Math.floor(rest * (double) arms.get(i).weight() / othersTotal);
            given += w[i];
        }
        w[0] = rest - given;
        w[n - 1] = p;
        List<Split.Arm> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Split.Arm(arms.get(i).pool(), w[i]));
        }
        return out;
    }

    /** The arms as they are now, for undo. */
    public static List<Split.Arm> now(List<ArmInfo> arms) {
        return arms.stream().map(a -> new Split.Arm(a.pool(), a.weight())).toList();
    }

    static String pct(double share) {
        double p = share * 100;
        return p == Math.rint(p) || p >= 10 ? String.format(Locale.ROOT, "%.0f%%", p)
                : String.format(Locale.ROOT, "%.1f%%", p);
    }

    /** A count grouped as the window's language groups thousands: 1,234 in English, 1 234 in Polish. */
    static String count(long n) {
        return String.format(Texts.locale(), "%,d", n);
    }

    static String ms(double v) {
        return v < 10 ? String.format(Locale.ROOT, "%.1f ms", v) : String.format(Locale.ROOT, "%.0f ms", v);
    }
}
