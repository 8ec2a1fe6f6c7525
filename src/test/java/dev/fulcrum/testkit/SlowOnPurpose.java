package dev.fulcrum.testkit;

/**
 * The one place a test lets time pass: a peer made slow on purpose, because its slowness is what the test is about
 * (a backend that answers late or spaces out its pieces, a client that sends a byte a second or reads nothing for a
 * while). A wait for something to happen is never a sleep: it is Awaitility with a deadline, a latch, or the
 * {@link dev.fulcrum.time.ManualClock} moved on.
 *
 * <p>Example: {@code SlowOnPurpose.pause(100); // a backend slow on purpose: events spaced out in time}.
 */
public final class SlowOnPurpose {
    private SlowOnPurpose() {
    }

    /** Holds the calling peer back {@code ms} milliseconds. */
    public static void pause(long ms) throws InterruptedException {
        Thread.sleep(ms); // slow on purpose: the only sleep in the tests outside ui/, see the class comment
    }
}
