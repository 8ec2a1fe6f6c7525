package dev.fulcrum.ui;

import java.util.HashMap;
import java.util.Map;
import javafx.beans.value.ChangeListener;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;

/**
 * Keeps the views of the tabs not selected out of the scene graph: each such tab's content is held here and the tab
 * shows none, until it is selected again. JavaFX lays out, styles and keeps the render state of a tab pane's hidden
 * contents on every pulse as if they were shown (a hidden tab's chart measures its axis labels each time a sample
 * arrives), which cost the window at rest about a third of its resident memory and most of its allocation; a view off
 * the scene graph costs nothing per pulse and is laid out and styled once when shown again. Its nodes, controllers
 * and models live on unchanged: a parked view keeps its state (selection, scroll position, sort) and its data.
 *
 * <p>Content set on a tab while it is not selected (a view built late) is parked as it arrives; a tab removed from
 * the pane gets its content back. {@link #content} is a tab's view whether shown or parked, for code that walks every
 * view. FX thread only.
 */
public final class ParkedTabs {
    private final TabPane pane;
    private final Map<Tab, Node> parked = new HashMap<>();
    /** True while this class itself sets a tab's content, which its content listener must let through. */
    private boolean moving;
    private final ChangeListener<Node> contentSet = (o, was, now) -> {
        if (!moving && now != null) {
            Tab tab = (Tab) ((javafx.beans.property.ReadOnlyProperty<?>) o).getBean();
            if (!tab.isSelected()) {
                park(tab);
            } else {
                parked.remove(tab); // a new view replaces the one held
            }
        }
    };

    public ParkedTabs(TabPane pane) {
        this.pane = pane;
        pane.getTabs().forEach(this::watch);
        pane.getTabs().addListener((ListChangeListener<Tab>) c -> {
            while (c.next()) {
                c.getRemoved().forEach(this::unwatch);
                c.getAddedSubList().forEach(this::watch);
            }
        });
        pane.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (was != null && pane.getTabs().contains(was)) {
                park(was);
            }
            if (now != null) {
                show(now);
            }
        });
    }

    /** {@code tab}'s view: its content when shown, the one held here when parked. */
    public Node content(Tab tab) {
        Node n = tab.getContent();
        return n != null ? n : parked.get(tab);
    }

    private void watch(Tab tab) {
        tab.contentProperty().addListener(contentSet);
        if (!tab.isSelected()) {
            park(tab);
        }
    }

    private void unwatch(Tab tab) {
        tab.contentProperty().removeListener(contentSet);
        show(tab);
    }

    private void park(Tab tab) {
        Node n = tab.getContent();
        if (n != null) {
            parked.put(tab, n);
            set(tab, null);
        }
    }

    private void show(Tab tab) {
        Node n = parked.remove(tab);
        if (n != null && tab.getContent() == null) {
            set(tab, n);
        }
    }

    private void set(Tab tab, Node content) {
        moving = true;
        try {
            tab.setContent(content);
        } finally {
            moving = false;
        }
    }
}
