package dev.fulcrum.ui.breakers;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.collections.ListChangeListener;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.fxml.FXML;
import javafx.scene.control.Label;
import javafx.scene.layout.FlowPane;

/**
 * One {@link BreakerCard} per backend of the selected pool, refreshed with every sample and moved on each frame while
 * the view shows; transitions come from the engine's {@code breaker} events (and {@code health} ones, which include
 * outlier ejections, for the cards' lists).
 */
public final class BreakersController {
    private final UiSession session;
    private final Map<String, BreakerCard> cards = new LinkedHashMap<>();
    private final Map<String, List<EngineEvent>> transitions = new HashMap<>();
    /** False while the tab is hidden: the cards are not updated then, and catch up when it shows again. */
    private final BooleanProperty showing = new SimpleBooleanProperty(this, "showing", true);

    @FXML private FlowPane breakerList;
    @FXML private Label thresholdsLabel;

    private final dev.fulcrum.time.Ticker ticker;

    /** The cards on the window's clock ({@link UiSession#ticker()}). */
    public BreakersController(UiSession session) {
        this(session, session.ticker());
    }

    /** @param ticker the cards' clock (countdowns, how long a transition stays lit): a test's ManualClock */
    public BreakersController(UiSession session, dev.fulcrum.time.Ticker ticker) {
        this.session = session;
        this.ticker = ticker;
    }

    @FXML
    private void initialize() {
        session.stateProperty().addListener((o, a, s) -> show(s));
        session.poolProperty().addListener((o, a, p) -> show(session.state()));
        showing.addListener((o, was, now) -> show(session.state()));
        session.events().addListener((ListChangeListener<EngineEvent>) c -> {
            while (c.next()) {
                for (EngineEvent e : c.getAddedSubList()) {
                    if ("config".equals(e.type()) && "applied".equals(e.to()) && session.breakerConfig() != null) {
                        rereadThresholds();
                    }
                    if (("breaker".equals(e.type()) || "health".equals(e.type())) && e.backend() != null) {
                        transitions.computeIfAbsent(e.backend(), k -> new ArrayList<>()).add(e);
                        BreakerCard card = cards.get(e.backend());
                        if (card != null) {
                            card.transition(e);
                        }
                    }
                }
            }
        });
        showThresholds(session.breakerConfig());
        dev.fulcrum.ui.StageFrames.of(breakerList, showing::get, dev.fulcrum.ui.FramePacer.ofThisMachine(),
                t -> cards.values().forEach(BreakerCard::tick));
    }

    /** The header: the thresholds the engine runs now. */
    private void showThresholds(dev.fulcrum.config.BreakerConfig cfg) {
        // counts and milliseconds as written in the config (60000, not 60,000)
        thresholdsLabel.setText(cfg == null ? Texts.t("breakers.thresholds.none")
                : cfg.enabled() ? Texts.t("breakers.thresholds", String.valueOf(cfg.window()),
                        String.valueOf(cfg.minimumCalls()), BreakerStage.whole(cfg.failureRateThreshold()),
                        BreakerStage.whole(cfg.slowCallRateThreshold()), String.valueOf(cfg.slowCallMs()),
                        String.valueOf(cfg.openMs()), String.valueOf(cfg.halfOpenCalls()))
                : Texts.t("breakers.thresholds.disabled"));
    }

    /** A config applied (a saved file, a lesson, its Stop) may change the thresholds: read them again. */
    private void rereadThresholds() {
        session.call("read the breaker settings", () -> dev.fulcrum.config.ConfigLoader.parse(
                session.client().configJson()).circuitBreaker(), cfg -> {
                    session.setBreakerConfig(cfg);
                    showThresholds(cfg);
                }, null);
    }

    private BreakerCard card(String id) {
        return new BreakerCard(id, ticker, rate -> session.run((rate > 0 ? "trip " : "heal ") + id,
                () -> session.client().updateDemo(id, null, rate, false)));
    }

    /** The card of a backend shown now, or null; for tests. */
    BreakerCard cardOf(String id) {
        return cards.get(id);
    }

    public BooleanProperty showingProperty() {
        return showing;
    }

    private void show(EngineState s) {
        if (s == null || !showing.get()) {
            return;
        }
        List<String> ids = new ArrayList<>();
        for (EngineState.BackendInfo b : s.backends()) {
            if (!b.pool().equals(session.pool())) {
                continue;
            }
            ids.add(b.id());
            BreakerCard card = cards.computeIfAbsent(b.id(), this::card);
            card.demo(session.demoStateProperty().get().containsKey(b.id()));
            card.update(b, session.breakerConfig(), transitions.getOrDefault(b.id(), List.of()));
        }
        cards.keySet().retainAll(ids);
        List<BreakerCard> inOrder = ids.stream().map(cards::get).toList();
        if (!inOrder.equals(breakerList.getChildren())) {
            breakerList.getChildren().setAll(inOrder);
        }
    }
}
