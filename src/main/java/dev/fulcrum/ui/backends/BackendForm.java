package dev.fulcrum.ui.backends;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks the Add dialog's fields before anything is sent, with the admin API's wording (field, rule, value):
 * {@code weight: must be between 0 and 1000 (got: -3)}. The engine checks again; its answer (say, an id
 * taken meanwhile in another pool) is shown the same way. The form's own words come from the bundles; a rule of
 * {@link Limits} (the config's and the admin API's) stays as they write it, and each line starts with the field's
 * config name and an ASCII colon in every language, which the dialog reads to show a field's problem once it is typed.
 */
public final class BackendForm {
    private BackendForm() {
    }

    /** A valid form's values. */
    public record Values(String id, String url, int weight) {
    }

    /** @return every problem, one sentence each; empty when the form can be sent */
    public static List<String> problems(String id, String url, String weightText, Collection<String> existingIds) {
        List<String> out = new ArrayList<>();
        String i = id == null ? "" : id.trim();
        if (Limits.id(i) != null) {
            out.add(problem("id", Limits.ID_RULE, show(i)));
        } else if (existingIds.contains(i)) {
            out.add(problem("id", Texts.t("backends.form.exists"), i));
        }
        String u = url == null ? "" : url.trim();
        String urlProblem = u.isEmpty() ? Texts.t("backends.form.url.required") : Limits.url(u);
        if (urlProblem != null) {
            out.add(problem("url", urlProblem, show(u)));
        }
        String w = weightText == null ? "" : weightText.trim();
        try {
            int weight = Integer.parseInt(w);
            if (Limits.weight(weight) != null) {
                out.add(problem("weight", Limits.weight(weight), String.valueOf(weight)));
            }
        } catch (NumberFormatException e) {
            out.add(problem("weight", Texts.t("backends.form.weight.whole", String.valueOf(Limits.WEIGHT.min()),
                    String.valueOf(Limits.WEIGHT.max())), show(w)));
        }
        return out;
    }

    /**
     * Every problem of the form with its labels field too, written {@code zone=b, cost=0.2} (see {@link #labels}).
     */
    public static List<String> problems(String id, String url, String weightText, String labelsText,
                                        Collection<String> existingIds) {
        List<String> out = problems(id, url, weightText, existingIds);
        out.addAll(labelProblems(labelsText));
        return out;
    }

    /**
     * What is wrong with a labels field: an entry without {@code =} ({@code labels: write name=value, separated by
     * commas (got: zone)}), a name given twice, and what the config refuses, in its words
     * ({@code labels.Zone: must match [a-z][a-z0-9_]{0,31} (got: Zone)}).
     */
    public static List<String> labelProblems(String labelsText) {
        List<String> out = new ArrayList<>();
        Map<String, String> labels = new LinkedHashMap<>();
        for (String entry : entries(labelsText)) {
            int eq = entry.indexOf('=');
            if (eq < 0) {
                out.add(problem("labels", Texts.t("backends.form.labels.write"), entry));
                continue;
            }
            String name = entry.substring(0, eq).trim();
            if (labels.put(name, entry.substring(eq + 1).trim()) != null) {
                out.add(problem("labels." + name, Texts.t("backends.form.labels.twice"), name));
            }
        }
        for (Violation v : Limits.labels(labels)) {
            out.add(v.describe());
        }
        return out;
    }

    /**
     * The labels of a field {@link #labelProblems} found nothing wrong with: {@code zone=b, cost=0.2} is
     * {@code {cost=0.2, zone=b}}, each name and value trimmed; empty entries (a trailing comma) are skipped.
     */
    public static Map<String, String> labels(String labelsText) {
        Map<String, String> out = new TreeMap<>();
        for (String entry : entries(labelsText)) {
            int eq = entry.indexOf('=');
            out.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
        }
        return out;
    }

    private static List<String> entries(String labelsText) {
        List<String> out = new ArrayList<>();
        if (labelsText != null) {
            for (String e : labelsText.split(",")) {
                if (!e.isBlank()) {
                    out.add(e.trim());
                }
            }
        }
        return out;
    }

    /** The values of a form {@link #problems} found nothing wrong with. */
    public static Values values(String id, String url, String weightText) {
        return new Values(id.trim(), url.trim(), Integer.parseInt(weightText.trim()));
    }

    /** {@code field: rule (got: value)}, the field as the config names it. */
    private static String problem(String field, String rule, String got) {
        return Texts.t("backends.form.problem", field, rule, got);
    }

    private static String show(String s) {
        return s.isEmpty() ? Texts.t("backends.form.nothing") : s;
    }
}
