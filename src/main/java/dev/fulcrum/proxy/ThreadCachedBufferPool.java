package dev.fulcrum.proxy;

import dev.fulcrum.threads.PerThread;
import io.undertow.connector.ByteBufferPool;
import io.undertow.connector.PooledByteBuffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Byte buffers for the proxy's server and client connections, cached per thread. Undertow's own pool finds
 * a thread's cache in a synchronized {@code WeakHashMap}, a lock and a reference-queue poll on every
 * allocation and every free; here a thread's free buffers sit in a {@link PerThread} stack that only
 * that thread touches. A thread with more free buffers than its stack holds passes them to a shared
 * queue, bounded so that a burst does not pin memory for ever; beyond that they are left to the collector.
 *
 * <p>A buffer freed on another thread than the one that took it simply joins that other thread's stack:
 * buffers are interchangeable. Freeing twice is ignored.
 */
final class ThreadCachedBufferPool implements ByteBufferPool {
    private final int bufferSize;
    private final boolean direct;
    private final int perThread;
    private final int maxShared;
    private final PerThread<ArrayDeque<ByteBuffer>> local = PerThread.withInitial(ArrayDeque::new);
    private final ConcurrentLinkedQueue<ByteBuffer> shared = new ConcurrentLinkedQueue<>();
    private final AtomicInteger sharedCount = new AtomicInteger();
    private volatile ThreadCachedBufferPool arrayBacked;
    private volatile boolean closed;

    /**
     * @param perThread free buffers each thread keeps for itself
     * @param maxShared free buffers kept beyond those, for any thread
     */
    ThreadCachedBufferPool(int bufferSize, boolean direct, int perThread, int maxShared) {
        this.bufferSize = bufferSize;
        this.direct = direct;
        this.perThread = perThread;
        this.maxShared = maxShared;
    }

    @Override
    public PooledByteBuffer allocate() {
        ByteBuffer b = local.get().pollLast();
        if (b == null) {
            b = shared.poll();
            if (b != null) {
                sharedCount.decrementAndGet();
            } else {
                b = direct ? ByteBuffer.allocateDirect(bufferSize) : ByteBuffer.allocate(bufferSize);
            }
        }
        b.clear();
        return new Pooled(this, b);
    }

    private void free(ByteBuffer b) {
        if (closed) {
            return;
        }
        ArrayDeque<ByteBuffer> mine = local.get();
        if (mine.size() < perThread) {
            mine.addLast(b);
        } else if (sharedCount.incrementAndGet() <= maxShared) {
            shared.offer(b);
        } else {
            sharedCount.decrementAndGet();
        }
    }

    @Override
    public ByteBufferPool getArrayBackedPool() {
        if (!direct) {
            return this;
        }
        ThreadCachedBufferPool heap = arrayBacked;
        if (heap == null) {
            synchronized (this) {
                heap = arrayBacked;
                if (heap == null) {
                    heap = new ThreadCachedBufferPool(bufferSize, false, perThread, maxShared);
                    arrayBacked = heap;
                }
            }
        }
        return heap;
    }

    @Override
    public void close() {
        closed = true;
        shared.clear();
        ThreadCachedBufferPool heap = arrayBacked;
        if (heap != null) {
            heap.close();
        }
    }

    @Override
    public int getBufferSize() {
        return bufferSize;
    }

    @Override
    public boolean isDirect() {
        return direct;
    }

    private static final class Pooled implements PooledByteBuffer {
        private static final VarHandle OPEN;

        static {
            try {
                OPEN = MethodHandles.lookup().findVarHandle(Pooled.class, "open", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final ThreadCachedBufferPool pool;
        private final ByteBuffer buffer;
        @SuppressWarnings("unused")
        private volatile boolean open = true;

        Pooled(ThreadCachedBufferPool pool, ByteBuffer buffer) {
            this.pool = pool;
            this.buffer = buffer;
        }

        @Override
        public ByteBuffer getBuffer() {
            if (!open) {
                throw new IllegalStateException("buffer already freed");
            }
            return buffer;
        }

        @Override
        public void close() {
            if (OPEN.compareAndSet(this, true, false)) {
                pool.free(buffer);
            }
        }

        @Override
        public boolean isOpen() {
            return open;
        }
    }
}
