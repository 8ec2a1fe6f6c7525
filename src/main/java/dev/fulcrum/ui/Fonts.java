package dev.fulcrum.ui;

import dev.fulcrum.i18n.Texts;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javafx.collections.ListChangeListener;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.text.Font;
import javafx.stage.Window;

/**
 * The font the window's text is drawn in, for its language. JavaFX on Linux builds its default font's fallbacks from
 * fontconfig's list for "sans" without asking for a language, so a Chinese window draws boxes even with a CJK font
 * installed. In Chinese every window of the application (the main one, dialogs, notifications, tooltips, menus) names
 * the first CJK family installed in its root's style, and the canvases ask for it by name; other languages keep
 * JavaFX's default. FX thread.
 */
public final class Fonts {
    /** CJK families with Simplified Chinese, in the order they are preferred: Linux, then macOS and Windows. */
    static final List<String> CHINESE = List.of("Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC",
            "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Droid Sans Fallback", "PingFang SC", "Microsoft YaHei");
    private static final String FAMILY = "-fx-font-family:[^;]*;";
    private static Optional<String> chinese;
    private static boolean watching;

    private Fonts() {
    }

    /** The family for the window's language, or null for JavaFX's default (also when no CJK font is installed). */
    public static String family() {
        return "zh".equals(Texts.language()) ? chinese() : null;
    }

    /** The first CJK family installed, whatever the window's language (the language menu's 简体中文), or null. */
    static String chinese() {
        if (chinese == null) { // the canvases ask every frame: the installed fonts are read once
            Set<String> installed = Set.copyOf(Font.getFamilies());
            chinese = CHINESE.stream().filter(installed::contains).findFirst();
        }
        return chinese.orElse(null);
    }

    /** The family as a root's style names it, "" for JavaFX's default. */
    static String rootStyle() {
        String family = family();
        return family == null ? "" : "-fx-font-family: \"" + family + "\";";
    }

    /**
     * Puts every window there is, and every one opened from now on, on {@link #family()}: after {@link Texts#use}.
     * A style on the root outranks the stylesheets' fonts, and the root's children inherit it.
     */
    public static void apply() {
        if (!watching) {
            watching = true;
            Window.getWindows().addListener((ListChangeListener<Window>) c -> {
                while (c.next()) {
                    c.getAddedSubList().forEach(Fonts::watch);
                }
            });
            Window.getWindows().forEach(Fonts::watch);
        }
        for (Window w : Window.getWindows()) {
            if (w.getScene() != null) {
                style(w.getScene().getRoot());
            }
        }
    }

    private static void watch(Window w) {
        w.sceneProperty().addListener((o, a, scene) -> watch(scene));
        watch(w.getScene());
    }

    private static void watch(Scene scene) {
        if (scene != null) {
            scene.rootProperty().addListener((o, a, root) -> style(root));
            style(scene.getRoot());
        }
    }

    /** {@code root}'s style with the family of now, whatever else it says (the text size, say) kept. */
    static void style(Parent root) {
        if (root == null) {
            return;
        }
        String style = root.getStyle() == null ? "" : root.getStyle();
        String next = style.replaceAll(FAMILY, "").strip() + rootStyle();
        if (!next.equals(style)) {
            root.setStyle(next);
        }
    }
}
