package dev.fulcrum.admin;

import dev.fulcrum.requests.RequestSample;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.IntFunction;

/**
 * An attached window's {@link RequestSource}: {@code GET /api/requests} read by an {@link SseStream} into a bounded
 * queue the window drains each frame. The server samples at the stream's rate and says how many it left out; a window
 * that does not drain for a while loses the oldest it had queued, and counts those too.
 */
final class RemoteRequests implements RequestSource {
    static final int QUEUE = 10_000;

    private final ArrayDeque<RequestSample> queue = new ArrayDeque<>();
    private final IntFunction<List<RequestSample>> recent;
    private long dropped;
    private SseStream stream;

    RemoteRequests(IntFunction<List<RequestSample>> recent) {
        this.recent = recent;
    }

    void attach(SseStream s) {
        this.stream = s;
    }

    /** One {@code request} event's JSON. */
    void event(String type, String data) {
        if (!"request".equals(type)) {
            return;
        }
        var n = RequestJson.parse(data);
        synchronized (queue) {
            dropped += n.dropped();
            if (queue.size() == QUEUE) {
                queue.pollFirst();
                dropped++;
            }
            queue.addLast(n.sample());
        }
    }

    @Override
    public Batch poll() {
        return sample(Integer.MAX_VALUE);
    }

    /** The server sent at most its rate already; a window that asks for fewer gets an even share of the queue. */
    @Override
    public Batch sample(int max) {
        synchronized (queue) {
            if (queue.isEmpty() && dropped == 0) {
                return Batch.EMPTY;
            }
            Batch b = Batch.spread(queue, dropped, max);
            queue.clear();
            dropped = 0;
            return b;
        }
    }

    @Override
    public List<RequestSample> recent(int limit) {
        return recent.apply(limit);
    }

    @Override
    public void close() {
        if (stream != null) {
            stream.close();
        }
    }
}
