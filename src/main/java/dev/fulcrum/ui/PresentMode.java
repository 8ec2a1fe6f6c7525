package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.i18n.Texts;
import javafx.scene.Scene;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextInputControl;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.stage.Stage;

/**
 * Present mode and the trainer's keys. F11 (or the toolbar's Present button) toggles full screen, a large type scale
 * ({@link TextScale}: sized to the window's width) and a high-contrast palette that reads on a projector, with the
 * admin chrome (engine line, theme switch, status bar, the controls the views mark {@code admin}) hidden and the tabs
 * as a strip that wraps ({@link MainController#showChrome}). The keys, in any mode, unless a text field has the
 * focus:
 * <ul>
 *   <li>Space: pause every view, or back to live;</li>
 *   <li>Page Down / Page Up: the next or previous tab;</li>
 *   <li>+ / -: the selected backend's weight up or down by one;</li>
 *   <li>T / H: trip or heal the selected demo backend (every answer an error, or none).</li>
 * </ul>
 * The selected backend is the one last clicked on the Live stage or in the Backends table.
 */
public final class PresentMode {
    static final String STYLE = "present";

    private final Stage stage;
    private final Scene scene;
    private final UiSession session;
    private final MainController main;
    private final BackendCommands commands;
    private boolean on;

    PresentMode(Stage stage, Scene scene, UiSession session, MainController main) {
        this.stage = stage;
        this.scene = scene;
        this.session = session;
        this.main = main;
        this.commands = new BackendCommands(session);
        // on the root, not the scene: a window reopened on another engine keeps its scene, and must not keep this
        scene.getRoot().addEventFilter(KeyEvent.KEY_PRESSED, this::key);
        main.presentButton().setOnAction(e -> toggle());
    }

    public boolean on() {
        return on;
    }

    public void toggle() {
        on = !on;
        if (on) {
            scene.getRoot().getStyleClass().add(STYLE);
        } else {
            scene.getRoot().getStyleClass().remove(STYLE);
        }
        main.showChrome(!on);
        main.live().setTextScale(on ? 1.6 : 1);
        stage.setFullScreenExitHint("");
        stage.setFullScreen(on);
    }

    private void key(KeyEvent e) {
        if (e.isConsumed()) {
            return; // a lesson playing took it (its space bar is Next)
        }
        if (e.getCode() == KeyCode.F11) {
            toggle();
            e.consume();
            return;
        }
        if (scene.getFocusOwner() instanceof TextInputControl || e.isShortcutDown() || e.isAltDown()) {
            return;
        }
        TabPane tabs = main.tabs();
        switch (e.getCode()) {
            case SPACE -> {
                if (session.timeMachine().live()) {
                    session.timeMachine().pause();
                } else {
                    session.timeMachine().backToLive();
                }
            }
            case PAGE_DOWN -> tabs.getSelectionModel().select((tabs.getSelectionModel().getSelectedIndex() + 1)
                    % tabs.getTabs().size());
            case PAGE_UP -> tabs.getSelectionModel().select((tabs.getSelectionModel().getSelectedIndex()
                    + tabs.getTabs().size() - 1) % tabs.getTabs().size());
            case PLUS, ADD, EQUALS -> reweight(1);
            case MINUS, SUBTRACT -> reweight(-1);
            case T -> fault(1.0);
            case H -> fault(0.0);
            default -> {
                return;
            }
        }
        e.consume();
    }

    private EngineState.BackendInfo selected() {
        String id = session.selectedBackendProperty().get();
        EngineState s = session.state();
        return id == null || s == null ? null : s.backend(id);
    }

    private void reweight(int by) {
        EngineState.BackendInfo b = selected();
        if (b != null) {
            int to = Math.max(0, Math.min(1000, b.weight() + by));
            commands.setWeight(b.id(), b.weight(), to);
        }
    }

    /** A demo backend's error rate to {@code rate} (1: every answer a 500, so its breaker trips; 0: healed). */
    private void fault(double rate) {
        EngineState.BackendInfo b = selected();
        if (b != null && session.demoStateProperty().get().containsKey(b.id())) {
            String what = rate > 0 ? Texts.t("present.trip", b.id()) : Texts.t("present.heal", b.id());
            session.run(what, () -> session.client().updateDemo(b.id(), null, rate, false));
        }
    }
}
