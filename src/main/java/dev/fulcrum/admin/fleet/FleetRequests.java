package dev.fulcrum.admin.fleet;

import dev.fulcrum.admin.RequestSource;
import dev.fulcrum.requests.RequestSample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests of every instance up, as one {@link RequestSource}: each instance's own {@code GET /api/requests}
 * stream, joined when it comes up and closed when it goes. A poll takes what every stream queued, in the order the
 * requests started, and adds up what each dropped.
 */
final class FleetRequests implements RequestSource {
    private final Map<String, RequestSource> sources = new ConcurrentHashMap<>();
    private final Runnable onClose;
    private volatile boolean closed;

    FleetRequests(Runnable onClose) {
        this.onClose = onClose;
    }

    /** The instance's stream joins (a stream of an instance already joined is replaced). */
    void join(String instance, RequestSource source) {
        if (closed) {
            source.close();
            return;
        }
        RequestSource before = sources.put(instance, source);
        if (before != null) {
            before.close();
        }
    }

    void leave(String instance) {
        RequestSource s = sources.remove(instance);
        if (s != null) {
            s.close();
        }
    }

    @Override
    public Batch poll() {
        return sample(Integer.MAX_VALUE);
    }

    @Override
    public Batch sample(int max) {
        List<RequestSample> all = new ArrayList<>();
        long dropped = 0;
        for (RequestSource s : sources.values()) {
            Batch b = s.poll();
            all.addAll(b.requests());
            dropped += b.dropped();
        }
        if (all.isEmpty() && dropped == 0) {
            return Batch.EMPTY;
        }
        all.sort(Comparator.comparingLong(RequestSample::startMillis));
        return Batch.spread(all, dropped, max);
    }

    /** Every instance's newest, newest first, at most {@code limit} in all. */
    @Override
    public List<RequestSample> recent(int limit) {
        List<RequestSample> all = new ArrayList<>();
        for (RequestSource s : sources.values()) {
            try {
                all.addAll(s.recent(limit));
            } catch (RuntimeException gone) {
                // an instance going away while read: the others' requests still show
            }
        }
        all.sort(Comparator.comparingLong(RequestSample::startMillis).reversed());
        return all.size() > limit ? List.copyOf(all.subList(0, limit)) : all;
    }

    @Override
    public void close() {
        closed = true;
        sources.values().forEach(RequestSource::close);
        sources.clear();
        onClose.run();
    }
}
