package dev.fulcrum.ui.backends;

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
 * taken meanwhile in another pool) is shown the same way.
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
            out.add("id: " + Limits.ID_RULE + " (got: " + show(i) + ")");
        } else if (existingIds.contains(i)) {
            out.add("id: already exists (got: " + i + ")");
        }
        String u = url == null ? "" : url.trim();
        String urlProblem = u.isEmpty() ? "required, e.g. http://127.0.0.1:9001" : Limits.url(u);
        if (urlProblem != null) {
            out.add("url: " + urlProblem + " (got: " + show(u) + ")");
        }
        String w = weightText == null ? "" : weightText.trim();
        try {
            int weight = Integer.parseInt(w);
            if (Limits.weight(weight) != null) {
                out.add("weight: " + Limits.weight(weight) + " (got: " + weight + ")");
            }
        } catch (NumberFormatException e) {
            out.add("weight: must be a whole number between " + Limits.WEIGHT.min() + " and " + Limits.WEIGHT.max()
                    + " (got: " + show(w) + ")");
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
                out.add("labels: write name=value, separated by commas (got: " + entry + ")");
                continue;
            }
            String name = entry.substring(0, eq).trim();
            if (labels.put(name, entry.substring(eq + 1).trim()) != null) {
                out.add("labels." + name + ": given twice (got: " + name + ")");
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

    private static String show(String s) {
        return s.isEmpty() ? "nothing" : s;
    }
}
