package dev.fulcrum.ui.workshop;

import dev.fulcrum.ui.Views;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.workshop.scenarios.ScenariosController;
import dev.fulcrum.ui.workshop.sidebyside.SideBySideController;
import dev.fulcrum.ui.workshop.traffic.TrafficController;
import dev.fulcrum.ui.workshop.why.WhyController;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import javafx.scene.Parent;
import javafx.scene.control.Tab;

/**
 * The workshop views as tabs for the main window: Traffic (generator, spike, record and replay), Side by side,
 * Why this backend, Scenarios. Self-contained: each view loads {@code fxml/workshop-*.fxml} with its
 * controller built from the {@link UiSession} and a {@link WorkshopContext}, and carries
 * {@code styles/workshop.css} itself.
 *
 * <p>Plug in: {@code tabs.getTabs().addAll(WorkshopTabs.create(session, ctx).tabs())}; call
 * {@link Workshop#close()} when the window closes (it stops a running generator).
 */
public final class WorkshopTabs {
    private static final java.util.Set<String> FLEET_LESS = java.util.Set.of("workshopTrafficTab", "workshopWhyTab");

    private WorkshopTabs() {
    }

    /**
     * The four tabs and their controllers: Traffic built at once (the Live toolbar's Start traffic runs its generator
     * with its settings and shows its state on its buttons), the other three the first time each is selected, asked
     * for, or, for Side by side, sent a replayed trace. Their views are a third of the window's scene graph (about 760
     * nodes) and 30-40 MB of its resident memory, and most sessions never open them. FX thread only.
     */
    public static final class Workshop implements AutoCloseable {
        private final UiSession session;
        private final WorkshopContext ctx;
        private final TrafficController traffic;
        private final List<Tab> tabs;
        private final Tab sbsTab;
        private final Tab whyTab;
        private final Tab scenariosTab;
        private SideBySideController sideBySide;
        private WhyController why;
        private ScenariosController scenarios;

        private Workshop(UiSession session, WorkshopContext ctx) {
            this.session = session;
            this.ctx = ctx;
            Views.Loaded<TrafficController> t = load("workshop-traffic", session, ctx);
            traffic = t.controller();
            Tab trafficTab = tab("Traffic", Texts.t("workshop.tab.traffic"), "workshopTrafficTab", t.root());
            sbsTab = tab("Side by side", Texts.t("workshop.tab.sidebyside"), "workshopSideBySideTab", null);
            whyTab = tab("Why this backend", Texts.t("workshop.tab.why"), "workshopWhyTab", null);
            scenariosTab = tab("Scenarios", Texts.t("workshop.tab.scenarios"), "workshopScenariosTab", null);
            onFirstSelection(sbsTab, this::sideBySide);
            onFirstSelection(whyTab, this::why);
            onFirstSelection(scenariosTab, this::scenarios);
            traffic.onReplayIntoSideBySide((trace, label) -> {
                sideBySide().useTrace(trace, label);
                if (sbsTab.getTabPane() != null) {
                    sbsTab.getTabPane().getSelectionModel().select(sbsTab);
                }
            });
            tabs = List.of(trafficTab, sbsTab, whyTab, scenariosTab);
        }

        /** Traffic, Side by side, Why this backend, Scenarios. */
        public List<Tab> tabs() {
            return tabs;
        }

        /**
         * The tabs that work against the engine shown: an HAProxy fleet has no proxy of ours to send traffic through
         * and no pick to explain, so Traffic and Why this backend are left out there (they could only fail).
         * Side by side simulates on its own and Scenarios only opens files.
         */
        public List<Tab> tabsFor(boolean haproxyFleet) {
            return haproxyFleet ? tabs.stream().filter(t -> !FLEET_LESS.contains(t.getId())).toList() : tabs;
        }

        public TrafficController traffic() {
            return traffic;
        }

        /** Side by side's controller, its view built now if it was not yet. */
        public SideBySideController sideBySide() {
            if (sideBySide == null) {
                sideBySide = build("workshop-sidebyside", sbsTab);
            }
            return sideBySide;
        }

        /** Why this backend's controller, its view built now if it was not yet. */
        public WhyController why() {
            if (why == null) {
                why = build("workshop-why", whyTab);
            }
            return why;
        }

        /** Scenarios' controller, its view built now if it was not yet. */
        public ScenariosController scenarios() {
            if (scenarios == null) {
                scenarios = build("workshop-scenarios", scenariosTab);
            }
            return scenarios;
        }

        private <C> C build(String view, Tab tab) {
            Views.Loaded<C> loaded = load(view, session, ctx);
            tab.setContent(loaded.root());
            return loaded.controller();
        }

        private static void onFirstSelection(Tab tab, Runnable build) {
            tab.selectedProperty().addListener(new javafx.beans.value.ChangeListener<>() {
                @Override
                public void changed(javafx.beans.value.ObservableValue<? extends Boolean> o, Boolean was, Boolean now) {
                    if (now) {
                        o.removeListener(this);
                        build.run();
                    }
                }
            });
        }

        /** Stops a running generator and a running comparison. */
        @Override
        public void close() {
            traffic.close();
            if (sideBySide != null) {
                sideBySide.close();
            }
        }
    }

    /** The four tabs with every view built at once, on the FX thread (tests drive the controllers). */
    public static Workshop create(UiSession session, WorkshopContext ctx) {
        Workshop w = new Workshop(session, ctx);
        w.sideBySide();
        w.why();
        w.scenarios();
        return w;
    }

    /** The window's workshop tabs, each view but Traffic's built when first needed ({@link Workshop}), on the FX thread. */
    public static Workshop lazy(UiSession session, WorkshopContext ctx) {
        return new Workshop(session, ctx);
    }

    /**
     * A tab titled in the window's language; {@code viewName}, its English name, is what lessons and tests select it by
     * ({@code MainController.viewName}).
     */
    private static Tab tab(String viewName, String title, String id, Parent root) {
        Tab t = new Tab(title, root);
        t.setUserData(viewName);
        t.setId(id);
        t.setClosable(false);
        return t;
    }

    /** {@link Views#load} with controllers taking {@code (UiSession, WorkshopContext)}, and the workshop's stylesheet. */
    static <C> Views.Loaded<C> load(String name, UiSession session, WorkshopContext ctx) {
        Views.Loaded<C> loaded = Views.load(name, type -> {
            try {
                return type.getConstructor(UiSession.class, WorkshopContext.class).newInstance(session, ctx);
            } catch (ReflectiveOperationException e) {
                Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
                throw new IllegalStateException("cannot create controller " + type.getName() + ": " + cause, cause);
            }
        });
        loaded.root().getStylesheets().add(Views.stylesheet("workshop"));
        return loaded;
    }
}
