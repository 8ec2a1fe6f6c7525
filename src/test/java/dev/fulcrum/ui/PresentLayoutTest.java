package dev.fulcrum.ui;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.workshop.WorkshopContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tab;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * Present mode as a projector shows it: the whole window (every tab of the app, the workshop's and the lessons' too)
 * on an engine with traffic, a tripped breaker and a ring that just changed, Present on, the stage sized as the two
 * common projector screens (full screen is not available headless). On each tab, reached with the mouse as the room
 * sees it, no label's text is cut (its skin shows an ellipsis or less than its text), the admin chrome and the frames
 * counter are hidden, and the figures the room reads from the back are in large type.
 */
@Timeout(300)
class PresentLayoutTest {
    /** The projector screens: 720p, and the old 4:3 one. */
    static final double[][] SIZES = {{1280, 720}, {1024, 768}};
    /** Large type: a fifth over present mode's body text (24 px over 20), so it stands out from across a room. */
    static final double LARGE = 1.2;

    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    private RunningFulcrum fulcrum;
    private MainWindow window;

    @BeforeEach
    void open() {
        fulcrum = fx.closeAfter(RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(
                StrategySpec.bare("consistent-hash").with("key", "path").with("virtualNodes", 160),
                new BreakerConfig(true, 10, 5, 50, 2000, 100, 600_000, 2),
                List.of(demo("demo-a", 5, 0, 0), demo("demo-b", 3, 0, 0), demo("demo-c", 1, 0, 0),
                        demo("payments-eu-west-1", 1, 0, 1.0)))).start());
        UiSession session = new UiSession(new InProcessEngineClient(fulcrum.app()), "embedded engine (test)");
        session.setBreakerConfig(fulcrum.app().currentConfig().circuitBreaker());
        window = fx.show(session, WorkshopContext.embedded(fulcrum.app(), s -> { }), fulcrum.app());
        // keys on the ring, and calls that trip the failing backend's breaker (it stays OPEN: openMs is ten minutes)
        fx.onFx(() -> window.controller().select("Ring"));
        for (int i = 0; i < 120; i++) {
            fulcrum.proxied("/users/" + i);
        }
        fx.until(() -> {
            EngineState s = window.session().state();
            return s != null && s.backend("payments-eu-west-1").breaker() != null
                    && "OPEN".equals(s.backend("payments-eu-west-1").breaker().state());
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() ->
                window.controller().ring().viewModel().keys().seen()) >= 100);
        // a ring change moves some of the keys seen: the ring says how many, against what the what-if predicted
        fulcrum.engine().setWeight("demo-c", 3);
        await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() ->
                window.controller().ring().viewModel().movedProperty().get() != null));
    }

    @Test
    void everyTabIsReachedWithTheMouseAndEveryTextIsEnlargedAndWholeAtEitherProjectorSize(FxRobot robot) {
        // the size of every label of every tab as the window shows it normally, at 1280 x 720
        sizeTo(SIZES[0]);
        Map<Labeled, Double> normal = new IdentityHashMap<>();
        for (Tab tab : fx.onFx(() -> List.copyOf(window.controller().tabs().getTabs()))) {
            fx.onFx(() -> {
                window.controller().tabs().getSelectionModel().select(tab);
                laidOut();
                CutText.walk(window.scene().getRoot(), n -> {
                    if (n instanceof Labeled l && CutText.shown(l)) {
                        normal.put(l, l.getFont().getSize());
                    }
                });
            });
        }
        fx.onFx(() -> window.present().toggle());

        List<String> findings = new ArrayList<>();
        for (double[] size : SIZES) {
            String at = (int) size[0] + "x" + (int) size[1];
            sizeTo(size);
            List<Tab> tabs = fx.onFx(() -> List.copyOf(window.controller().tabs().getTabs()));
            for (Tab tab : tabs) {
                Node handle = fx.onFx(() -> CutText.reachable(window.scene(), tab));
                if (handle == null) {
                    findings.add(at + " tab " + tab.getText() + ": no header shown whole without the overflow menu");
                    fx.onFx(() -> window.controller().tabs().getSelectionModel().select(tab));
                } else {
                    robot.clickOn(handle);
                    if (!tab.isSelected()) {
                        findings.add(at + " tab " + tab.getText() + ": clicking its header does not select it");
                        fx.onFx(() -> window.controller().tabs().getSelectionModel().select(tab));
                    }
                }
                findings.addAll(fx.onFx(() -> {
                    laidOut();
                    List<String> out = CutText.cut(window.scene().getRoot(), at + " " + tab.getText());
                    CutText.walk(window.scene().getRoot(), n -> {
                        if (n instanceof Labeled l && CutText.shown(l) && normal.containsKey(l) && l.getText() != null
                                && !l.getText().isBlank() && l.getFont().getSize() <= normal.get(l)) {
                            out.add(at + " " + tab.getText() + ": " + CutText.describe(l) + " \"" + l.getText()
                                    + "\" not enlarged (" + l.getFont().getSize() + " px, as in normal mode "
                                    + normal.get(l) + ")");
                        }
                    });
                    return out;
                }));
            }
        }
        assertThat(findings).as("labels cut, not enlarged, or tabs out of reach in present mode").isEmpty();
    }

    @Test
    void pageDownWalksEveryTabAndTheStripShowsWhichIsSelected(FxRobot robot) {
        fx.onFx(() -> window.present().toggle());
        sizeTo(SIZES[1]);
        fx.onFx(() -> window.controller().tabs().getSelectionModel().select(0));
        List<Tab> tabs = fx.onFx(() -> List.copyOf(window.controller().tabs().getTabs()));
        robot.clickOn(CutText.reachable(window.scene(), tabs.get(0)));
        for (int i = 1; i <= tabs.size(); i++) {
            robot.type(KeyCode.PAGE_DOWN);
            Tab expected = tabs.get(i % tabs.size());
            assertThat(fx.onFx(() -> window.controller().tabs().getSelectionModel().getSelectedItem()))
                    .as("after %d Page Down", i).isSameAs(expected);
            ToggleButton pressed = fx.onFx(() -> (ToggleButton) CutText.reachable(window.scene(), expected));
            assertThat(pressed.isSelected()).as("the strip's button of " + expected.getText()).isTrue();
        }
    }

    @Test
    void theAdminChromeAndTheFramesCounterAreHidden() {
        fx.onFx(() -> window.present().toggle());
        for (double[] size : SIZES) {
            sizeTo(size);
            fx.onFx(() -> window.controller().select("Live"));
            List<String> shown = fx.onFx(() -> {
                laidOut();
                List<String> out = new ArrayList<>();
                for (String id : new String[] {"engineLabel", "darkToggle", "statusBar", "liveFrames", "exportHar",
                        "httpsButton"}) {
                    Node n = WindowHarness.anywhere(window, "#" + id);
                    assertThat(n).as(id).isNotNull();
                    if (CutText.shown(n) || n.getScene() == null && n.isVisible()) { // or in a tool bar's overflow menu
                        out.add(id);
                    }
                }
                return out;
            });
            assertThat(shown).as("shown in present mode at %.0fx%.0f", size[0], size[1]).isEmpty();
        }
    }

    @Test
    void theFiguresTheRoomReadsAreInLargeType() {
        fx.onFx(() -> window.present().toggle());
        List<String> small = new ArrayList<>();
        for (double[] size : SIZES) {
            sizeTo(size);
            double body = TextScale.presentPx(size[0]);
            assertThat(body).as("present mode's body text").isGreaterThan(TextScale.NORMAL_PX);
            for (String[] figure : new String[][] {{"Breakers", "#breakerState-payments-eu-west-1"},
                    {"Breakers", "#breakerState-demo-a"}, {"Ring", "#ringMoved"}, {"Ring", "#legend-demo-a"},
                    {"Ring", "#legend-demo-b"}}) {
                fx.onFx(() -> window.controller().select(figure[0]));
                small.addAll(fx.onFx(() -> {
                    laidOut();
                    Node n = window.scene().lookup(figure[1]);
                    assertThat(n).as(figure[1]).isInstanceOf(Labeled.class);
                    double px = ((Labeled) n).getFont().getSize();
                    return px >= LARGE * body ? List.<String>of()
                            : List.of((int) size[0] + " " + figure[0] + " " + figure[1] + " at " + px + " px, body "
                                    + body + " px");
                }));
            }
        }
        assertThat(small).as("key figures under %.1f times the body text in present mode", LARGE).isEmpty();
    }

    private void sizeTo(double[] size) {
        fx.onFx(() -> {
            Stage stage = fx.stage();
            stage.setFullScreen(false);
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(size[0]);
            stage.setHeight(size[1]);
        });
        fx.onFx(this::laidOut);
    }

    /** CSS and layout brought up to date, so each label's skin shows what it makes of its text now. */
    private void laidOut() {
        Parent root = window.scene().getRoot();
        root.applyCss();
        root.layout();
    }
}
