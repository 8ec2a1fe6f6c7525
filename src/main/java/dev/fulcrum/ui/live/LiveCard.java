package dev.fulcrum.ui.live;

import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.time.Ticker;
import dev.fulcrum.ui.BackendCommands;
import dev.fulcrum.ui.Palette;
import dev.fulcrum.ui.Views;
import dev.fulcrum.ui.WeightSlider;
import java.util.List;
import java.util.Locale;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.shape.Rectangle;

/**
 * One backend on the Live stage: its colour and id, its state, breaker and health, its weight as a slider that
 * reweights live, its rate and latency, and its in-flight requests as a visible queue (one square each, up to
 * {@value #QUEUE_SHOWN} or as many as fit beside the figures, then a count). The figures always show whole: the queue
 * gives way to them. Below {@value #FULL_HEIGHT} px only the first two lines show, so twelve backends still fit a
 * projector's height.
 *
 * <p>A backend with labels shows them on a muted last line, {@code cost=0.2 zone=b}, when the card has the height
 * for it; cut with an ellipsis at the card's width, whole in its tooltip.
 *
 * <p>The state and breaker chips sit on the head line after the id while both fit the card's width; a long id in
 * large type (present mode on a 4:3 projector) leaves them no room there, so they move to the end of the weight's
 * line, which has a slider to give way, rather than show "...". The card keeps its height either way.
 */
final class LiveCard extends VBox {
    static final int QUEUE_SHOWN = 12;
    static final double FULL_HEIGHT = 84;
    /** A square of the queue and the gap after it. */
    private static final double SQUARE = 10;

    private final String id;
    private final Label name = new Label();
    private final Label state = new Label();
    private final Label breaker = new Label();
    private final Label figures = new Label();
    private final HBox queue = new HBox(3);
    private final Label queueMore = new Label();
    /** The labels' line, and the whole of what it shows ({@code cost=0.2 zone=b}) when the card is wide enough. */
    private final Label labels = new Label();
    private final javafx.scene.control.Tooltip labelsTip = new javafx.scene.control.Tooltip();
    private String labelsText = "";
    private final WeightSlider weight;
    private final HBox details;
    private final HBox head;
    private final HBox chips;
    /** The weight's line: the slider, and the chips when the head has no room for them. */
    private final HBox weightLine;

    LiveCard(String id, BackendCommands commands, Ticker ticker) {
        this.id = id;
        this.weight = new WeightSlider(commands, ticker, "live-");
        setId("live-card-" + id);
        getStyleClass().add("live-card");
        setPadding(new Insets(4, 8, 4, 8));
        setSpacing(2);
        Region swatch = new Region();
        swatch.setId("live-swatch-" + id);
        swatch.setMinSize(12, 12);
        swatch.setMaxSize(12, 12);
        swatch.setStyle("-fx-background-color: " + Palette.web(Palette.of(id)) + "; -fx-background-radius: 6;");
        name.setText(id);
        name.getStyleClass().add("live-card-name");
        name.setMinWidth(Region.USE_PREF_SIZE);
        state.getStyleClass().add("live-chip");
        breaker.getStyleClass().add("live-chip");
        // a CLOSED breaker shows no chip and takes no room from the others
        breaker.managedProperty().bind(breaker.visibleProperty());
        chips = new HBox(6, state, breaker);
        chips.setAlignment(javafx.geometry.Pos.CENTER_RIGHT);
        Pane grow = new Pane();
        HBox.setHgrow(grow, javafx.scene.layout.Priority.ALWAYS);
        head = new HBox(6, swatch, name, grow, chips);
        head.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        HBox.setHgrow(weight.node(), javafx.scene.layout.Priority.ALWAYS);
        weightLine = new HBox(6, weight.node());
        weightLine.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        figures.getStyleClass().add("muted");
        figures.setMinWidth(Region.USE_PREF_SIZE);
        queueMore.getStyleClass().add("muted");
        queueMore.setMinWidth(Region.USE_PREF_SIZE);
        queue.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        // made once and shown as many as are in flight: nodes made and dropped each sample would each be styled anew
        for (int i = 0; i < QUEUE_SHOWN; i++) {
            Rectangle r = new Rectangle(7, 7);
            r.getStyleClass().add("live-queue-slot");
            r.managedProperty().bind(r.visibleProperty());
            r.setVisible(false);
            queue.getChildren().add(r);
        }
        details = new HBox(8, figures, queue, queueMore);
        details.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        labels.setId("live-labels-" + id);
        labels.getStyleClass().add("muted");
        labels.setTooltip(labelsTip);
        labels.setVisible(false);
        labels.setManaged(false);
        getChildren().addAll(head, weightLine, details, labels);
    }

    String backend() {
        return id;
    }

    /** Marks the card as the trainer's selected backend (the present-mode keys act on it). */
    void pseudoSelected(boolean selected) {
        if (selected && !getStyleClass().contains("selected")) {
            getStyleClass().add("selected");
        } else if (!selected) {
            getStyleClass().remove("selected");
        }
    }

    /** A new sample of the backend; {@code readsWeights} is whether its pool's strategy reads weights. */
    void show(BackendInfo b, boolean readsWeights) {
        weight.show(b, readsWeights);
        // "UP (unverified)" back from an ejection with nothing shown to work yet
        state.setText(dev.fulcrum.ui.StatusText.shownState(b));
        Views.styleClasses(state, "live-chip", "state-" + (b.unverified() ? "UP-unverified" : b.state()));
        String br = b.breaker() == null ? "CLOSED" : b.breaker().state();
        breaker.setText(breakerText(b));
        Views.styleClasses(breaker, "live-chip", "breaker-" + br);
        breaker.setVisible(!"CLOSED".equals(br));
        figures.setText(scoreText(b) + Texts.t("live.card.figures", String.format(Locale.ROOT, "%.0f", b.rps()),
                ms(b.latencyP99Ms()), Integer.toString(b.activeRequests())));
        queueMore.setText(b.activeRequests() > 0 ? "+" + b.activeRequests() : "");
        int shown = Math.min(Math.min(QUEUE_SHOWN, squaresThatFit()), b.activeRequests());
        List<Node> squares = queue.getChildren();
        for (int i = 0; i < squares.size(); i++) {
            squares.get(i).setVisible(i < shown);
        }
        queueMore.setText(b.activeRequests() > shown ? "+" + (b.activeRequests() - shown) : "");
        if (!labelsText.equals(b.labelsText())) {
            labelsText = b.labelsText();
            labelsTip.setText(labelsText);
            requestLayout();
        }
    }

    /**
     * The labels' line where the card has room for it below the other lines, its text cut to {@code room} px with an
     * ellipsis; hidden otherwise. Cut here rather than by the label's skin, so the text shown is the label's text.
     */
    private void placeLabels(double room) {
        double others = snappedTopInset() + snappedBottomInset();
        int lines = 0;
        for (Node n : getChildren()) {
            if (n != labels && n.isManaged()) {
                others += n.prefHeight(room);
                lines++;
            }
        }
        double needs = others + lines * getSpacing() + labels.prefHeight(-1);
        boolean show = !labelsText.isEmpty() && needs <= getHeight();
        if (show) {
            labels.setText(fit(labelsText, labels.getFont(), room));
        }
        labels.setVisible(show);
        labels.setManaged(show);
    }

    /** {@code text} as it fits {@code room} px in {@code font}: whole, or its start and an ellipsis. */
    static String fit(String text, javafx.scene.text.Font font, double room) {
        javafx.scene.text.Text probe = new javafx.scene.text.Text(text);
        probe.setFont(font);
        // a pixel or two of slack: the label's skin measures the same text, rounded its own way
        double limit = room - 2;
        if (probe.getLayoutBounds().getWidth() <= limit) {
            return text;
        }
        for (int n = text.length() - 1; n > 0; n--) {
            probe.setText(text.substring(0, n).stripTrailing() + "\u2026");
            if (probe.getLayoutBounds().getWidth() <= limit) {
                return probe.getText();
            }
        }
        return "\u2026";
    }

    /** Squares that fit on the figures' line beside the figures and the count after them (as wide as the widest). */
    private int squaresThatFit() {
        Insets pad = getPadding();
        double room = getPrefWidth() - pad.getLeft() - pad.getRight() - figures.prefWidth(-1)
                - queueMore.prefWidth(-1) - 2 * details.getSpacing();
        return (int) Math.max(0, Math.floor(room / SQUARE));
    }

    /**
     * Where the pool uses the score strategy, the backend's score first on the figures' line: {@code score 0.62 · },
     * {@code score 0.55 (stale) · } when the strategy's {@code missing} rule gave it, {@code score excluded (missing) · }
     * when it has none; nothing for other strategies.
     */
    static String scoreText(BackendInfo b) {
        if (b.score() == null && b.scoreFallback() == null) {
            return "";
        }
        String value = b.score() == null ? Texts.t("live.card.excluded")
                : String.format(Locale.ROOT, "%.2f", b.score());
        return Texts.t("live.card.score", value + (b.scoreFallback() == null ? "" : " (" + b.scoreFallback() + ")"))
                + " · ";
    }

    /** The breaker chip: OPEN with the seconds until HALF_OPEN, HALF_OPEN, or nothing while CLOSED. */
    static String breakerText(BackendInfo b) {
        if (b.breaker() == null) {
            return "";
        }
        return switch (b.breaker().state()) {
            case "OPEN" -> Texts.t("live.card.open", Texts.word("breaker", "OPEN"),
                    String.format(Locale.ROOT, "%.0f", Math.ceil(b.breaker().msUntilHalfOpen() / 1000.0)));
            case "HALF_OPEN" -> Texts.word("breaker", "HALF_OPEN");
            default -> "";
        };
    }

    private static String ms(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f ms", v) : String.format(Locale.ROOT, "%.1f ms", v);
    }

    /** Sizes the card to its box on the stage; a short box shows the head and the slider only. */
    void place(StageLayout.Box box) {
        relocate(box.x(), box.y());
        setPrefSize(box.w(), box.h());
        setMinSize(box.w(), box.h());
        setMaxSize(box.w(), box.h());
        resize(box.w(), box.h());
        boolean full = box.h() >= FULL_HEIGHT;
        details.setVisible(full);
        details.setManaged(full);
        weightLine.setVisible(box.h() >= 48);
        weightLine.setManaged(box.h() >= 48);
    }

    /** Puts the chips where they show whole (see the class comment) before laying the lines out. */
    @Override
    protected void layoutChildren() {
        double room = getWidth() - snappedLeftInset() - snappedRightInset();
        Node swatch = head.getChildren().get(0);
        // swatch, id, the spacer and the chips: three gaps between the four
        double headNeeds = swatch.prefWidth(-1) + name.prefWidth(-1) + chips.prefWidth(-1) + 3 * head.getSpacing();
        boolean onHead = headNeeds <= room || !weightLine.isManaged();
        if (onHead && chips.getParent() != head) {
            weightLine.getChildren().remove(chips);
            chips.setMinWidth(Region.USE_COMPUTED_SIZE);
            head.getChildren().add(chips);
        } else if (!onHead && chips.getParent() != weightLine) {
            head.getChildren().remove(chips);
            // whole beside the slider: the slider gives way down to its minimum first
            chips.setMinWidth(Region.USE_PREF_SIZE);
            weightLine.getChildren().add(chips);
        }
        placeLabels(room);
        super.layoutChildren();
    }
}
