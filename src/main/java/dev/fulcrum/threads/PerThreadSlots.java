package dev.fulcrum.threads;

/**
 * {@link PerThread}'s array, with 128 bytes of unused fields before it (and {@code PerThread}'s own after it): the JVM
 * lays out a superclass's fields before a subclass's. Every request reads this field and the array's live part on
 * every I/O thread; an object placed on the same cache line (or the adjacent one, which Intel's processors fetch in
 * pairs) that some thread keeps writing, a counter say, would make each of those reads a miss. Where objects land is
 * the allocator's and the collector's choice, so the padding is what keeps it from being luck.
 */
abstract class PerThreadSlots extends PerThreadPadding {
    /**
     * The threads at {@code PAD + i} up to the first null, each one's value at {@code PAD + SLOTS + i}. Replaced whole,
     * under the PerThread's lock.
     */
    volatile Object[] slots;
}

/**
 * 128 bytes before {@link PerThreadSlots#slots}, and an int where the object's header leaves four bytes free: the JVM
 * fills such a gap with a later class's small field, which would put {@code slots} before the padding.
 */
abstract class PerThreadPadding {
    @SuppressWarnings("unused")
    private int gap;
    @SuppressWarnings("unused")
    private long p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15;
}
