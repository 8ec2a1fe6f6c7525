package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RunningFulcrum;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.StackPane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.util.WaitForAsyncUtils;

/** Only the selected tab's view is in the scene graph; the others are held, whole, until their tab is selected. */
@Timeout(60)
class ParkedTabsTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    /** A view that counts the layout passes it is given. */
    static final class Counted extends StackPane {
        final AtomicInteger layouts = new AtomicInteger();

        Counted(String text) {
            getChildren().add(new Label(text));
        }

        @Override
        protected void layoutChildren() {
            layouts.incrementAndGet();
            super.layoutChildren();
        }
    }

    @Test
    void aHiddenTabsViewIsGivenNoLayoutPassAndIsShownWholeWhenSelected() {
        Counted shown = new Counted("shown");
        Counted hidden = new Counted("hidden");
        Tab first = new Tab("First", shown);
        Tab second = new Tab("Second", hidden);
        TabPane pane = fx.onFx(() -> {
            TabPane p = new TabPane(first, second);
            new ParkedTabs(p);
            fx.stage().setScene(new Scene(p, 400, 300));
            fx.stage().show();
            return p;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.onFx(second::getContent)).isNull();
        assertThat(hidden.getScene()).isNull();

        // a hidden view asked to lay out again and again (a chart given a sample a second) is not laid out
        int before = hidden.layouts.get();
        for (int i = 0; i < 5; i++) {
            fx.onFx(hidden::requestLayout);
            WaitForAsyncUtils.waitForFxEvents();
        }
        assertThat(hidden.layouts.get()).isEqualTo(before);

        // selected, it is the same view, in the scene and laid out; the other tab's leaves
        fx.onFx(() -> pane.getSelectionModel().select(second));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.onFx(second::getContent)).isSameAs(hidden);
        assertThat(hidden.getScene()).isNotNull();
        assertThat(hidden.layouts.get()).isGreaterThan(before);
        assertThat(fx.onFx(first::getContent)).isNull();
        assertThat(shown.getScene()).isNull();
    }

    @Test
    void aViewSetLateOnAHiddenTabIsHeldAndARemovedTabHasItsViewBack() {
        Tab first = new Tab("First", new Label("one"));
        Tab late = new Tab("Late");
        Tab removed = new Tab("Removed", new Label("three"));
        Map<String, Boolean> seen = fx.onFx(() -> {
            TabPane p = new TabPane(first, late, removed);
            ParkedTabs parked = new ParkedTabs(p);
            Label built = new Label("built when first needed");
            late.setContent(built); // a view built while its tab is not selected
            Node heldLate = late.getContent();
            Node contentOfLate = parked.content(late);
            p.getTabs().remove(removed);
            Tab added = new Tab("Added", new Label("four"));
            p.getTabs().add(added);
            return Map.of("heldLate", heldLate == null, "contentOfLate", contentOfLate == built,
                    "removedHasItsView", removed.getContent() != null,
                    "addedIsHeld", added.getContent() == null && parked.content(added) != null,
                    "selectedShown", first.getContent() != null);
        });
        assertThat(seen).hasSize(5).allSatisfy((what, held) -> assertThat(held).as(what).isTrue());
    }

    @Test
    void theWindowOnLiveHoldsTheOtherViewsOffTheSceneAndShowsEachWhenSelected() {
        MainWindow window = fx.open(RunningFulcrum.demoApp());
        WaitForAsyncUtils.waitForFxEvents();
        MainController main = window.controller();
        fx.onFx(() -> main.select("Live"));
        Tab live = fx.onFx(() -> main.tabs().getSelectionModel().getSelectedItem());
        assertThat(MainController.viewName(live)).isEqualTo("Live");
        for (Tab t : fx.onFx(() -> java.util.List.copyOf(main.tabs().getTabs()))) {
            if (t == live) {
                continue;
            }
            Node view = fx.onFx(() -> main.parkedTabs().content(t));
            assertThat(fx.onFx(t::getContent)).as(MainController.viewName(t)).isNull();
            if (view != null) { // a workshop view not built yet has none
                assertThat(view.getScene()).as(MainController.viewName(t)).isNull();
            }
        }
        Node backends = fx.onFx(() -> main.parkedTabs().content(main.tabsByName().get("Backends")));
        fx.onFx(() -> main.select("Backends"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(backends.getScene()).isSameAs(window.scene());
        assertThat(fx.onFx(() -> main.parkedTabs().content(live)).getScene()).isNull();
    }
}
