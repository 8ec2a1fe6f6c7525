package dev.fulcrum.ui.fleet;

import dev.fulcrum.admin.fleet.FleetInstance;
import dev.fulcrum.admin.fleet.FleetSource;
import dev.fulcrum.i18n.Texts;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * What the window's config banner says about a config kept in etcd, in the window's language (the problems stay as
 * etcd and the config checker word them), or null when there is nothing to say. Two things are said: etcd does not
 * answer (since when, and why), and the latest config was refused (which revision, why, and by which instances). Both
 * end the same way: the proxies keep serving on their last good config.
 *
 * <p>Example: {@code unreachable(…, 1764950400000, "connection refused")} reads "etcd does not answer since 16:00:00
 * (connection refused). The proxies keep serving on their last good config."
 */
public final class ConfigSourceText {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private ConfigSourceText() {
    }

    /** The banner of a fleet: its etcd, the config's problems, and the instances that refuse it. */
    public static String fleet(FleetSource source, List<String> problems, List<FleetInstance> instances) {
        List<String> parts = new ArrayList<>();
        if (!source.reachable()) {
            parts.add(unreachable(source.since(), source.problem()));
        }
        List<String> refusing = instances.stream().filter(i -> i.up() && i.refused()).map(FleetInstance::id).toList();
        if (!problems.isEmpty()) {
            parts.add(refused(source.revision(), problems));
        } else if (!refusing.isEmpty()) {
            parts.add(Texts.t("fleet.banner.refusedby", String.join(", ", refusing)));
        }
        return parts.isEmpty() ? null : String.join(" ", parts) + " " + Texts.t("fleet.banner.serving");
    }

    /** {@link #instance(String, long, Long, List)} of a state's {@code configSource}; null (a config file): nothing. */
    public static String instance(dev.fulcrum.admin.EngineState.ConfigSourceInfo source) {
        if (source == null) {
            return null;
        }
        return instance(source.state(), source.since(),
                source.rejected() == null ? null : source.rejected().revision(),
                source.rejected() == null ? List.of() : source.rejected().problems());
    }

    /**
     * The banner of one instance whose config comes from etcd ({@code configSource} of {@code GET /api/state}):
     * {@code state} {@code ok} or {@code unreachable} since {@code since}, and the revision it refused (null: none).
     */
    public static String instance(String state, long since, Long refusedRevision, List<String> problems) {
        List<String> parts = new ArrayList<>();
        if ("unreachable".equals(state)) {
            parts.add(unreachable(since, null));
        }
        if (refusedRevision != null) {
            parts.add(refused(refusedRevision, problems == null ? List.of() : problems));
        }
        return parts.isEmpty() ? null : String.join(" ", parts) + " " + Texts.t("fleet.banner.serving");
    }

    private static String unreachable(long since, String problem) {
        String at = CLOCK.format(Instant.ofEpochMilli(since));
        return problem == null || problem.isBlank() ? Texts.t("fleet.banner.unreachable", at)
                : Texts.t("fleet.banner.unreachable.why", at, problem);
    }

    private static String refused(long revision, List<String> problems) {
        return Texts.t("fleet.banner.refused", Long.toString(revision), String.join("; ", problems));
    }
}
