package dev.fulcrum.ui.ring;

import dev.fulcrum.i18n.Texts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * How evenly a ring or table shares the key space out: each backend's share against its fair share (its weight over
 * the total weight), and the ratio of the most to the least favoured backend, share over fair share (1 when every
 * backend has exactly its fair share). Example: weights 1, 1, 2 owning 30%, 20% and 50% have fair shares 25%, 25% and
 * 50%, so 1.2, 0.8 and 1.0 of their due: max/min = 1.2 / 0.8 = 1.5.
 */
public record Spread(List<Row> rows, double maxOverMin) {
    /** One backend: the fraction of the key space it owns, and the fraction its weight entitles it to. */
    public record Row(String backend, double share, double fair) {
        /** Share over fair share: 1 is exactly its due. */
        public double ratio() {
            return fair == 0 ? 0 : share / fair;
        }
    }

    public Spread {
        rows = List.copyOf(rows);
    }

    /**
     * @param share   each backend's fraction of the key space (a ring's or table's own shares), in the order shown
     * @param weights each backend's weight; a backend missing here counts with weight 1
     */
    public static Spread of(Map<String, Double> share, Map<String, ? extends Number> weights) {
        double total = 0;
        for (String id : share.keySet()) {
            total += weight(weights, id);
        }
        List<Row> rows = new ArrayList<>();
        double max = 0;
        double min = Double.POSITIVE_INFINITY;
        for (Map.Entry<String, Double> e : share.entrySet()) {
            double fair = total == 0 ? 0 : weight(weights, e.getKey()) / total;
            Row r = new Row(e.getKey(), e.getValue(), fair);
            rows.add(r);
            max = Math.max(max, r.ratio());
            min = Math.min(min, r.ratio());
        }
        double ratio = rows.isEmpty() ? 1 : min == 0 ? Double.POSITIVE_INFINITY : max / min;
        return new Spread(Collections.unmodifiableList(rows), ratio);
    }

    private static double weight(Map<String, ? extends Number> weights, String id) {
        Number w = weights.get(id);
        return w == null ? 1 : w.doubleValue();
    }

    /** The largest share or fair share: the full length of the bars that draw them. */
    public double scale() {
        double s = 0;
        for (Row r : rows) {
            s = Math.max(s, Math.max(r.share(), r.fair()));
        }
        return s;
    }

    /** "max/min 1.82×": how far the most favoured backend's share is from the least favoured's, each by its due. */
    public String ratioText() {
        return Double.isInfinite(maxOverMin) ? Texts.t("ring.spread.infinite")
                : "max/min " + ratio();
    }

    /** {@code 1.82×}: the ratio alone, for "now → after". */
    String ratio() {
        return Double.isInfinite(maxOverMin) ? "∞" : String.format(Texts.locale(), "%.2f×", maxOverMin);
    }
}
