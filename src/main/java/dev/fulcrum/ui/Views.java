package dev.fulcrum.ui;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;

/**
 * Loads {@code /fxml/NAME.fxml} (the top-level {@code fxml/} folder, packaged as resources) with controllers
 * that take the {@link UiSession} in their constructor, so controllers need no static state and tests can
 * build any view on a session of their own. Nested {@code fx:include}s get the same factory.
 */
public final class Views {
    private Views() {
    }

    public record Loaded<C>(Parent root, C controller) {
    }

    public static <C> Loaded<C> load(String name, UiSession session) {
        return load(name, type -> {
            try {
                try {
                    return type.getConstructor(UiSession.class).newInstance(session);
                } catch (NoSuchMethodException e) {
                    return type.getConstructor().newInstance();
                }
            } catch (ReflectiveOperationException e) {
                Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
                throw new IllegalStateException("cannot create controller " + type.getName() + ": " + cause, cause);
            }
        });
    }

    /**
     * {@code /fxml/NAME.fxml} with the controllers {@code controllers} makes, and the window's bundle for its
     * {@code %key} texts (nested {@code fx:include}s get both).
     */
    public static <C> Loaded<C> load(String name, javafx.util.Callback<Class<?>, Object> controllers) {
        URL url = Views.class.getResource("/fxml/" + name + ".fxml");
        if (url == null) {
            throw new IllegalStateException("fxml/" + name + ".fxml is not on the classpath");
        }
        FXMLLoader loader = new FXMLLoader(url, dev.fulcrum.i18n.Texts.bundle());
        loader.setControllerFactory(controllers);
        try {
            Parent root = loader.load();
            return new Loaded<>(root, loader.getController());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load fxml/" + name + ".fxml", e);
        }
    }

    /** The stylesheet URL of {@code /styles/NAME.css}. */
    public static String stylesheet(String name) {
        URL url = Views.class.getResource("/styles/" + name + ".css");
        if (url == null) {
            throw new IllegalStateException("styles/" + name + ".css is not on the classpath");
        }
        return url.toExternalForm();
    }

    /** Whether {@code node} is on screen: in a scene and neither it nor a parent is hidden (a tab not selected). */
    public static boolean onScreen(javafx.scene.Node node) {
        for (javafx.scene.Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        return node.getScene() != null;
    }

    /**
     * Gives {@code node} exactly {@code classes}, touching its list only when they differ: any change to a node's
     * style classes, even to the same ones, has JavaFX look its CSS up again, which a view updated 4 times a second
     * would pay on every sample.
     */
    public static void styleClasses(javafx.scene.Node node, String... classes) {
        if (!node.getStyleClass().equals(java.util.Arrays.asList(classes))) {
            node.getStyleClass().setAll(classes);
        }
    }

    /** Adds or removes one style class, touching the list only when that changes it (see {@link #styleClasses}). */
    public static void styleClass(javafx.scene.Node node, String name, boolean on) {
        if (!on) {
            node.getStyleClass().remove(name); // no change, and no CSS, where it is absent
        } else if (!node.getStyleClass().contains(name)) {
            node.getStyleClass().add(name);
        }
    }
}
