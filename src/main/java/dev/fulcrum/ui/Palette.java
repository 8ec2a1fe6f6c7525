package dev.fulcrum.ui;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import javafx.scene.Group;
import javafx.scene.Node;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.scene.paint.Color;

/**
 * One colour per backend, fixed by its id for the life of the window and the same in every view (live stage, ring,
 * charts, breakers). The first time the window meets an id it gets the next place on the colour wheel, {@code i ×
 * 137.5°} (the golden angle), so backends met together are far apart and 50 still look different; removing a
 * backend or adding one never changes another's colour. Ids met together are placed in id order, so a config's
 * backends get the same colours at every start. Example: a, b, c get hues 200°, 337.5°, 115°; remove b and add d:
 * a and c keep theirs and d gets 252.5°.
 *
 * <p>Every view takes its colours from here, charts included ({@link #paint}): none keeps a colour by a backend's
 * position in a list.
 */
public final class Palette {
    private static final double GOLDEN_ANGLE = 137.50776;
    private static final Map<String, Integer> PLACES = new java.util.HashMap<>();

    private Palette() {
    }

    /** The colour of each id, in id order. */
    public static Map<String, Color> of(Collection<String> ids) {
        Map<String, Color> out = new LinkedHashMap<>();
        synchronized (PLACES) {
            for (String id : new TreeSet<>(ids)) {
                out.put(id, colour(PLACES.computeIfAbsent(id, k -> PLACES.size())));
            }
        }
        return out;
    }

    /** The colour of one id. */
    public static Color of(String id) {
        return of(java.util.List.of(id)).get(id);
    }

    public static Color colour(int index) {
        double hue = (index * GOLDEN_ANGLE + 200) % 360;
        // alternate the brightness a little so hues that come round close together still differ
        double brightness = index % 2 == 0 ? 0.85 : 0.68;
        return Color.hsb(hue, 0.68, brightness);
    }

    /**
     * The colours of one pool's backends: every member, whether or not it is on the ring right now (an OPEN
     * breaker takes a backend off the ring but must not recolour the others).
     */
    public static Map<String, Color> forPool(dev.fulcrum.admin.EngineState s, String pool) {
        if (s == null) {
            return Map.of();
        }
        return of(s.backends().stream().filter(b -> b.pool().equals(pool)).map(b -> b.id()).toList());
    }

    /**
     * Paints each series of {@code chart} in the colour {@code colours} gives its name (a backend's id): its line, its
     * area, its bars or symbols, and its legend entry, each node by itself; a name without a colour is left as the
     * chart draws it. Left to itself a chart colours a series by a slot ({@code default-color0} to {@code 7}) that it
     * hands out as series arrive and gives, once freed, to the next series to arrive: a backend removed and added back
     * would take a slot another backend's colour was set on, and a ninth backend the first one's. The chart rebuilds
     * its legend when its series change, so call this again then. FX thread.
     */
    public static void paint(XYChart<?, ?> chart, Function<String, Color> colours) {
        for (XYChart.Series<?, ?> series : chart.getData()) {
            Color c = series.getName() == null ? null : colours.apply(series.getName());
            if (c == null) {
                continue;
            }
            String hex = web(c);
            Node node = series.getNode();
            if (node instanceof Group area) { // an area chart's series: its fill, then its outline
                for (Node part : area.getChildren()) {
                    style(part, part.getStyleClass().contains("chart-series-area-fill") ? "-fx-fill: " + hex + "55;"
                            : "-fx-stroke: " + hex + ";");
                }
            } else if (node != null) { // a line chart's path
                style(node, "-fx-stroke: " + hex + ";");
            }
            for (XYChart.Data<?, ?> d : series.getData()) {
                if (d.getNode() != null) {
                    style(d.getNode(), symbolStyle(d.getNode(), hex));
                }
            }
        }
        for (Node item : chart.lookupAll(".chart-legend-item")) {
            if (item instanceof Label entry && entry.getGraphic() != null && entry.getText() != null) {
                Color c = colours.apply(entry.getText());
                if (c != null) {
                    style(entry.getGraphic(), symbolStyle(entry.getGraphic(), web(c)));
                }
            }
        }
    }

    /** A bar takes its colour as {@code -fx-bar-fill} (its shading derives from it); a symbol is a ring in it. */
    private static String symbolStyle(Node symbol, String hex) {
        return symbol.getStyleClass().contains("chart-bar") ? "-fx-bar-fill: " + hex + ";"
                : "-fx-background-color: " + hex + ", white;";
    }

    /** Sets the style only when it differs: setting a style makes the node's CSS apply again. */
    private static void style(Node n, String style) {
        if (!style.equals(n.getStyle())) {
            n.setStyle(style);
        }
    }

    /** {@code #rrggbb}, for CSS. */
    public static String web(Color c) {
        return String.format("#%02x%02x%02x", Math.round(c.getRed() * 255), Math.round(c.getGreen() * 255),
                Math.round(c.getBlue() * 255));
    }
}
