package dev.fulcrum.ui.fleet;

import dev.fulcrum.admin.fleet.EtcdFleetClient;
import dev.fulcrum.admin.fleet.FleetInstance;
import dev.fulcrum.admin.fleet.FleetSource;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;

/**
 * The Instances tab of a window attached to an etcd fleet: every Fulcrum that registered under the prefix, up or
 * gone, with its proxy and admin URLs, version, the config revision it applied (and whether it refused the latest),
 * and since when it is up or gone; above the table, how many are up and the config's revision. {@link #refresh()} reads
 * the list again (the client keeps it from etcd's watch, so reading it costs nothing); the window does each second.
 */
public final class InstancesTab {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private final EtcdFleetClient fleet;
    private final TableView<FleetInstance> table = new TableView<>();
    private final Label summary = new Label();
    private final Tab tab;

    private InstancesTab(UiSession session, EtcdFleetClient fleet) {
        this.fleet = fleet;
        table.setId("instancesTable");
        summary.setId("instancesSummary");
        summary.setWrapText(true);
        summary.setPadding(new Insets(8, 12, 8, 12));
        table.setPlaceholder(new Label(Texts.t("fleet.none", fleet.url())));
        table.getColumns().add(column("fleet.column.id", "instanceId", 150, FleetInstance::id));
        table.getColumns().add(column("fleet.column.state", "instanceState", 80,
                i -> Texts.t(i.up() ? "fleet.state.up" : "fleet.state.gone")));
        table.getColumns().add(column("fleet.column.config", "instanceConfig", 190, InstancesTab::configText));
        table.getColumns().add(column("fleet.column.proxy", "instanceProxy", 180, FleetInstance::proxy));
        table.getColumns().add(column("fleet.column.admin", "instanceAdmin", 180, FleetInstance::admin));
        table.getColumns().add(column("fleet.column.version", "instanceVersion", 80, FleetInstance::version));
        table.getColumns().add(column("fleet.column.since", "instanceSince", 90,
                i -> i.since() == 0 ? "" : CLOCK.format(Instant.ofEpochMilli(i.since()))));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(FleetInstance i, boolean empty) {
                super.updateItem(i, empty);
                getStyleClass().removeAll("instance-gone", "instance-refused");
                if (!empty && i != null) {
                    if (!i.up()) {
                        getStyleClass().add("instance-gone");
                    } else if (i.refused()) {
                        getStyleClass().add("instance-refused");
                    }
                }
            }
        });
        BorderPane root = new BorderPane(table);
        root.setTop(summary);
        tab = new Tab(Texts.t("fleet.tab"), root);
        tab.setId("instancesTab");
        tab.setUserData("Instances"); // the view's English name: lessons and tests select it by this
        tab.setClosable(false);
        refresh();
    }

    /** The tab on {@code fleet}'s instances. FX thread. */
    public static InstancesTab create(UiSession session, EtcdFleetClient fleet) {
        return new InstancesTab(session, fleet);
    }

    public Tab tab() {
        return tab;
    }

    /** Reads the instances again. FX thread. */
    public void refresh() {
        List<FleetInstance> all = fleet.fleet();
        if (!all.equals(table.getItems())) {
            table.getItems().setAll(all);
        }
        FleetSource source = fleet.source();
        long up = all.stream().filter(FleetInstance::up).count();
        summary.setText(Texts.t("fleet.summary", Long.toString(up), Long.toString(all.size() - up),
                Long.toString(source.revision()), source.key()));
    }

    /** "7", "7, refused the latest", "none yet". */
    static String configText(FleetInstance i) {
        String revision = i.configRevision() == 0 ? Texts.t("fleet.config.none") : Long.toString(i.configRevision());
        if (i.refused()) {
            return Texts.t("fleet.config.refused", revision);
        }
        if ("unreachable".equals(i.configState())) {
            return Texts.t("fleet.config.unreachable", revision);
        }
        return revision;
    }

    private static TableColumn<FleetInstance, String> column(String key, String id, double width,
                                                             Function<FleetInstance, String> value) {
        TableColumn<FleetInstance, String> c = new TableColumn<>(Texts.t(key));
        c.setId(id);
        c.setPrefWidth(width);
        c.setCellValueFactory(f -> new ReadOnlyStringWrapper(f.getValue() == null ? "" : value.apply(f.getValue())));
        return c;
    }
}
