package dev.fulcrum.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tab;
import javafx.scene.control.TextField;
import javafx.scene.control.ToolBar;
import javafx.scene.text.Text;

/**
 * What a window test finds cut in a scene as it is laid out now: labels whose skin shows less than their text, tool
 * bar items put away in the bar's overflow menu, and tabs whose header is not shown whole. FX thread only, after
 * {@code applyCss()} and {@code layout()}, so each skin shows what it makes of its text now.
 */
public final class CutText {
    private CutText() {
    }

    /**
     * Every label shown under {@code root} whose skin does not show its whole text: an ellipsis, or fewer characters
     * (its {@code .text} child, the {@code LabeledText} the skin lays out, differs from {@link Labeled#getText()}), or
     * text that runs on past the window's edge or past the clip of what holds it;
     * every text field whose value (or prompt, while empty) is wider than its box; and every item of a tool bar shown
     * there that the bar put away in its overflow menu.
     */
    public static List<String> cut(Parent root, String where) {
        List<String> out = new ArrayList<>();
        walk(root, n -> {
            if (n instanceof Labeled l && l.getScene() != null && shown(l)
                    && l.getContentDisplay() != ContentDisplay.GRAPHIC_ONLY) {
                Text text = displayed(l);
                String want = l.isMnemonicParsing() ? withoutMnemonic(l.getText()) : l.getText();
                want = want == null ? "" : want;
                if (text != null && !text.getText().equals(want)) {
                    out.add(where + ": " + describe(l) + " shows \"" + text.getText() + "\" of \"" + want + "\"");
                } else if (text != null && !want.isEmpty()) {
                    String past = pastAnEdge(text);
                    if (past != null) {
                        out.add(where + ": " + describe(l) + " \"" + want + "\" runs past the right or left edge of "
                                + past);
                    }
                }
            }
            if (n instanceof TextField field && field.getScene() != null && shown(field)) {
                // its value, or its prompt while empty: wider than the box, the field shows only a part of it
                double room = field.getWidth() - field.getInsets().getLeft() - field.getInsets().getRight();
                walk(field, t -> {
                    if (t instanceof Text text && t.isVisible() && !text.getText().isEmpty()
                            && text.getLayoutBounds().getWidth() > room + 1) {
                        out.add(where + ": " + describe(field) + " shows part of \"" + text.getText() + "\" ("
                                + Math.round(text.getLayoutBounds().getWidth()) + " px in " + Math.round(room) + ")");
                    }
                });
            }
            if (n instanceof ToolBar bar && shown(bar)) {
                for (Node item : bar.getItems()) {
                    // an item the bar has no room for leaves the scene for the bar's overflow menu
                    if (item.isVisible() && item.getScene() == null) {
                        out.add(where + ": " + describe(item) + (item instanceof Labeled l ? " \"" + l.getText() + "\"" : "")
                                + " only in the overflow menu of the tool bar in " + describe(bar));
                    }
                }
            }
        });
        return out;
    }

    /**
     * What {@code text} runs past sideways where it is shown, or null: the window's edge, or the clip of a list, table
     * or scroll pane around it (a row scrolled out of sight above or below is not shown, so not counted).
     */
    private static String pastAnEdge(Text text) {
        Bounds b = text.localToScene(text.getLayoutBounds());
        Scene scene = text.getScene();
        if (b.getMinX() < -1 || b.getMaxX() > scene.getWidth() + 1) {
            return "the window";
        }
        for (Node p = text; p != null; p = p.getParent()) {
            if (p.getClip() != null) {
                Bounds c = p.localToScene(p.getClip().getBoundsInParent());
                boolean rowShown = b.getMaxY() > c.getMinY() && b.getMinY() < c.getMaxY();
                if (rowShown && (b.getMinX() < c.getMinX() - 1 || b.getMaxX() > c.getMaxX() + 1)) {
                    return describe(p);
                }
            }
        }
        return null;
    }

    /** The text node a Labeled's skin lays out (its {@code .text} child), or null when the skin has none. */
    private static Text displayed(Labeled l) {
        for (Node c : l.getChildrenUnmodifiable()) {
            if (c instanceof Text t && c.getStyleClass().contains("text")) {
                return t;
            }
        }
        return null;
    }

    private static String withoutMnemonic(String s) {
        if (s == null) {
            return null;
        }
        int i = s.indexOf('_');
        return i < 0 || i == s.length() - 1 ? s : s.substring(0, i) + s.substring(i + 1);
    }

    /** Its class, id or style classes, and the nearest ancestor with an id, e.g. {@code Label.card-title in #breaker-a}. */
    public static String describe(Node n) {
        StringBuilder b = new StringBuilder(n.getClass().getSimpleName());
        if (n.getId() != null) {
            b.append('#').append(n.getId());
        } else {
            n.getStyleClass().forEach(c -> b.append('.').append(c));
        }
        for (Node p = n.getParent(); p != null; p = p.getParent()) {
            if (p.getId() != null) {
                return b.append(" in #").append(p.getId()).toString();
            }
        }
        return b.toString();
    }

    /** Whether {@code n} and all its ancestors are visible, and it takes room. */
    public static boolean shown(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        Bounds b = n.getLayoutBounds();
        return b.getWidth() > 0 && b.getHeight() > 0;
    }

    /**
     * A node that selects {@code tab} when clicked (the tab pane's header for it, or anything else that says it stands
     * for it in its properties, as the skin's header does) and is shown whole: inside the window and inside every
     * clip above it, so neither the header strip's edge nor its overflow menu hides it. Null when there is none.
     */
    public static Node reachable(Scene scene, Tab tab) {
        List<Node> found = new ArrayList<>();
        walk(scene.getRoot(), n -> {
            if (n.getProperties().get(Tab.class) == tab && shown(n) && whole(n, scene)) {
                found.add(n);
            }
        });
        return found.isEmpty() ? null : found.get(0);
    }

    private static boolean whole(Node n, Scene scene) {
        Bounds b = n.localToScene(n.getLayoutBounds());
        if (!inside(b, 0, 0, scene.getWidth(), scene.getHeight())) {
            return false;
        }
        for (Node p = n; p != null; p = p.getParent()) {
            if (p.getClip() != null) {
                Bounds c = p.localToScene(p.getClip().getBoundsInParent());
                if (!inside(b, c.getMinX(), c.getMinY(), c.getMaxX(), c.getMaxY())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean inside(Bounds b, double minX, double minY, double maxX, double maxY) {
        double slack = 1; // a pixel of rounding between the header's bounds and its strip's clip
        return b.getMinX() >= minX - slack && b.getMinY() >= minY - slack && b.getMaxX() <= maxX + slack
                && b.getMaxY() <= maxY + slack;
    }

    /**
     * The node with id {@code id} under {@code root}, tab contents and tool bar items included (what a tool bar has no
     * room for is in its overflow menu, out of the scene) and the parts of controls not skinned yet ({@link #walk}), or
     * null.
     */
    public static Node find(Parent root, String id) {
        List<Node> found = new ArrayList<>();
        walk(root, n -> {
            if (id.equals(n.getId())) {
                found.add(n);
            }
        });
        return found.isEmpty() ? null : found.get(0);
    }

    /**
     * {@code n} and everything under it: children, and the parts a control holds that are not among them — a tool
     * bar's items in its overflow menu, and every part of a control not skinned yet (a view never shown, such as one
     * parked off the scene by {@link ParkedTabs}): a scroll pane's content, a split pane's items, a titled pane's
     * content, a tab pane's tabs' contents, a button bar's buttons. A part with a parent is reached as a child.
     */
    static void walk(Node n, Consumer<Node> visit) {
        visit.accept(n);
        List<Node> parts = new ArrayList<>();
        if (n instanceof ToolBar bar) {
            parts.addAll(bar.getItems());
        } else if (n instanceof javafx.scene.control.ScrollPane scroll) {
            parts.add(scroll.getContent());
        } else if (n instanceof javafx.scene.control.SplitPane split) {
            parts.addAll(split.getItems());
        } else if (n instanceof javafx.scene.control.TitledPane titled) {
            parts.add(titled.getContent());
        } else if (n instanceof javafx.scene.control.TabPane tabs) {
            tabs.getTabs().forEach(t -> parts.add(t.getContent()));
        } else if (n instanceof javafx.scene.control.ButtonBar buttons) {
            parts.addAll(buttons.getButtons());
        }
        for (Node part : parts) {
            if (part != null && part.getParent() == null) {
                walk(part, visit);
            }
        }
        if (n instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                walk(c, visit);
            }
        }
    }
}
