package dev.fulcrum.ui.workshop.traffic;

import dev.fulcrum.demo.TrafficGenerator;
import dev.fulcrum.demo.TrafficRecorder;
import dev.fulcrum.demo.TrafficReplay;
import dev.fulcrum.demo.TrafficRequest;
import dev.fulcrum.demo.TrafficSettings;
import dev.fulcrum.demo.TrafficSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One traffic run at a time (a generated run or a replay), seen from the FX thread: the latest
 * {@link TrafficSnapshot}, whether a run is going, and a message (what is being recorded, what went wrong).
 *
 * <p>The generator's listeners fire on its own thread about four times a second; each snapshot is handed to the
 * FX thread with {@code runLater}, so the properties change on the FX thread only. Every run is bounded by its
 * duration (a replay by its trace), and {@link #close()} ends one at once.
 */
public final class TrafficViewModel implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TrafficViewModel.class);

    private final ReadOnlyObjectWrapper<TrafficSnapshot> snapshot = new ReadOnlyObjectWrapper<>(this, "snapshot");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(this, "running");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private final RecentTraffic recent;
    private TrafficGenerator generator;

    /** Snapshots dated on the system clock, which the generator sends by (it makes its own schedulers). */
    public TrafficViewModel() {
        this(dev.fulcrum.time.Ticker.system());
    }

    /** {@code ticker} dates each snapshot as it arrives, for the figures of the last second and ten seconds. */
    TrafficViewModel(dev.fulcrum.time.Ticker ticker) {
        this.recent = new RecentTraffic(ticker);
    }

    /** Starts a run; {@code recordTo} (nullable) receives every request sent, as JSON lines. FX thread. */
    public void start(TrafficSettings settings, Path recordTo) throws IOException {
        begin(TrafficGenerator.create(settings), recordTo,
                String.format("sending %.0f req/s for %d s", settings.ratePerSecond(), settings.duration().toSeconds()));
    }

    /** Replays a recorded trace through the proxy at {@code speed} (1 = as recorded). FX thread. */
    public void replay(TrafficSettings base, List<TrafficRequest> trace, double speed) throws IOException {
        begin(TrafficReplay.through(base, trace, speed), null,
                String.format("replaying %d requests at %sx", trace.size(), speed));
    }

    private void begin(TrafficGenerator g, Path recordTo, String what) throws IOException {
        if (running.get()) {
            throw new IllegalStateException("traffic: a run is going; stop it first");
        }
        TrafficRecorder recorder = recordTo == null ? null : TrafficRecorder.open(recordTo);
        if (recorder != null) {
            g.recordTo(recorder);
        }
        generator = g;
        recent.start();
        running.set(true);
        message.set(what + (recorder == null ? "" : ", recording to " + recordTo));
        g.addListener(s -> Platform.runLater(() -> {
            if (generator == g) {
                recent.add(s);
                snapshot.set(s);
            }
        }));
        g.done().whenComplete((last, error) -> {
            if (recorder != null) {
                try {
                    recorder.close();
                } catch (IOException e) {
                    LOG.warn("closing the traffic recording failed", e);
                }
            }
            g.close(); // releases the generator's threads; the run is DONE already
            Platform.runLater(() -> {
                if (generator != g) {
                    return;
                }
                if (last != null) {
                    recent.add(last);
                    snapshot.set(last);
                }
                running.set(false);
                message.set("done" + (recorder == null ? "" : ": " + recorder.recorded() + " requests recorded to "
                        + recorder.file()));
            });
        });
        try {
            g.start();
        } catch (RuntimeException e) {
            running.set(false);
            generator = null;
            if (recorder != null) {
                recorder.close();
            }
            throw e;
        }
    }

    /** Stops sending; answers still outstanding are awaited, then the run is done. */
    public void stop() {
        TrafficGenerator g = generator;
        if (g != null) {
            g.stop();
        }
    }

    /** Answers per second over the last second, read now: it falls to 0 within a second of the last answer. */
    public double rateLastSecond() {
        return recent.rateLastSecond();
    }

    /** Answers per backend over the last ten seconds of the run, so a reweight shows within them. */
    public Map<String, Long> recentByBackend() {
        return recent.byBackend();
    }

    public ReadOnlyObjectProperty<TrafficSnapshot> snapshotProperty() {
        return snapshot.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    void fail(String text) {
        message.set(text);
    }

    @Override
    public void close() {
        TrafficGenerator g = generator;
        if (g != null) {
            g.close();
        }
    }
}
