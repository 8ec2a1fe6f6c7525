package dev.fulcrum.ui.backends;

import dev.fulcrum.rules.Limits;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

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

    /** The values of a form {@link #problems} found nothing wrong with. */
    public static Values values(String id, String url, String weightText) {
        return new Values(id.trim(), url.trim(), Integer.parseInt(weightText.trim()));
    }

    private static String show(String s) {
        return s.isEmpty() ? "nothing" : s;
    }
}
