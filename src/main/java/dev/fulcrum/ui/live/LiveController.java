package dev.fulcrum.ui.live;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.time.SystemClock;
import dev.fulcrum.ui.BackendCommands;
import dev.fulcrum.ui.FramePacer;
import dev.fulcrum.ui.Palette;
import dev.fulcrum.ui.SessionTraffic;
import dev.fulcrum.ui.StageFrames;
import dev.fulcrum.ui.TimelineBar;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.Views;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.StackPane;
import javafx.scene.shape.Circle;

/**
 * The Live tab: the selected pool as a picture, every sampled request a dot that travels to the backend that served it
 * ({@link LiveModel}, {@link LiveCanvas}), one card per backend ({@link LiveCard}) with its weight slider, so a drag
 * changes the flow at once. Each frame ({@link StageFrames}, on the FX thread) takes what the request source sampled
 * since the last one, without blocking, and draws; while the tab is hidden nothing is read or drawn.
 *
 * <p>The request source is opened off the FX thread (attached, it connects to {@code /api/requests}); an engine that
 * has none (an HAProxy fleet) gets a sentence saying so instead of an empty stage.
 */
public final class LiveController {
    /** Requests one frame takes from the source at most: the budget's share of a frame, with room for a burst. */
    static final int PER_FRAME = 40;
    /** With {@code -Dfulcrum.frameLog=true} the stage logs its frame times every 10 s (bench/stage-frames.sh reads them). */
    private static final boolean FRAME_LOG = Boolean.getBoolean("fulcrum.frameLog");
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LiveController.class);

    private final UiSession session;
    private final BackendCommands commands;
    private final LiveModel model;
    private final LiveCanvas canvas = new LiveCanvas();
    private final Pane cards = new Pane();
    private final Map<String, LiveCard> cardById = new LinkedHashMap<>();
    private final BooleanProperty showing = new SimpleBooleanProperty(this, "showing", true);
    private volatile RequestSource source;
    private StageLayout layout = new StageLayout(800, 500, List.of());
    /** The routes' fan-out of the newest sample, or null when no route splits or mirrors. */
    private FanOut fanOut;
    private double textScale = 1;
    private double frameSeconds;
    private int framesThisSecond;
    private int framesLastSecond;
    private double secondStartedAt;
    private long requestsAtSecond;
    private double rateLastSecond;
    private boolean noRequests;
    private final FrameTimes frameTimes = new FrameTimes(1200);
    private final FramePacer pacer = FramePacer.ofThisMachine();
    private double frameLogStartedAt = -1;

    @FXML private ToggleButton livePause;
    @FXML private Button liveTraffic;
    @FXML private Label liveRate;
    @FXML private Label liveScale;
    @FXML private Label liveFrames;
    @FXML private HBox liveLegend;
    @FXML private StackPane liveStage;

    public LiveController(UiSession session) {
        this.session = session;
        this.commands = new BackendCommands(session);
        this.model = new LiveModel(() -> frameSeconds);
    }

    @FXML
    private void initialize() {
        canvas.widthProperty().bind(liveStage.widthProperty());
        canvas.heightProperty().bind(liveStage.heightProperty());
        cards.setPickOnBounds(false);
        cards.setId("liveCards");
        // an attached engine that stops answering: its cards greyed and their actions off, and the toolbar says why
        cards.disableProperty().bind(session.staleProperty());
        session.staleProperty().addListener((o, a, st) -> showFigures());
        liveStage.getChildren().addAll(canvas, cards, liveFrames);
        canvas.widthProperty().addListener((o, a, b) -> relayout());
        canvas.heightProperty().addListener((o, a, b) -> relayout());
        for (Flight.Kind k : Flight.Kind.values()) {
            Circle dot = new Circle(5, LiveCanvas.COLOURS.get(k));
            Label l = new Label(LiveCanvas.meaning(k), dot);
            l.getStyleClass().add("live-legend");
            liveLegend.getChildren().add(l);
        }
        // one pause for every view: the button, the space bar and the timeline all move the session's moment
        livePause.setOnAction(e -> {
            if (session.timeMachine().live()) {
                session.timeMachine().pause();
            } else {
                session.timeMachine().backToLive();
            }
        });
        session.timeMachine().viewingAtProperty().addListener((o, a, t) -> {
            boolean paused = t.longValue() >= 0;
            livePause.setSelected(paused);
            livePause.setText(paused ? Texts.t("live.resume") : Texts.t("live.pause"));
            if (paused) {
                model.pause();
            } else {
                model.resume();
            }
        });
        showTrafficButton();
        session.selectedBackendProperty().addListener((o, a, id) -> cardById.values().forEach(c ->
                c.pseudoSelected(id != null && id.equals(c.backend()))));
        session.stateProperty().addListener((o, a, s) -> show(s));
        session.poolProperty().addListener((o, a, p) -> show(session.state()));
        // on a thread of its own: attached, opening waits for the server, and the session's worker must go on sampling
        Thread opener = new Thread(() -> {
            RequestSource opened;
            try {
                opened = session.client().requests();
            } catch (RuntimeException e) {
                opened = null;
            }
            RequestSource s = opened;
            javafx.application.Platform.runLater(() -> {
                noRequests = s == null;
                source = s != null ? s : new RateSource(session::state, session::pool, () -> frameSeconds);
                // the first batch covers the time from here to the first frame read, however long the window takes
                model.skip(RequestSource.Batch.EMPTY);
            });
        }, "fulcrum-ui-requests");
        opener.setDaemon(true);
        opener.start();
        // while the tab is hidden the source keeps what arrives: shown again, the stage counts that at once, and draws
        // from then on (at its next frame, up to a quarter of a second later, a request would be a backlog's)
        showing.addListener((o, a, on) -> {
            RequestSource s = source;
            if (on && s != null) {
                model.skip(s.sample(PER_FRAME));
            }
        });
        StageFrames.of(liveStage, () -> showing.get() && Views.onScreen(liveStage), pacer, this::frame);
        liveStage.sceneProperty().addListener((o, a, sc) -> {
            RequestSource s = source;
            if (sc == null && s != null) {
                s.close();
            }
        });
    }

    /**
     * Start/Stop traffic: the session's one generator ({@link SessionTraffic}), the Traffic tab's, with the settings
     * there; Stop here or there stops it. Hidden where the engine takes none (an HAProxy fleet), and Start waits for
     * the proxy's address.
     */
    private void showTrafficButton() {
        SessionTraffic traffic = session.traffic();
        liveTraffic.setVisible(traffic.possible());
        liveTraffic.setManaged(traffic.possible());
        var running = traffic.runningProperty();
        liveTraffic.textProperty().bind(running.map(r -> r ? Texts.t("live.traffic.stop")
                : Texts.t("live.traffic.start")));
        liveTraffic.disableProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(
                () -> !running.get() && !traffic.ready(), running, session.stateProperty()));
        liveTraffic.setTooltip(new javafx.scene.control.Tooltip(Texts.t("live.traffic.tip")));
        liveTraffic.setOnAction(e -> {
            if (running.get()) {
                traffic.stop();
            } else {
                traffic.start();
            }
        });
    }

    /** Whether the tab is shown: bound by the window, so a hidden stage costs nothing. */
    public BooleanProperty showingProperty() {
        return showing;
    }

    public LiveModel model() {
        return model;
    }


    /** Present mode: larger type on the canvas. */
    public void setTextScale(double s) {
        canvas.setTextScale(s);
        if (s != textScale) {
            textScale = s;
            relayout(); // the groups' labels take more room
        }
    }

    public void setDark(boolean d) {
        canvas.setDark(d);
    }

    /** Frames drawn in the last whole second. */
    public int framesLastSecond() {
        return framesLastSecond;
    }

    private void frame(double seconds) {
        frameSeconds = seconds;
        RequestSource s = source;
        if (s != null) {
            model.offer(s.sample(PER_FRAME));
        }
        // what a draw costs this machine: the system clock, whatever clock the window runs on
        long drawStarted = SystemClock.nanoTime();
        canvas.draw(layout, model.flights(), model.now(), strategyText(), model.laneLabels(), fanOut);
        if (FRAME_LOG) {
            logFrame(seconds, SystemClock.nanoTime() - drawStarted);
        }
        framesThisSecond++;
        if (seconds - secondStartedAt >= 1) {
            framesLastSecond = framesThisSecond;
            rateLastSecond = (model.requests() - requestsAtSecond) / (seconds - secondStartedAt);
            framesThisSecond = 0;
            secondStartedAt = seconds;
            requestsAtSecond = model.requests();
            showFigures();
        }
    }

    private void logFrame(double seconds, long drawNanos) {
        frameTimes.frame((long) (seconds * 1e9), drawNanos);
        if (frameLogStartedAt < 0) {
            frameLogStartedAt = seconds;
        } else if (seconds - frameLogStartedAt >= 10) {
            LOG.info("stage: {} in {} s, {} dots in flight, {} req/s", frameTimes.summary(),
                    String.format(Locale.ROOT, "%.1f", seconds - frameLogStartedAt), model.flights().size(),
                    String.format(Locale.ROOT, "%.0f", rateLastSecond));
            frameLogStartedAt = seconds;
        }
    }

    /**
     * The stage's frames in the last second, with the busy note while the pacer holds them to {@code cap} a second (0:
     * no cap). In the second the pacer sets a cap, the count is still of the frames before it, and the note waits.
     */
    static String framesText(int frames, int cap) {
        // a frame is due a little before 1/cap s has passed (FramePacer#due), so a second can hold one more
        boolean held = cap > 0 && frames <= cap + 1;
        return Texts.t(held ? "live.frames.busy" : "live.frames", Integer.toString(frames));
    }

    private void showFigures() {
        liveFrames.setText(framesText(framesLastSecond, pacer.cap()));
        if (session.stale()) {
            liveRate.setText(Texts.t("live.stale"));
        } else if (model.paused()) {
            liveRate.setText(Texts.t("live.paused", String.format(Locale.ROOT, "%,d", model.seenWhilePaused()),
                    TimelineBar.clock(session.timeMachine().pausedSince())));
        } else {
            liveRate.setText(Texts.t("live.rate", String.format(Locale.ROOT, "%,.0f", rateLastSecond)));
        }
        String scale = model.scale() > 1 ? Texts.t("live.scale", Integer.toString(model.scale()))
                : Texts.t("live.scale.one");
        liveScale.setText(noRequests ? Texts.t("live.scale.rates", scale) : scale);
    }

    private String strategyText() {
        EngineState s = session.state();
        EngineState.PoolInfo p = s == null ? null : s.pools().get(session.pool());
        Object type = p == null || p.strategy() == null ? null : p.strategy().get("type");
        return type == null ? "" : type.toString();
    }

    private void show(EngineState s) {
        if (s == null) {
            return;
        }
        String pool = session.pool();
        List<String> ids = new ArrayList<>();
        boolean reads = session.readsWeights(pool);
        // the pool's backends met together, in id order, whichever view meets them first: the same colours each start
        Palette.forPool(s, pool);
        FanOut before = fanOut;
        fanOut = FanOut.of(s, pool);
        // with routes that split or mirror, every pool they send to is on the stage, group after group
        java.util.Set<String> onStage = fanOut == null ? null : new java.util.HashSet<>(fanOut.backends());
        if (fanOut != null) {
            fanOut.groups().forEach(g -> Palette.forPool(s, g.pool()));
        }
        for (BackendInfo b : s.backends()) {
            if (onStage != null ? onStage.contains(b.id()) : pool == null || pool.equals(b.pool())) {
                reads = onStage == null ? reads : session.readsWeights(b.pool());
                ids.add(b.id());
                LiveCard c = cardById.computeIfAbsent(b.id(), id -> {
                    LiveCard card = new LiveCard(id, commands, session.ticker());
                    card.setOnMouseClicked(e -> session.selectedBackendProperty().set(id));
                    cards.getChildren().add(card);
                    return card;
                });
                c.show(b, reads);
            }
        }
        if (fanOut != null) {
            ids = fanOut.backends().stream().filter(cardById::containsKey).toList();
        }
        boolean regrouped = (before == null) != (fanOut == null)
                || (fanOut != null && !fanOut.groups().equals(before.groups()));
        if (regrouped || !ids.equals(new ArrayList<>(cardById.keySet())) || ids.size() != layout.cards().size()) {
            cardById.keySet().retainAll(ids);
            cards.getChildren().removeIf(n -> n instanceof LiveCard lc && !cardById.containsKey(lc.backend()));
            relayout();
        }
    }

    private void relayout() {
        List<String> ids = new ArrayList<>(cardById.keySet());
        layout = new StageLayout(canvas.getWidth(), canvas.getHeight(), ids, fanOut, textScale);
        for (LiveCard c : cardById.values()) {
            StageLayout.Box box = layout.card(c.backend());
            if (box != null) {
                c.place(box);
            }
        }
    }
}
