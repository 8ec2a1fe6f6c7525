package dev.fulcrum.ui;

import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.ToggleButton;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Region;

/**
 * The window's tabs as a row of buttons that wraps onto the next row rather than hide the last tabs behind the tab
 * pane's overflow menu. Present mode shows it in place of the tab pane's own headers: at a projector's 1024 or 1280
 * pixels and present mode's type, fifteen tabs take two rows, and every view stays one click away (Page Up and Page
 * Down step through the same tabs).
 *
 * <p>One button per tab, in the tabs' order and named as the tab is; the selected tab's button is pressed. Tabs added
 * or removed later (Requests, the workshop's, Lessons, Demo faults) follow. Each button carries its tab in its
 * properties under {@code Tab.class}, as the tab pane's own header does.
 */
final class TabStrip extends FlowPane {
    private final TabPane tabs;

    TabStrip(TabPane tabs) {
        this.tabs = tabs;
        setId("tabStrip");
        getStyleClass().add("tab-strip");
        tabs.getTabs().addListener((ListChangeListener<Tab>) c -> rebuild());
        tabs.getSelectionModel().selectedItemProperty().addListener((o, a, t) -> mark());
        rebuild();
    }

    private void rebuild() {
        getChildren().clear();
        for (Tab tab : tabs.getTabs()) {
            ToggleButton b = new ToggleButton();
            b.textProperty().bind(tab.textProperty());
            b.getStyleClass().add("tab-strip-button");
            b.getProperties().put(Tab.class, tab);
            // a name is never cut: the strip wraps instead
            b.setMinWidth(Region.USE_PREF_SIZE);
            // the keys stay with the view: Space pauses and Page Up/Down change tab, not press a focused button
            b.setFocusTraversable(false);
            b.setOnAction(e -> {
                tabs.getSelectionModel().select(tab);
                mark(); // pressing the selected tab's button again leaves it pressed
            });
            getChildren().add(b);
        }
        mark();
    }

    private void mark() {
        Tab selected = tabs.getSelectionModel().getSelectedItem();
        for (Node n : getChildren()) {
            ((ToggleButton) n).setSelected(n.getProperties().get(Tab.class) == selected);
        }
    }
}
