package dev.fulcrum.ui.workshop.traffic;

import dev.fulcrum.demo.TrafficRequest;
import dev.fulcrum.demo.TrafficSettings;
import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.ui.SessionTraffic;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;

/**
 * The Traffic tab's view of the session's one traffic run ({@link SessionTraffic}, which the Live toolbar and the
 * window's start drive too): its snapshot, whether it runs and its message, and what it did recently (the rate in the
 * last second, the answers per backend in the last ten), which the generator's cumulative figures do not say.
 */
public final class TrafficViewModel implements AutoCloseable {
    private final SessionTraffic traffic;
    private final RecentTraffic recent;

    /** Snapshots dated on the system clock, which the generator sends by (it makes its own schedulers). */
    public TrafficViewModel(SessionTraffic traffic) {
        this(traffic, dev.fulcrum.time.Ticker.system());
    }

    /** {@code ticker} dates each snapshot as it arrives, for the figures of the last second and ten seconds. */
    TrafficViewModel(SessionTraffic traffic, dev.fulcrum.time.Ticker ticker) {
        this.traffic = traffic;
        this.recent = new RecentTraffic(ticker);
        traffic.onStart(recent::start);
        traffic.onSnapshot(recent::add);
    }

    /** Starts a run; {@code recordTo} (nullable) receives every request sent, as JSON lines. FX thread. */
    public void start(TrafficSettings settings, Path recordTo) throws IOException {
        traffic.start(settings, recordTo);
    }

    /** Replays a recorded trace through the proxy at {@code speed} (1 = as recorded). FX thread. */
    public void replay(TrafficSettings base, List<TrafficRequest> trace, double speed) throws IOException {
        traffic.replay(base, trace, speed);
    }

    /** Stops sending; answers still outstanding are awaited, then the run is done. */
    public void stop() {
        traffic.stop();
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
        return traffic.snapshotProperty();
    }

    public ReadOnlyBooleanProperty runningProperty() {
        return traffic.runningProperty();
    }

    public ReadOnlyStringProperty messageProperty() {
        return traffic.messageProperty();
    }

    void fail(String text) {
        traffic.fail(text);
    }

    @Override
    public void close() {
        traffic.close();
    }
}
