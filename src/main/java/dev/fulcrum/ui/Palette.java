package dev.fulcrum.ui;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import javafx.scene.paint.Color;

/**
 * One colour per backend, the same in every view (ring, charts, breakers). Backends are sorted by id and the
 * i-th gets hue {@code i × 137.5°} (the golden angle), so neighbours in the list are far apart on the colour
 * wheel and 50 backends still look different. Example: a, b, c get hues 0°, 137.5°, 275°.
 */
public final class Palette {
    private static final double GOLDEN_ANGLE = 137.50776;

    private Palette() {
    }

    public static Map<String, Color> of(Collection<String> ids) {
        Map<String, Color> out = new LinkedHashMap<>();
        int i = 0;
        for (String id : new TreeSet<>(ids)) {
            out.put(id, colour(i++));
        }
        return out;
    }

    public static Color colour(int index) {
        double hue = (index * GOLDEN_ANGLE + 200) % 360;
        // alternate the brightness a little so hues that come round close together still differ
        double brightness = index % 2 == 0 ? 0.85 : 0.68;
        return Color.hsb(hue, 0.68, brightness);
    }

    /** {@code #rrggbb}, for CSS. */
    public static String web(Color c) {
        return String.format("#%02x%02x%02x", Math.round(c.getRed() * 255), Math.round(c.getGreen() * 255),
                Math.round(c.getBlue() * 255));
    }
}
