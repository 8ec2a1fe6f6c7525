package dev.fulcrum.ui;

import java.util.prefs.Preferences;
import javafx.stage.Stage;

/**
 * What the window remembers between runs (java.util.prefs, per user): its size and position, the dark
 * theme and the text size. Tests pass their own node so they never touch the user's settings.
 */
public final class WindowPrefs {
    public static final double DEFAULT_WIDTH = 1280;
    public static final double DEFAULT_HEIGHT = 800;
    private final Preferences node;

    public WindowPrefs(Preferences node) {
        this.node = node;
    }

    public static WindowPrefs user() {
        return new WindowPrefs(Preferences.userRoot().node("dev/fulcrum/window"));
    }

    public double width() {
        return node.getDouble("width", DEFAULT_WIDTH);
    }

    public double height() {
        return node.getDouble("height", DEFAULT_HEIGHT);
    }

    public boolean dark() {
        return node.getBoolean("dark", false);
    }

    public void setDark(boolean dark) {
        node.putBoolean("dark", dark);
    }

    /** The text size factor ({@link TextScale}); 1 is the stylesheet's own. */
    public double textScale() {
        return node.getDouble("textScale", 1.0);
    }

    public void setTextScale(double factor) {
        node.putDouble("textScale", factor);
    }

    /** The language the operator picked in the window, or null to follow the system's. */
    public java.util.Locale language() {
        String tag = node.get("language", null);
        return tag == null ? null : java.util.Locale.forLanguageTag(tag);
    }

    public void setLanguage(java.util.Locale language) {
        node.put("language", language.toLanguageTag());
    }

    /** Restores the size (and the position when one was saved), then saves both whenever they change. */
    public void attach(Stage stage) {
        stage.setWidth(width());
        stage.setHeight(height());
        if (node.get("x", null) != null) {
            stage.setX(node.getDouble("x", 0));
            stage.setY(node.getDouble("y", 0));
        }
        stage.widthProperty().addListener((o, a, w) -> node.putDouble("width", w.doubleValue()));
        stage.heightProperty().addListener((o, a, h) -> node.putDouble("height", h.doubleValue()));
        stage.xProperty().addListener((o, a, x) -> node.putDouble("x", x.doubleValue()));
        stage.yProperty().addListener((o, a, y) -> node.putDouble("y", y.doubleValue()));
    }
}
