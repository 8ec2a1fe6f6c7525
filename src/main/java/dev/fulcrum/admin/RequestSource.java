package dev.fulcrum.admin;

import dev.fulcrum.requests.RequestSample;
import java.util.List;

/**
 * The requests an engine's proxy completes, as the window reads them: a lossy sample (design rule 8 of
 * docs/ARCHITECTURE.md) for the Live and Requests views. In process it reads the proxy's own
 * {@link dev.fulcrum.requests.RequestStream}; attached, {@code GET /api/requests}.
 */
public interface RequestSource extends AutoCloseable {
    /** What arrived since the last poll, oldest first, and how many requests went unseen meanwhile. */
    record Batch(List<RequestSample> requests, long dropped) {
        public static final Batch EMPTY = new Batch(List.of(), 0);

        /**
         * An even share of {@code all}, at most {@code max}: every k-th request, k = ceil(n / max); the rest counted
         * with {@code dropped}. E.g. 100 requests, max 40: every third, 34 of them, 66 more dropped.
         */
        public static Batch spread(java.util.Collection<RequestSample> all, long dropped, int max) {
            int n = all.size();
            List<RequestSample> out = new java.util.ArrayList<>(Math.min(n, max));
            int stride = n <= max ? 1 : (n + max - 1) / max;
            int i = 0;
            for (RequestSample r : all) {
                if (i++ % stride == 0) {
                    out.add(r);
                }
            }
            return new Batch(out, dropped + n - out.size());
        }
    }

    /** Everything since the last call; never blocks, so the FX thread may call it every frame. */
    Batch poll();

    /**
     * At most {@code max} of what arrived since the last call, spread evenly over it, the rest counted as dropped, and
     * without headers where that saves work: what a view that draws requests rather than reads them needs. Never
     * blocks.
     */
    Batch sample(int max);

    /** The newest requests kept, newest first; may block on the network (call it off the FX thread). */
    List<RequestSample> recent(int limit);

    @Override
    void close();
}
