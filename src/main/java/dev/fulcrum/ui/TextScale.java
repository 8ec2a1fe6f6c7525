package dev.fulcrum.ui;

import javafx.collections.ListChangeListener;
import javafx.scene.Parent;

/**
 * The window's text size: Ctrl+plus and Ctrl+minus step it up and down, Ctrl+0 goes back to normal, and the step
 * is remembered ({@link WindowPrefs#textScale()}). The stylesheet's sizes (15 px, 20 px in present mode) are the
 * normal step; another step sets the root's font size to that times the step's factor, and every size the
 * stylesheets give in em follows. Example: step 1.3 in present mode sets 26 px.
 *
 * <p>Present mode's size follows the window's width ({@link #presentPx}): a projector enlarges the picture to the
 * wall whatever its pixels, so 20 px on a 1280 px screen and 17 px on a 1024 px one read about the same from the back
 * of the room, and a layout that fits one fits the other.
 */
public final class TextScale {
    /** The factors Ctrl+plus and Ctrl+minus step through; 1 is the stylesheet's own size. */
    static final double[] STEPS = {0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0};
    static final double NORMAL_PX = 15;
    /** Present mode's size on a window {@link #PRESENT_WIDTH} px wide: the stylesheet's. */
    static final double PRESENT_PX = 20;
    static final double PRESENT_WIDTH = 1280;
    /** Present mode's size never goes under this, whatever the width: still larger than the normal 15 px. */
    static final double PRESENT_MIN_PX = 17;

    private final Parent root;
    private final WindowPrefs prefs;
    private int step;

    TextScale(Parent root, WindowPrefs prefs) {
        this.root = root;
        this.prefs = prefs;
        this.step = nearest(prefs.textScale());
        root.getStyleClass().addListener((ListChangeListener<String>) c -> apply()); // present mode's base size
        if (root instanceof javafx.scene.layout.Region r) {
            r.widthProperty().addListener((o, a, w) -> apply()); // the window's width sets present mode's size
        }
        apply();
    }

    /** The step whose factor is closest to {@code factor}. */
    static int nearest(double factor) {
        int best = 0;
        for (int i = 1; i < STEPS.length; i++) {
            if (Math.abs(STEPS[i] - factor) < Math.abs(STEPS[best] - factor)) {
                best = i;
            }
        }
        return best;
    }

    /**
     * Present mode's body size in a window {@code width} px wide: {@link #PRESENT_PX} at {@link #PRESENT_WIDTH} and in
     * proportion to the width, in whole pixels, at least {@link #PRESENT_MIN_PX}. Examples: 1280 gives 20, 1024 gives
     * 17 (not 16), 1920 gives 30; no width yet (0) gives 20.
     */
    static double presentPx(double width) {
        return width <= 0 ? PRESENT_PX : Math.max(PRESENT_MIN_PX, Math.round(PRESENT_PX * width / PRESENT_WIDTH));
    }

    /**
     * The root's font size at {@code factor}, normal ({@code presentPx} 0) or in present mode at {@code presentPx}, or
     * "" where that is the stylesheet's own (factor 1 at 15 px, or at 20 px in present mode).
     */
    static String style(double factor, double presentPx) {
        double base = presentPx > 0 ? presentPx : NORMAL_PX;
        if (factor == 1.0 && (presentPx == 0 || presentPx == PRESENT_PX)) {
            return "";
        }
        return String.format(java.util.Locale.ROOT, "-fx-font-size: %.1fpx;", base * factor);
    }

    public void larger() {
        set(Math.min(STEPS.length - 1, step + 1));
    }

    public void smaller() {
        set(Math.max(0, step - 1));
    }

    public void reset() {
        set(nearest(1.0));
    }

    public double factor() {
        return STEPS[step];
    }

    private void set(int s) {
        step = s;
        prefs.setTextScale(STEPS[s]);
        apply();
    }

    private void apply() {
        double width = root instanceof javafx.scene.layout.Region r ? r.getWidth() : 0;
        String style = style(STEPS[step], root.getStyleClass().contains(PresentMode.STYLE) ? presentPx(width) : 0);
        if (!(style + Fonts.rootStyle()).equals(root.getStyle())) {
            root.setStyle(style);
            Fonts.style(root); // the language's font, beside the size
        }
    }
}
