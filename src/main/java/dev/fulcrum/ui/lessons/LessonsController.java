package dev.fulcrum.ui.lessons;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.lesson.Lesson;
import dev.fulcrum.lesson.LessonException;
import dev.fulcrum.lesson.LessonPlayer;
import dev.fulcrum.lesson.LessonReader;
import dev.fulcrum.lesson.Lessons;
import dev.fulcrum.lesson.Show;
import dev.fulcrum.ui.UiSession;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextInputControl;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.Duration;

/**
 * The Lessons tab: the shipped lessons (and any lesson file opened) with their summaries, and Play, which applies the
 * lesson's config to the window's engine in place, embedded or attached, and opens the narration panel beside the
 * views. While a lesson plays, Next, Space and Page Down advance and Back and Page Up go back, whatever has the focus
 * (a presenter's clicker sends Page Down; a step must never type a space into a field); each step switches to the view
 * it names, marks what it points at ({@link Highlighter}) and gives the focus to Next, and its checks tick as the
 * figures come in. The window's own traffic stops while a lesson plays (the lesson's seeded traffic is what its
 * figures count) and starts again, gently, after. Stop (or playing another lesson) gives the engine back the config
 * it ran before. The playing is
 * {@link LessonPlayer}'s (plain Java); this controller only shows it.
 */
public final class LessonsController {
    /**
     * What the tab needs of the main window: where the panel goes, how to switch views, and the window's root for the
     * space bar and for finding what to mark (the root, not the scene: a stage keeps its scene when it shows another
     * engine, and a listener there would keep this window's views alive).
     */
    public record Frame(Consumer<Node> beside, Consumer<String> select, Parent root) {
    }

    /** One entry of the list: a lesson, or a file that is none, with its problems. */
    record Entry(String name, Lesson lesson, String problem) {
    }

    private final UiSession session;
    private final AtomicReference<LessonPlayer.View> latest = new AtomicReference<>();
    private final AtomicBoolean posted = new AtomicBoolean();
    private Frame frame;
    private LessonPlayer player;
    /** The window's own traffic was running when the lesson began: it stopped for the lesson and comes back after. */
    private boolean trafficBefore;
    /** Done once the last player stopped has given the engine its config back. */
    private java.util.concurrent.CompletableFuture<?> restored = java.util.concurrent.CompletableFuture.completedFuture(null);
    private NarrationPanel panel;
    private Highlighter highlighter;
    private dev.fulcrum.ui.FxTicks.Ticking remark;
    private int shownStep = -1;

    @FXML private ListView<Entry> lessonList;
    @FXML private Button playLesson;
    @FXML private Button openLessonFile;

    public LessonsController(UiSession session) {
        this.session = session;
    }

    @FXML
    private void initialize() {
        List<Entry> entries = new ArrayList<>();
        for (String name : Lessons.SHIPPED) {
            try {
                entries.add(new Entry(name, LessonReader.readResource(Lessons.resource(name)), null));
            } catch (LessonException e) {
                entries.add(new Entry(name, null, String.join("\n", e.lines())));
            }
        }
        lessonList.getItems().setAll(entries);
        lessonList.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(Entry e, boolean empty) {
                super.updateItem(e, empty);
                if (empty || e == null) {
                    setGraphic(null);
                    setText(null);
                    return;
                }
                Label name = new Label(e.lesson() == null ? e.name() : e.lesson().title());
                name.getStyleClass().add("lesson-name");
                Label what = new Label(e.lesson() == null ? e.problem() : Texts.t("lessons.summary",
                        e.lesson().summary(), String.valueOf(e.lesson().steps().size())));
                what.getStyleClass().add(e.lesson() == null ? "lesson-problem" : "muted");
                what.setWrapText(true);
                what.maxWidthProperty().bind(lessonList.widthProperty().subtract(40));
                VBox box = new VBox(2, name, what);
                box.setId("lesson-" + e.name());
                setGraphic(box);
                setText(null);
            }
        });
        playLesson.disableProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(() -> {
            Entry e = lessonList.getSelectionModel().getSelectedItem();
            return e == null || e.lesson() == null;
        }, lessonList.getSelectionModel().selectedItemProperty()));
        playLesson.setOnAction(e -> play());
        lessonList.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2) {
                play();
            }
        });
        openLessonFile.setOnAction(e -> chooseFile());
        lessonList.getSelectionModel().select(0);
    }

    /** Wires the tab to its window: called once, after loading. */
    public void bind(Frame f) {
        this.frame = f;
        this.highlighter = new Highlighter(f.root());
        f.root().addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (player == null || e.isShortcutDown() || e.isAltDown()) {
                return;
            }
            switch (e.getCode()) {
                case SPACE, PAGE_DOWN -> next();
                case PAGE_UP -> back();
                default -> {
                    return;
                }
            }
            e.consume();
        });
        // a key released into a field after its press was taken would still type nothing, but a KEY_TYPED space would
        f.root().addEventFilter(KeyEvent.KEY_TYPED, e -> {
            if (player != null && " ".equals(e.getCharacter()) && e.getTarget() instanceof TextInputControl) {
                e.consume();
            }
        });
    }

    /** Plays the selected lesson from its first step (a lesson playing is stopped first). */
    public void play() {
        Entry e = lessonList.getSelectionModel().getSelectedItem();
        if (e == null || e.lesson() == null || frame == null) {
            return;
        }
        stop();
        // the lesson's own seeded traffic must be the only traffic its figures count
        trafficBefore = session.traffic().runningProperty().get();
        session.traffic().stop();
        panel = new NarrationPanel();
        panel.next.setOnAction(a -> next());
        panel.back.setOnAction(a -> back());
        panel.stop.setOnAction(a -> stop());
        frame.beside().accept(panel);
        shownStep = -1;
        player = LessonPlayer.onEngine(e.lesson(), session.client(), this::post, restored);
        remark = dev.fulcrum.ui.FxTicks.every(Duration.millis(500), () -> highlighter.refresh());
        player.start();
        panel.requestFocus(); // never a field: a space typed there would be lost to the room
    }

    public void next() {
        if (player != null) {
            player.next();
        }
    }

    public void back() {
        if (player != null) {
            player.back();
        }
    }

    /**
     * Stops the lesson (its traffic, a wait under way) and closes the panel; the engine gets back the config it ran
     * before the lesson, on the player's thread.
     */
    public void stop() {
        if (player != null) {
            player.close();
            restored = player.closed();
            player = null;
            if (trafficBefore) {
                trafficBefore = false;
                restored.thenRun(() -> javafx.application.Platform.runLater(session.traffic()::startGentle));
            }
        }
        if (remark != null) {
            remark.stop();
            remark = null;
        }
        if (highlighter != null) {
            highlighter.point(null, null);
        }
        if (panel != null && frame != null) {
            frame.beside().accept(null);
        }
        panel = null;
    }

    /** From the player's threads: the newest view, handed to the FX thread once per pulse at most. */
    private void post(LessonPlayer.View v) {
        latest.set(v);
        if (posted.compareAndSet(false, true)) {
            Platform.runLater(this::apply);
        }
    }

    private void apply() {
        posted.set(false);
        LessonPlayer.View v = latest.get();
        if (v == null || panel == null || player == null || v.lesson() != player.lesson()) {
            return;
        }
        panel.show(NarrationText.of(v));
        if (v.shown() != shownStep) {
            shownStep = v.shown();
            Show s = v.step().show();
            if (s != null && s.view() != null) {
                frame.select().accept(s.view());
            }
            highlighter.point(s == null ? null : s.view(), s == null ? null : s.backend());
            panel.requestFocus(); // never a field: a space typed there would be lost to the room
        }
    }

    private void chooseFile() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(Texts.t("lessons.open.title"));
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(Texts.t("lessons.open.filter"), "*.json"));
        File f = chooser.showOpenDialog(lessonList.getScene().getWindow());
        if (f != null) {
            open(f.toPath());
        }
    }

    /** Adds a lesson file to the list and selects it; a file that is no lesson shows its problems instead. */
    public void open(java.nio.file.Path file) {
        String name = file.getFileName().toString();
        Entry e;
        try {
            e = new Entry(name, LessonReader.read(file), null);
        } catch (LessonException ex) {
            e = new Entry(name, null, String.join("\n", ex.lines()));
        }
        lessonList.getItems().add(e);
        lessonList.getSelectionModel().select(e);
    }

    public ListView<?> list() {
        return lessonList;
    }

    public Button playButton() {
        return playLesson;
    }

    /** The lesson playing, or null. */
    public LessonPlayer player() {
        return player;
    }

    /** The node the step on screen points at, marked; null when none. */
    public Node marked() {
        return highlighter == null ? null : highlighter.marked();
    }

    /** Stops a lesson playing; from any thread (the window's own parts are let go of on the FX thread). */
    public void close() {
        if (Platform.isFxApplicationThread()) {
            stop();
            return;
        }
        LessonPlayer p = player;
        if (p != null) {
            p.close();
        }
        Platform.runLater(this::stop);
    }
}
