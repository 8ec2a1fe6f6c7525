package dev.fulcrum.ui;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import javafx.scene.paint.Color;

/**
 * One colour per backend, fixed by its id for the life of the window and the same in every view (live stage, ring,
 * charts, breakers). The first time the window meets an id it gets the next place on the colour wheel, {@code i ×
 * 137.5°} (the golden angle), so backends met together are far apart and 50 still look different; removing a
 * backend or adding one never changes another's colour. Ids met together are placed in id order, so a config's
 * backends get the same colours at every start. Example: a, b, c get hues 200°, 337.5°, 115°; remove b and add d:
 * a and c keep theirs and d gets 252.5°.
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

    /** {@code #rrggbb}, for CSS. */
    public static String web(Color c) {
        return String.format("#%02x%02x%02x", Math.round(c.getRed() * 255), Math.round(c.getGreen() * 255),
                Math.round(c.getBlue() * 255));
    }
}
