package dev.fulcrum.ui;

import javafx.collections.ListChangeListener;
import javafx.scene.Parent;

/**
 * The window's text size: Ctrl+plus and Ctrl+minus step it up and down, Ctrl+0 goes back to normal, and the step
 * is remembered ({@link WindowPrefs#textScale()}). The stylesheet's sizes (15 px, 20 px in present mode) are the
 * normal step; another step sets the root's font size to that times the step's factor, and every size the
 * stylesheets give in em follows. Example: step 1.3 in present mode sets 26 px.
 */
public final class TextScale {
    /** The factors Ctrl+plus and Ctrl+minus step through; 1 is the stylesheet's own size. */
    static final double[] STEPS = {0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0};
    static final double NORMAL_PX = 15;
    static final double PRESENT_PX = 20;

    private final Parent root;
    private final WindowPrefs prefs;
    private int step;

    TextScale(Parent root, WindowPrefs prefs) {
        this.root = root;
        this.prefs = prefs;
        this.step = nearest(prefs.textScale());
        root.getStyleClass().addListener((ListChangeListener<String>) c -> apply()); // present mode's base size
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

    /** The root's font size at {@code factor}, or null for the stylesheet's own (factor 1). */
    static String style(double factor, boolean present) {
        if (factor == 1.0) {
            return "";
        }
        return String.format(java.util.Locale.ROOT, "-fx-font-size: %.1fpx;",
                (present ? PRESENT_PX : NORMAL_PX) * factor);
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
        String style = style(STEPS[step], root.getStyleClass().contains(PresentMode.STYLE));
        if (!style.equals(root.getStyle())) {
            root.setStyle(style);
        }
    }
}
