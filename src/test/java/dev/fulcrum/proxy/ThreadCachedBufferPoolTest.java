package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.undertow.connector.ByteBufferPool;
import io.undertow.connector.PooledByteBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ThreadCachedBufferPoolTest {

    @Test
    void aFreedBufferIsHandedOutAgainClearedOnTheSameThread() {
        ThreadCachedBufferPool pool = new ThreadCachedBufferPool(1024, true, 4, 8);
        PooledByteBuffer first = pool.allocate();
        ByteBuffer b = first.getBuffer();
        assertThat(b.isDirect()).isTrue();
        assertThat(b.capacity()).isEqualTo(1024);
        b.put((byte) 1).flip();
        first.close();
        PooledByteBuffer again = pool.allocate();
        assertThat(again.getBuffer()).isSameAs(b);
        assertThat(again.getBuffer().position()).isZero();
        assertThat(again.getBuffer().remaining()).isEqualTo(1024);
    }

    @Test
    void freeingTwiceReturnsTheBufferOnceAndAFreedHandleCannotBeUsed() {
        ThreadCachedBufferPool pool = new ThreadCachedBufferPool(64, false, 4, 8);
        PooledByteBuffer p = pool.allocate();
        p.close();
        p.close();
        assertThat(p.isOpen()).isFalse();
        assertThatThrownBy(p::getBuffer).isInstanceOf(IllegalStateException.class);
        PooledByteBuffer a = pool.allocate();
        PooledByteBuffer b = pool.allocate();
        assertThat(a.getBuffer()).isNotSameAs(b.getBuffer()); // the double free did not put it in twice
    }

    @Test
    void buffersBeyondAThreadsStackGoToTheSharedQueueForOtherThreads() throws Exception {
        ThreadCachedBufferPool pool = new ThreadCachedBufferPool(64, false, 2, 3);
        List<PooledByteBuffer> taken = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            taken.add(pool.allocate());
        }
        Set<ByteBuffer> returned = Collections.newSetFromMap(new IdentityHashMap<>());
        taken.forEach(p -> returned.add(p.getBuffer()));
        taken.forEach(PooledByteBuffer::close); // 2 stay on this thread, 3 are shared, 5 are dropped
        Set<ByteBuffer> seenElsewhere = Collections.newSetFromMap(new IdentityHashMap<>());
        Thread other = new Thread(() -> {
            for (int i = 0; i < 5; i++) {
                seenElsewhere.add(pool.allocate().getBuffer());
            }
        });
        other.start();
        other.join();
        long reused = seenElsewhere.stream().filter(returned::contains).count();
        assertThat(reused).isEqualTo(3);
    }

    @Test
    void theArrayBackedTwinOfADirectPoolHasArrays() {
        ThreadCachedBufferPool pool = new ThreadCachedBufferPool(256, true, 2, 2);
        ByteBufferPool heap = pool.getArrayBackedPool();
        assertThat(heap).isSameAs(pool.getArrayBackedPool());
        assertThat(heap.isDirect()).isFalse();
        assertThat(heap.allocate().getBuffer().hasArray()).isTrue();
        assertThat(heap.getArrayBackedPool()).isSameAs(heap);
    }
}
