package dev.fulcrum.ui.lessons;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.effect.BlurType;
import javafx.scene.effect.DropShadow;
import javafx.scene.effect.Effect;
import javafx.scene.paint.Color;

/**
 * Marks what a lesson step points at in the view it switches to: the backend's row in Backends, its legend entry on
 * the Ring, its card in Breakers, its line in Health, its latency slider in Demo faults, with an amber glow. The views build
 * those nodes with ids of their own ({@code row-demo-c}, {@code legend-demo-c}, ...), so the mark (a glow, and on a
 * row or a label a tint over its own style, which comes back after) is found by id and put on again as the views rebuild their nodes; a view with no node per backend (Load) shows the name in the
 * narration only.
 */
final class Highlighter {
    /** Each view's id prefix of the node that stands for one backend. */
    static final Map<String, String> NODE_ID = Map.of("Backends", "row-", "Ring", "legend-", "Breakers", "breaker-",
            "Health", "health-", "Demo faults", "demoLatency-");
    private static final Effect GLOW = new DropShadow(BlurType.GAUSSIAN, Color.web("#f59e0b"), 12, 0.45, 0, 0);
    /** An amber tint under a marked row or label, on top of its own style (restored when the mark moves on). */
    private static final String TINT = ";-fx-background-color: rgba(245,158,11,0.20); -fx-background-radius: 4;";
    private static final String STYLE_BEFORE = "lesson.styleBefore";

    private final Parent root;
    private final List<Node> marked = new ArrayList<>();
    private String view;
    private String backend;
    /** How many more refreshes scroll the marked node into view; then the presenter may scroll freely. */
    private int revealsLeft;

    Highlighter(Parent root) {
        this.root = root;
    }

    /** From now on, marks {@code backend} in {@code view}; null for nothing. */
    void point(String view, String backend) {
        this.view = view;
        this.backend = backend;
        refresh();
    }

    /** Puts the glow on again (a view may have rebuilt the node since). */
    void refresh() {
        String prefix = view == null ? null : NODE_ID.get(view);
        Node target = prefix != null && backend != null ? root.lookup("#" + prefix + backend) : null;
        if (target != null && marked.contains(target) && revealsLeft > 0) {
            revealsLeft--;
            reveal(target); // once more, laid out by now: the first was as the view switched
        }
        for (Node n : marked) {
            if (n != target) {
                unmark(n);
            }
        }
        marked.removeIf(n -> n != target);
        if (target != null && marked.isEmpty()) {
            if (target instanceof IndexedCell<?> || target instanceof Label) {
                // a row or a line of text: the glow alone is thin there; a card or a slider keeps its own background
                target.getProperties().put(STYLE_BEFORE, target.getStyle());
                target.setStyle(target.getStyle() + TINT);
            }
            target.setEffect(GLOW);
            marked.add(target);
            revealsLeft = 1;
            reveal(target);
        }
    }

    /**
     * Scrolls the nearest scroll pane holding {@code n} so that all of it shows (as much as fits, its top first): at a
     * projector's size the Breakers tab shows one card, and the room must see the one the step is about.
     */
    static void reveal(Node n) {
        for (Node p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof ScrollPane sp && sp.getContent() != null) {
                Bounds in = sp.getContent().sceneToLocal(n.localToScene(n.getBoundsInLocal()));
                double content = sp.getContent().getBoundsInLocal().getHeight();
                double view = sp.getViewportBounds().getHeight();
                if (in == null || content <= view) {
                    return;
                }
                double top = sp.getVvalue() * (content - view);
                if (in.getMinY() < top || in.getMaxY() > top + view) {
                    double to = Math.min(in.getMinY(), content - view);
                    sp.setVvalue(Math.max(0, to) / (content - view));
                }
                return;
            }
        }
    }

    private static void unmark(Node n) {
        if (n.getEffect() == GLOW) {
            n.setEffect(null);
        }
        Object before = n.getProperties().remove(STYLE_BEFORE);
        if (before instanceof String s) {
            n.setStyle(s);
        }
    }

    /** The node marked now, or null. */
    Node marked() {
        return marked.isEmpty() ? null : marked.get(0);
    }
}
