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

    /** The tabs and their controllers (tests and the window's tour drive the controllers). */
    public record Workshop(List<Tab> tabs, TrafficController traffic, SideBySideController sideBySide,
                           WhyController why, ScenariosController scenarios) implements AutoCloseable {
        @Override
        public void close() {
            traffic.close();
            sideBySide.close();
        }

        /**
         * The tabs that work against the engine shown: an HAProxy fleet has no proxy of ours to send traffic through
         * and no pick to explain, so Traffic and Why this backend are left out there (they could only fail).
         * Side by side simulates on its own and Scenarios only opens files.
         */
        public List<Tab> tabsFor(boolean haproxyFleet) {
            return haproxyFleet ? tabs.stream().filter(t -> !FLEET_LESS.contains(t.getId())).toList() : tabs;
        }
    }

    /** Builds the four tabs on the FX thread. A replayed trace sent "into side-by-side" selects that tab. */
    public static Workshop create(UiSession session, WorkshopContext ctx) {
        Views.Loaded<TrafficController> traffic = load("workshop-traffic", session, ctx);
        Views.Loaded<SideBySideController> sbs = load("workshop-sidebyside", session, ctx);
        Views.Loaded<WhyController> why = load("workshop-why", session, ctx);
        Views.Loaded<ScenariosController> scenarios = load("workshop-scenarios", session, ctx);
        Tab trafficTab = tab("Traffic", Texts.t("workshop.tab.traffic"), "workshopTrafficTab", traffic.root());
        Tab sbsTab = tab("Side by side", Texts.t("workshop.tab.sidebyside"), "workshopSideBySideTab", sbs.root());
        Tab whyTab = tab("Why this backend", Texts.t("workshop.tab.why"), "workshopWhyTab", why.root());
        Tab scenariosTab = tab("Scenarios", Texts.t("workshop.tab.scenarios"), "workshopScenariosTab", scenarios.root());
        traffic.controller().onReplayIntoSideBySide((trace, label) -> {
            sbs.controller().useTrace(trace, label);
            if (sbsTab.getTabPane() != null) {
                sbsTab.getTabPane().getSelectionModel().select(sbsTab);
            }
        });
        return new Workshop(List.of(trafficTab, sbsTab, whyTab, scenariosTab), traffic.controller(),
                sbs.controller(), why.controller(), scenarios.controller());
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
