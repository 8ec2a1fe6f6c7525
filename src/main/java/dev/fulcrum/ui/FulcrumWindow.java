package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.InProcessEngineClient;
import dev.fulcrum.app.FulcrumApp;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.cell.PropertyValueFactory;
import javafx.scene.layout.BorderPane;
import javafx.stage.Stage;

/** The desktop window (issue 5 fills in the views). */
public final class FulcrumWindow extends Application {
    private final ObservableList<EngineState.BackendInfo> rows = FXCollections.observableArrayList();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fulcrum-ui-sampler");
        t.setDaemon(true);
        return t;
    });
    private FulcrumApp app;
    private EngineClient client;

    @Override
    public void start(Stage stage) {
        TableView<EngineState.BackendInfo> table = new TableView<>(rows);
        for (String f : new String[] {"id", "url", "weight", "state", "activeRequests", "rps"}) {
            TableColumn<EngineState.BackendInfo, Object> c = new TableColumn<>(f);
            c.setCellValueFactory(new PropertyValueFactory<>(f));
            table.getColumns().add(c);
        }
        Label status = new Label("starting…");
        BorderPane root = new BorderPane(table, null, null, status, null);
        stage.setScene(new Scene(root, 900, 600));
        stage.setTitle("Fulcrum");
        stage.show();
        sampler.execute(() -> {
            try {
                Gui.Options o = Gui.options();
                app = FulcrumApp.start(o.embedded().config(), o.embedded().configFile());
                client = new InProcessEngineClient(app);
                String d = client.describe();
                Platform.runLater(() -> {
                    stage.setTitle("Fulcrum — " + d);
                    status.setText(d);
                });
                sampler.scheduleWithFixedDelay(() -> {
                    EngineState s = client.state();
                    Platform.runLater(() -> rows.setAll(s.backends()));
                }, 0, 200, TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                Platform.runLater(() -> status.setText("cannot start: " + e.getMessage()));
            }
        });
    }

    @Override
    public void stop() {
        sampler.shutdownNow();
        if (app != null) {
            app.close();
        }
    }
}
