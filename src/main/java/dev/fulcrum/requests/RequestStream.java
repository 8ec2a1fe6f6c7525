package dev.fulcrum.requests;

import dev.fulcrum.threads.PerThread;
import dev.fulcrum.time.SystemClock;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The requests the proxy completed, kept in fixed rings it overwrites (design rule 8 of docs/ARCHITECTURE.md): each
 * writing thread (an I/O thread of the proxy) has a stripe of its own, a ring of preallocated {@link Slot}s it alone
 * writes, so recording a request takes no lock, allocates nothing and moves no cache line another writer uses.
 * Readers ({@link Cursor}, {@link #recent}) copy what they find into {@link RequestSample}s and count what was
 * overwritten before they got to it; nothing on the request path waits for a reader.
 *
 * <p>Each slot is a seqlock: its sequence is odd while its writer fills it and becomes {@code 2n + 2} once request
 * {@code n} of that stripe is in it. A reader reads the sequence, copies the fields, and keeps the copy only when the
 * sequence is still the one it expected afterwards.
 *
 * <p>Example: 1024 slots a stripe, two I/O threads, a reader polling every 50 ms at 10,000 requests a second: each
 * poll finds about 250 new requests a stripe and misses none; a reader that stops for a second finds the newest
 * 1024 of each stripe and counts the older ones as dropped.
 */
public final class RequestStream {
    /** How a stripe's writer hands the slot's header objects over to a reader: the proxy knows their type. */
    public interface Headers extends Function<Object, List<RequestSample.Header>> {
    }

    private static final Headers NO_HEADERS = o -> List.of();
    private static final VarHandle SEQ;
    private static final VarHandle HEAD;

    static {
        try {
            SEQ = MethodHandles.lookup().findVarHandle(Slot.class, "seq", long.class);
            HEAD = MethodHandles.lookup().findVarHandle(Stripe.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int capacity;
    private final int mask;
    private final long wallOffsetNanos;
    private final Headers headers;
    private final List<Stripe> stripes = new CopyOnWriteArrayList<>();
    private final AtomicInteger stripeCount = new AtomicInteger();
    private final PerThread<Stripe> mine;

    /**
     * @param perThread slots each writing thread keeps, rounded up to a power of two
     * @param headers   turns the header objects writers store into lines, on the reader's thread
     */
    public RequestStream(int perThread, Headers headers) {
        if (perThread < 1 || perThread > 1 << 20) {
            throw new IllegalArgumentException("perThread: must be between 1 and 1048576 (got: " + perThread + ")");
        }
        this.capacity = perThread == 1 ? 1 : Integer.highestOneBit(perThread - 1) << 1;
        this.mask = capacity - 1;
        this.headers = headers;
        this.wallOffsetNanos = SystemClock.currentTimeMillis() * 1_000_000L - SystemClock.nanoTime();
        this.mine = PerThread.withInitial(() -> {
            Stripe s = new Stripe(stripeCount.getAndIncrement(), capacity);
            stripes.add(s);
            return s;
        });
    }

    /** Slots per writing thread. */
    public int capacity() {
        return capacity;
    }

    /** The calling thread's next slot, marked as being written; fill it, then {@link #publish} it. */
    public Slot claim() {
        Stripe s = mine.get();
        long n = s.next;
        Slot slot = s.slots[(int) (n & mask)];
        SEQ.setOpaque(slot, 2 * n + 1);
        VarHandle.storeStoreFence();
        slot.reset();
        return slot;
    }

    /** Makes the slot {@link #claim} gave this thread readable. */
    public void publish(Slot slot) {
        Stripe s = slot.stripe;
        long n = s.next++;
        SEQ.setRelease(slot, 2 * n + 2);
        HEAD.setRelease(s, n + 1);
    }

    /** A reader's place in the stream: what it has seen of each stripe, and how much it missed. */
    public final class Cursor {
        private long[] seen = new long[0];
        private long dropped;

        private Cursor(boolean fromNow) {
            if (fromNow) {
                for (Stripe s : stripes) {
                    at(s.index, (long) HEAD.getAcquire(s));
                }
            }
        }

        /** Requests overwritten before this cursor read them, since it was made. */
        public long dropped() {
            return dropped;
        }

        /** Every request published since the last poll, stripe by stripe, each stripe's oldest first. */
        public int poll(Consumer<RequestSample> sink) {
            return poll(Integer.MAX_VALUE, true, sink);
        }

        /**
         * At most {@code max} of the requests published since the last poll, spread evenly over them (every k-th),
         * the rest counted as dropped; without their headers unless {@code headers}, which is what a view that only
         * counts and draws them needs, and costs the reader a fraction of a full copy.
         */
        public int poll(int max, boolean headers, Consumer<RequestSample> sink) {
            return poll(max, headers, (endNanos, r) -> sink.accept(r));
        }

        private int poll(int max, boolean headers, Found sink) {
            long available = 0;
            for (Stripe s : stripes) {
                long head = (long) HEAD.getAcquire(s);
                long from = seen(s.index);
                if (head - from > capacity) {
                    dropped += head - from - capacity;
                    at(s.index, head - capacity);
                }
                available += Math.min(capacity, head - from);
            }
            long stride = available <= max ? 1 : (available + max - 1) / Math.max(1, max);
            int found = 0;
            for (Stripe s : stripes) {
                long head = (long) HEAD.getAcquire(s);
                long from = seen(s.index);
                if (head - from > capacity) {
                    dropped += head - from - capacity;
                    from = head - capacity;
                }
                for (long n = from; n < head; n++) {
                    if (stride > 1 && (n - from) % stride != 0) {
                        dropped++;
                        continue;
                    }
                    Slot copy = read(s, n);
                    if (copy == null) {
                        dropped++;
                    } else {
                        sink.accept(copy.endNanos, copy.toSample(s.index + ":" + n, wallOffsetNanos,
                                headers ? RequestStream.this.headers : NO_HEADERS));
                        found++;
                    }
                }
                at(s.index, head);
            }
            return found;
        }

        private long seen(int stripe) {
            return stripe < seen.length ? seen[stripe] : 0;
        }

        private void at(int stripe, long n) {
            if (stripe >= seen.length) {
                seen = java.util.Arrays.copyOf(seen, stripe + 1);
            }
            seen[stripe] = n;
        }
    }

    /** A cursor that starts with the requests completed from now on. */
    public Cursor fromNow() {
        return new Cursor(true);
    }

    /** A cursor that starts with the oldest requests still kept. */
    public Cursor fromOldest() {
        return new Cursor(false);
    }

    /**
     * The newest {@code limit} requests kept, newest first: ordered by when each ended to the nanosecond, since two
     * requests on loopback often end within the same millisecond, on different I/O threads.
     */
    public List<RequestSample> recent(int limit) {
        List<Ended> all = new ArrayList<>();
        fromOldest().poll(Integer.MAX_VALUE, true, (endNanos, r) -> all.add(new Ended(endNanos, r)));
        all.sort(Comparator.comparingLong(Ended::endNanos).reversed());
        return all.stream().limit(Math.max(0, limit)).map(Ended::sample).toList();
    }

    /** What a cursor hands over: a request, and when it ended on this stream's clock. */
    private interface Found {
        void accept(long endNanos, RequestSample r);
    }

    private record Ended(long endNanos, RequestSample sample) {
    }

    /** A copy of request {@code n} of stripe {@code s}, or null when its writer has overwritten or is rewriting it. */
    private Slot read(Stripe s, long n) {
        Slot slot = s.slots[(int) (n & mask)];
        long expected = 2 * n + 2;
        if ((long) SEQ.getAcquire(slot) != expected) {
            return null;
        }
        Slot copy = new Slot();
        copy.copyFrom(slot);
        VarHandle.loadLoadFence();
        if ((long) SEQ.getOpaque(slot) != expected) {
            return null;
        }
        return copy;
    }

    private static final class Stripe {
        final int index;
        final Slot[] slots;
        long next;
        @SuppressWarnings("unused") // through HEAD
        volatile long head;

        Stripe(int index, int capacity) {
            this.index = index;
            this.slots = new Slot[capacity];
            for (int i = 0; i < capacity; i++) {
                slots[i] = new Slot(this);
            }
        }
    }

    /**
     * One request being recorded. Its writer sets the fields between {@link #claim} and {@link #publish}; every
     * reference it stores already exists for the request (strings, the header maps), so filling it allocates nothing.
     */
    public static final class Slot {
        /** Attempts kept per request; more are counted, not kept. */
        public static final int MAX_ATTEMPTS = 8;

        @SuppressWarnings("unused") // through SEQ
        volatile long seq;
        /** The ring it belongs to; null for a reader's copy. */
        private final Stripe stripe;
        public long startNanos;
        public long endNanos;
        public String pool;
        /** The method: any object whose {@code toString} is its name (Undertow's {@code HttpString}). */
        public Object method;
        public String path;
        public String query;
        public String scheme;
        public Object protocol;
        public String client;
        public String key;
        public long keyHash;
        public int attemptCount;
        public final String[] attemptBackend = new String[MAX_ATTEMPTS];
        public final Object[] attemptOutcome = new Object[MAX_ATTEMPTS];
        public final long[] attemptNanos = new long[MAX_ATTEMPTS];
        public String backend;
        public int status;
        public long bytesIn;
        public long bytesOut;
        public boolean sticky;
        public boolean spilled;
        public boolean refused;
        public boolean upgraded;
        public Object requestHeaders;
        public Object responseHeaders;
        /** How the backend was chosen, when decisions are logged; made at the exchange's end, so no cost when off. */
        public Decision decision;
        /** Its route's index as written, or -1 for the default pool. */
        public int route = -1;
        /** The pool of the split's arm it took, or null. */
        public String arm;
        /** Its route's class, or null. */
        public String routeClass;
        /** A mirrored copy, not a client's request. */
        public boolean mirror;
        /** Refused at its route's class ceiling. */
        public boolean shed;

        Slot(Stripe stripe) {
            this.stripe = stripe;
        }

        Slot() {
            this(null);
        }

        /** Records attempt {@code i}: its backend, how it ended (an object whose {@code toString} says), its length. */
        public void attempt(String backendId, Object outcome, long nanos) {
            int i = attemptCount++;
            if (i < MAX_ATTEMPTS) {
                attemptBackend[i] = backendId;
                attemptOutcome[i] = outcome;
                attemptNanos[i] = nanos;
            }
        }

        void reset() {
            pool = null;
            method = null;
            path = null;
            query = null;
            scheme = null;
            protocol = null;
            client = null;
            key = null;
            keyHash = 0;
            attemptCount = 0;
            backend = null;
            status = 0;
            bytesIn = 0;
            bytesOut = 0;
            sticky = false;
            spilled = false;
            refused = false;
            upgraded = false;
            requestHeaders = null;
            responseHeaders = null;
            decision = null;
            route = -1;
            arm = null;
            routeClass = null;
            mirror = false;
            shed = false;
        }

        void copyFrom(Slot o) {
            startNanos = o.startNanos;
            endNanos = o.endNanos;
            pool = o.pool;
            method = o.method;
            path = o.path;
            query = o.query;
            scheme = o.scheme;
            protocol = o.protocol;
            client = o.client;
            key = o.key;
            keyHash = o.keyHash;
            attemptCount = o.attemptCount;
            int kept = Math.min(attemptCount, MAX_ATTEMPTS);
            System.arraycopy(o.attemptBackend, 0, attemptBackend, 0, kept);
            System.arraycopy(o.attemptOutcome, 0, attemptOutcome, 0, kept);
            System.arraycopy(o.attemptNanos, 0, attemptNanos, 0, kept);
            backend = o.backend;
            status = o.status;
            bytesIn = o.bytesIn;
            bytesOut = o.bytesOut;
            sticky = o.sticky;
            spilled = o.spilled;
            refused = o.refused;
            upgraded = o.upgraded;
            requestHeaders = o.requestHeaders;
            responseHeaders = o.responseHeaders;
            decision = o.decision;
            route = o.route;
            arm = o.arm;
            routeClass = o.routeClass;
            mirror = o.mirror;
            shed = o.shed;
        }

        RequestSample toSample(String id, long wallOffsetNanos, Headers headers) {
            List<RequestSample.Attempt> tries = new ArrayList<>(Math.min(attemptCount, MAX_ATTEMPTS));
            for (int i = 0; i < Math.min(attemptCount, MAX_ATTEMPTS); i++) {
                tries.add(new RequestSample.Attempt(attemptBackend[i], String.valueOf(attemptOutcome[i]),
                        attemptNanos[i] / 1e6));
            }
            return new RequestSample(id, Math.floorDiv(startNanos + wallOffsetNanos, 1_000_000L), pool,
                    String.valueOf(method), path, query, scheme, protocol == null ? null : protocol.toString(), client,
                    key,
                    keyHash, List.copyOf(tries), backend, status, bytesIn, bytesOut, (endNanos - startNanos) / 1e6,
                    attemptCount > 1, sticky, spilled, refused, upgraded,
                    requestHeaders == null ? List.of() : headers.apply(requestHeaders),
                    responseHeaders == null ? List.of() : headers.apply(responseHeaders), decision,
                    route < 0 && arm == null && routeClass == null && !mirror && !shed ? RequestSample.Routing.NONE
                            : new RequestSample.Routing(route < 0 ? null : route, arm, routeClass, mirror, shed));
        }
    }
}
