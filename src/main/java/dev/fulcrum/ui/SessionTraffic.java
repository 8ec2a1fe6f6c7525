package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.HttpEngineClient;
import dev.fulcrum.admin.haproxy.HaproxyFleetClient;
import dev.fulcrum.demo.TrafficGenerator;
import dev.fulcrum.demo.TrafficRecorder;
import dev.fulcrum.demo.TrafficReplay;
import dev.fulcrum.demo.TrafficRequest;
import dev.fulcrum.demo.TrafficSettings;
import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.engine.sim.KeyDistribution;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.replay.LiveReplay;
import dev.fulcrum.replay.ReplayFiles;
import dev.fulcrum.replay.ReplayProgress;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ChangeListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The window's traffic generator: real HTTP through the engine's proxy, one run at a time (a generated run or a
 * replay). The session owns it ({@link UiSession#traffic()}), so every part of the window that starts or stops traffic
 * drives this one run and shows its state: the Traffic tab's form and its Start and Stop, the Live toolbar's Start/Stop
 * traffic, the gentle traffic the window opens with on its embedded default config ({@link #startGentle()}), and a
 * lesson that starts to play ({@link #stop()}).
 *
 * <p>Seen from the FX thread: the latest {@link TrafficSnapshot}, whether a run is going, and a message (what is sent,
 * what is recorded, what went wrong). The generator's listeners fire on its own thread about four times a second; each
 * snapshot is handed to the FX thread with {@code runLater}, so the properties change on the FX thread only. Every run
 * is bounded by its duration (a replay by its trace), and {@link #close()} ends one at once.
 */
public final class SessionTraffic implements AutoCloseable {
    /** The Traffic tab's settings until they are changed there: what Start sends. */
    public static final double DEFAULT_RATE = 50;
    public static final int DEFAULT_CONCURRENCY = 64;
    /** Long enough to talk a demo through (Stop ends a run sooner). */
    public static final int DEFAULT_DURATION_S = 120;
    public static final int DEFAULT_KEYS = 100;
    /** The Zipf exponent of the keys drawn: a few keys often, most of them rarely. */
    public static final double DEFAULT_ZIPF = 1.0;
    /**
     * The traffic the window opens with on its embedded default config: slow enough that each request is a dot of its
     * own on the Live stage (it draws up to 200 a second before one dot stands for several), fast enough that every
     * backend gets some each second.
     */
    public static final double GENTLE_RATE = 25;
    /** An hour, the longest run the Traffic tab offers: the first part of a workshop. */
    public static final int GENTLE_DURATION_S = 3600;

    private static final Logger LOG = LoggerFactory.getLogger(SessionTraffic.class);

    private final UiSession session;
    private final ReadOnlyObjectWrapper<TrafficSnapshot> snapshot = new ReadOnlyObjectWrapper<>(this, "snapshot");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(this, "running");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private final List<Runnable> startListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<TrafficSnapshot>> snapshotListeners = new CopyOnWriteArrayList<>();
    private Supplier<TrafficSettings> form;
    /** The run this session shows, until another replaces it or it is let go of; written on the FX thread. */
    private volatile Run current;
    private ChangeListener<EngineState> waitingForProxy;
    // the live replay of a recording (HAR, nginx log, Fulcrum's access log): one at a time, beside the generator's run
    private final ReadOnlyObjectWrapper<ReplayProgress> replayProgress = new ReadOnlyObjectWrapper<>(this,
            "replayProgress");
    private final ReadOnlyBooleanWrapper replayRunning = new ReadOnlyBooleanWrapper(this, "replayRunning");
    private final ReadOnlyStringWrapper replayMessage = new ReadOnlyStringWrapper(this, "replayMessage", "");
    private volatile LiveReplay liveReplay;
    /** Cancel was pressed while the recording was being read: it is not replayed. */
    private volatile boolean cancelledWhileReading;
    private ChangeListener<EngineState> replayWaitingForProxy;

    SessionTraffic(UiSession session) {
        this.session = session;
    }

    /** Whether the engine can take this traffic: an HAProxy fleet has no proxy of ours to send it through. */
    public boolean possible() {
        return !(session.client() instanceof HaproxyFleetClient);
    }

    /** Whether the proxy's address is known (after the first sample): traffic can start. FX thread. */
    public boolean ready() {
        EngineState s = session.state();
        return possible() && s != null && s.proxy() != null;
    }

    /**
     * Where to send to reach a proxy that reports {@code host}: a wildcard address (0.0.0.0, ::) is the engine's
     * every interface, so the host the window reaches the engine's admin API on (or loopback, embedded). Sent as
     * reported, traffic for a remote engine would go to 0.0.0.0, which is this machine.
     */
    public static String reachable(String host, String adminHost) {
        boolean any = host == null || host.equals("0.0.0.0") || host.equals("[::]") || host.equals("::")
                || host.equals("[0:0:0:0:0:0:0:0]");
        if (!any) {
            return host;
        }
        return adminHost == null || adminHost.isEmpty() ? "127.0.0.1" : adminHost;
    }

    /** The engine's proxy, as this machine reaches it. FX thread. */
    public URI target() {
        EngineState s = session.state();
        if (s == null || s.proxy() == null) {
            throw new IllegalStateException(Texts.t("main.traffic.noproxy"));
        }
        URI proxy = URI.create(s.proxy());
        String admin = session.client() instanceof HttpEngineClient h ? h.adminUrl().getHost() : null;
        return URI.create(proxy.getScheme() + "://" + reachable(proxy.getHost(), admin) + ":" + proxy.getPort());
    }

    /**
     * The strategy key of the pool shown, as the traffic places keys to feed it ({@code path}, {@code header:NAME},
     * ...): {@code path} when the strategy has none, or one traffic cannot set (the client's address). FX thread.
     */
    public String strategyKey() {
        EngineState s = session.state();
        String key = null;
        if (s != null) {
            EngineState.PoolInfo p = s.pools().get(session.pool());
            Map<String, Object> strategy = p != null ? p.strategy() : s.strategy();
            key = strategy == null || strategy.get("key") == null ? null : strategy.get("key").toString();
        }
        try {
            return TrafficSettings.KeyPlacement.forStrategyKey(key).strategyKey();
        } catch (IllegalArgumentException e) {
            return "path";
        }
    }

    /** The Traffic tab's settings before any change there, aimed at the engine's proxy. FX thread. */
    public TrafficSettings defaults() {
        return TrafficSettings.defaults(target())
                .withRate(DEFAULT_RATE)
                .withMaxConcurrency(DEFAULT_CONCURRENCY)
                .withDuration(Duration.ofSeconds(DEFAULT_DURATION_S))
                .withKeys(new KeyDistribution.Zipf(DEFAULT_KEYS, DEFAULT_ZIPF))
                .withKeyPlacement(TrafficSettings.KeyPlacement.forStrategyKey(strategyKey()))
                .withSeed(session.ticker().nanos());
    }

    /** The Traffic tab's form, where {@link #start()} reads its settings; without one it sends {@link #defaults()}. */
    public void settingsFrom(Supplier<TrafficSettings> form) {
        this.form = form;
    }

    /**
     * Starts a run with the Traffic tab's settings (the Live toolbar's Start traffic). A refused setting is shown in
     * {@link #messageProperty()}, not thrown. FX thread.
     */
    public void start() {
        try {
            start(form != null ? form.get() : defaults(), null);
        } catch (RuntimeException | IOException e) {
            fail(e.getMessage());
        }
    }

    /**
     * Starts {@link #GENTLE_RATE} requests a second for {@link #GENTLE_DURATION_S} seconds, the Traffic tab's other
     * settings as they are, once the proxy's address is known (now, or at the first sample that has it); nothing when
     * a run is going by then or the engine takes no traffic. The window opened on its embedded default config calls
     * it, so the room sees dots at once. FX thread.
     */
    public void startGentle() {
        if (!possible()) {
            return;
        }
        if (ready()) {
            startGentleNow();
            return;
        }
        if (waitingForProxy == null) {
            waitingForProxy = (o, a, s) -> {
                if (ready()) {
                    session.stateProperty().removeListener(waitingForProxy);
                    waitingForProxy = null;
                    startGentleNow();
                }
            };
            session.stateProperty().addListener(waitingForProxy);
        }
    }

    private void startGentleNow() {
        if (running.get()) {
            return;
        }
        try {
            TrafficSettings s = (form != null ? form.get() : defaults()).withRate(GENTLE_RATE)
                    .withDuration(Duration.ofSeconds(GENTLE_DURATION_S));
            begin(TrafficGenerator.create(s), null, () -> Texts.t("main.traffic.gentle",
                    String.format(Locale.ROOT, "%.0f", s.ratePerSecond()), Long.toString(s.duration().toSeconds())));
        } catch (RuntimeException | IOException e) {
            fail(Texts.t("main.traffic.failed", e.getMessage()));
        }
    }

    /** Starts a run; {@code recordTo} (nullable) receives every request sent, as JSON lines. FX thread. */
    public void start(TrafficSettings settings, Path recordTo) throws IOException {
        begin(TrafficGenerator.create(settings), recordTo, () -> Texts.t("main.traffic.sending",
                String.format(Locale.ROOT, "%.0f", settings.ratePerSecond()),
                Long.toString(settings.duration().toSeconds())));
    }

    /** Replays a recorded trace through the proxy at {@code speed} (1 = as recorded). FX thread. */
    public void replay(TrafficSettings base, List<TrafficRequest> trace, double speed) throws IOException {
        begin(TrafficReplay.through(base, trace, speed), null,
                () -> Texts.t("main.traffic.replaying", Integer.toString(trace.size()), Double.toString(speed)));
    }

    private void begin(TrafficGenerator g, Path recordTo, Supplier<String> what) throws IOException {
        if (running.get()) {
            throw new IllegalStateException(Texts.t("main.traffic.busy"));
        }
        TrafficRecorder recorder = recordTo == null ? null : TrafficRecorder.open(recordTo);
        if (recorder != null) {
            g.recordTo(recorder);
        }
        // the run's own end, whichever session shows it by then (a window built again in another language)
        g.done().whenComplete((last, error) -> {
            if (recorder != null) {
                try {
                    recorder.close();
                } catch (IOException e) {
                    LOG.warn("closing the traffic recording failed", e);
                }
            }
            g.close(); // releases the generator's threads; the run is DONE already
        });
        follow(new Run(g, recorder, what));
        try {
            g.start();
        } catch (RuntimeException e) {
            running.set(false);
            current = null;
            if (recorder != null) {
                recorder.close();
            }
            throw e;
        }
    }

    /**
     * A run going: its generator, the file it records to (or null), and what the message says of it (in the window's
     * language of the moment).
     */
    public record Run(TrafficGenerator generator, TrafficRecorder recorder, Supplier<String> what) {
    }

    /** Shows {@code run} as this session's run from now until it is done: its snapshots, its message, its end. */
    private void follow(Run run) {
        TrafficGenerator g = run.generator();
        TrafficRecorder recorder = run.recorder();
        current = run;
        startListeners.forEach(Runnable::run);
        running.set(true);
        message.set(recorder == null ? run.what().get() : Texts.t("main.traffic.recording", run.what().get(),
                recorder.file().toString()));
        g.addListener(snap -> Platform.runLater(() -> {
            if (current == run) {
                show(snap);
            }
        }));
        g.done().whenComplete((last, error) -> Platform.runLater(() -> {
            if (current != run) {
                return;
            }
            if (last != null) {
                show(last);
            }
            running.set(false);
            message.set(recorder == null ? Texts.t("main.traffic.done") : Texts.t("main.traffic.recorded",
                    Long.toString(recorder.recorded()), recorder.file().toString()));
        }));
    }

    /**
     * The run going, let go of without stopping it, for {@link #adopt}; null when none is going. This session shows
     * nothing more of it. FX thread.
     */
    Run release() {
        Run run = running.get() ? current : null;
        current = null;
        return run;
    }

    /** Follows a run {@link #release}d by another session on the same engine, as it goes on. FX thread. */
    public void adopt(Run run) {
        if (run != null && !run.generator().done().isDone() && !running.get()) {
            follow(run);
        }
    }

    private void show(TrafficSnapshot s) {
        snapshotListeners.forEach(l -> l.accept(s));
        snapshot.set(s);
    }

    // ---------------------------------------------------------------- replaying a recording live

    /**
     * Reads {@code file} (a HAR file, an nginx access log in the combined format, Fulcrum's JSON access log; the format
     * told by its content) through once on a thread of its own, then replays it through the proxy at {@code speed}
     * ({@link #replayRecording(ReplayFiles.Checked, double)}). A file that cannot be read, or has more than 1% bad
     * lines, is said in {@link #replayMessageProperty()}. FX thread.
     */
    public void replayRecording(Path file, double speed) {
        if (replayRunning.get()) {
            replayMessage.set(Texts.t("main.replay.busy"));
            return;
        }
        try {
            LiveReplay.requireSpeed(speed);
        } catch (IllegalArgumentException e) {
            replayMessage.set(Texts.t("main.replay.failed", e.getMessage()));
            return;
        }
        replayRunning.set(true);
        replayProgress.set(null);
        cancelledWhileReading = false;
        replayMessage.set(Texts.t("main.replay.reading", file.getFileName().toString()));
        Thread reader = new Thread(() -> {
            ReplayFiles.Checked c = null;
            String problem;
            try {
                c = ReplayFiles.check(file, null, null);
                problem = c.tooManyBad() ? c.badSummary() : null;
            } catch (IOException | RuntimeException e) {
                problem = file + ": " + (e instanceof java.nio.file.NoSuchFileException
                        ? Texts.t("main.replay.nofile") : e.getMessage());
            }
            ReplayFiles.Checked checked = c;
            String refused = problem;
            Platform.runLater(() -> {
                replayRunning.set(false);
                if (refused != null) {
                    replayMessage.set(Texts.t("main.replay.failed", refused));
                } else if (cancelledWhileReading) {
                    replayMessage.set(Texts.t("main.replay.cancelled"));
                } else {
                    replayRecording(checked, speed);
                }
            });
        }, "fulcrum-replay-read");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Replays a recording read through already at {@code speed} through the proxy, now: its progress in
     * {@link #replayProgressProperty()} (about four times a second), its summary line in
     * {@link #replayMessageProperty()} at the end. FX thread.
     */
    public void replayRecording(ReplayFiles.Checked recording, double speed) {
        if (liveReplay != null && replayRunning.get()) {
            replayMessage.set(Texts.t("main.replay.busy"));
            return;
        }
        LiveReplay r;
        try {
            r = LiveReplay.of(recording.source(), recording.span(), target(), speed, null);
        } catch (RuntimeException e) {
            replayMessage.set(Texts.t("main.replay.failed", e.getMessage()));
            return;
        }
        liveReplay = r;
        replayRunning.set(true);
        String replaying = Texts.t("main.replay.replaying", Long.toString(recording.span().count()),
                recording.file().getFileName().toString(), Double.toString(speed));
        replayMessage.set(recording.bad() == 0 ? replaying
                : Texts.t("main.replay.skipped", replaying, Long.toString(recording.bad())));
        r.addListener(p -> Platform.runLater(() -> {
            if (liveReplay == r && p.state() != ReplayProgress.State.DONE) {
                replayProgress.set(p);
            }
        }));
        r.done().whenComplete((last, error) -> Platform.runLater(() -> {
            if (liveReplay != r) {
                return;
            }
            if (last != null) {
                replayProgress.set(last);
                replayMessage.set(last.summaryLine());
            }
            replayRunning.set(false);
        }));
        r.start();
    }

    /**
     * {@link #replayRecording(ReplayFiles.Checked, double)} once the proxy's address is known (now, or at the first
     * sample that has it): what {@code --replay FILE} on the window's command line does. FX thread.
     */
    public void replayWhenReady(ReplayFiles.Checked recording, double speed) {
        if (!possible()) {
            return;
        }
        if (ready()) {
            replayRecording(recording, speed);
            return;
        }
        replayWaitingForProxy = (o, a, st) -> {
            if (ready()) {
                session.stateProperty().removeListener(replayWaitingForProxy);
                replayWaitingForProxy = null;
                replayRecording(recording, speed);
            }
        };
        session.stateProperty().addListener(replayWaitingForProxy);
    }

    /** Stops the live replay's sending at once; the answers on their way are awaited, then its summary shows. */
    public void cancelReplay() {
        cancelledWhileReading = true;
        LiveReplay r = liveReplay;
        if (r != null) {
            r.cancel();
        }
    }

    /** The live replay's progress (null before one, and while its recording is read). */
    public ReadOnlyObjectProperty<ReplayProgress> replayProgressProperty() {
        return replayProgress.getReadOnlyProperty();
    }

    /** True from the Replay's start (reading the file) until its last answer is in. */
    public ReadOnlyBooleanProperty replayRunningProperty() {
        return replayRunning.getReadOnlyProperty();
    }

    /** What the replay does or did: what it sends, then its summary line; or why it could not start. */
    public ReadOnlyStringProperty replayMessageProperty() {
        return replayMessage.getReadOnlyProperty();
    }

    /**
     * Stops the run going, if any, and the live replay of a recording: no more requests are sent, the answers
     * outstanding are awaited, then it is done. What a lesson calls as it starts to play, so the lesson's own traffic is the only traffic. Any thread.
     */
    public void stop() {
        Run going = current;
        if (going != null) {
            going.generator().stop();
        }
        cancelReplay(); // a lesson's traffic is the only traffic, a recording's too
    }

    /** Called on the FX thread as each run begins, before its first snapshot (the Traffic tab forgets the last run). */
    public void onStart(Runnable listener) {
        startListeners.add(listener);
    }

    /** Called on the FX thread with every snapshot of the run, its last one too (one the property may not change for). */
    public void onSnapshot(Consumer<TrafficSnapshot> listener) {
        snapshotListeners.add(listener);
    }

    public ReadOnlyObjectProperty<TrafficSnapshot> snapshotProperty() {
        return snapshot.getReadOnlyProperty();
    }

    /** True from a run's start until it is done (after Stop, while the last answers come). */
    public ReadOnlyBooleanProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** Shows {@code text} as the traffic's message (a refused setting, a spike armed). FX thread. */
    public void fail(String text) {
        message.set(text);
    }

    /** Ends a run going at once (the window closes). Any thread. */
    @Override
    public void close() {
        Run going = current;
        if (going != null) {
            going.generator().close();
        }
        LiveReplay r = liveReplay;
        if (r != null) {
            r.close();
        }
    }
}
