package dev.fulcrum.lesson;

import dev.fulcrum.admin.EngineClient;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The window's lesson player, as plain Java (no toolkit): which step is on screen, Next and Back, and what each step
 * showed, ticking as its figures come in. The window binds a view to the {@link View}s it is told of; a test drives
 * it with scripted {@link Steps} and a direct executor.
 *
 * <p>Next plays the following step (its actions, its wait, its checks) on a background thread, unless that step was
 * played already (after Back), when it only shows it again: a step's actions run once, as the room saw them. Back
 * shows the step before, its lines as they came out; a step still playing goes on meanwhile. Next on a step still
 * playing is the presenter moving on: its wait ends at once ({@link Steps#hurry}), it is judged on what came in, and
 * the following step plays; a press is never lost.
 *
 * <p>Example: a three-step lesson. {@link #start()} plays step 1 and shows it; Next plays step 2; Back shows step 1
 * again (not played again); Next shows step 2; Next plays step 3; Next at the last step does nothing.
 */
public final class LessonPlayer implements AutoCloseable {
    /** The steps as a player plays them: {@link LessonRunner} over a real engine, or a script in a test. */
    public interface Steps extends AutoCloseable {
        /** Plays the step (the next one), telling {@code interim} of its figures as they come in; blocks. */
        StepReport run(int step, Consumer<StepReport> interim);

        /** Ends a wait under way (from any thread). */
        void stop();

        /**
         * Ends the wait of {@code step} if it is under way or still to come, as the presenter moves on; its
         * expectations are judged on what came in so far (from any thread).
         */
        default void hurry(int step) {
        }

        @Override
        void close();
    }

    /**
     * What the player shows now.
     *
     * @param lesson  the lesson
     * @param shown   the step on screen, counted from 0
     * @param report  what that step showed so far (interim while it plays), or null before it began
     * @param playing whether that step is playing now
     * @param problem why the lesson cannot play (its config refused, say), or null
     */
    public record View(Lesson lesson, int shown, StepReport report, boolean playing, String problem) {
        public Step step() {
            return lesson.steps().get(shown);
        }

        public boolean canBack() {
            return shown > 0;
        }

        public boolean last() {
            return shown == lesson.steps().size() - 1;
        }
    }

    private final Lesson lesson;
    private final Supplier<Steps> open;
    private final ExecutorService background;
    private final Consumer<View> listener;
    private final StepReport[] reports;
    // guarded by this
    private Steps steps;
    private int shown;
    private int playing = -1;
    private int played;
    private String problem;
    private boolean closed;
    private final CompletableFuture<Void> closedDone = new CompletableFuture<>();
    /** Next was pressed while the step on screen played: show the following one once it is done. */
    private boolean advanceWhenDone;

    /**
     * @param open       makes the steps to play (applies the lesson's config); called once, on the background thread
     * @param background runs {@code open} and each step in order (a single thread; the player shuts it down)
     * @param listener   told of every change, on whichever thread made it
     */
    public LessonPlayer(Lesson lesson, Supplier<Steps> open, ExecutorService background, Consumer<View> listener) {
        this.lesson = lesson;
        this.open = open;
        this.background = background;
        this.listener = listener;
        this.reports = new StepReport[lesson.steps().size()];
    }

    /** A player on the engine behind {@code client}, the lesson's config applied to it in place. */
    public static LessonPlayer onEngine(Lesson lesson, EngineClient client, Consumer<View> listener) {
        return onEngine(lesson, client, listener, CompletableFuture.completedFuture(null));
    }

    /**
     * As {@link #onEngine(Lesson, EngineClient, Consumer)}, applying the lesson's config only once {@code after} is
     * done: a lesson played while another closes must find the config the other put back, not have it put back over
     * its own.
     */
    public static LessonPlayer onEngine(Lesson lesson, EngineClient client, Consumer<View> listener,
                                        CompletableFuture<?> after) {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fulcrum-lesson");
            t.setDaemon(true);
            return t;
        });
        return new LessonPlayer(lesson, () -> {
            after.exceptionally(e -> null).join();
            return new LessonRunner(lesson, LessonEngine.inPlace(client, lesson));
        }, thread, listener);
    }

    public Lesson lesson() {
        return lesson;
    }

    /** Applies the lesson's config and plays its first step. */
    public void start() {
        synchronized (this) {
            playing = 0;
        }
        publish();
        background.execute(() -> {
            try {
                Steps s = open.get();
                synchronized (this) {
                    if (closed) {
                        s.close();
                        return;
                    }
                    steps = s;
                }
            } catch (RuntimeException e) {
                synchronized (this) {
                    problem = e.getMessage() == null ? e.toString() : e.getMessage();
                    playing = -1;
                }
                publish();
                return;
            }
            play(0);
        });
    }

    /**
     * Shows the next step, playing it if it was not played yet; on the step playing, ends its wait and moves on once
     * it is judged; nothing at the last step.
     */
    public void next() {
        int toPlay;
        synchronized (this) {
            if (problem != null || shown >= reports.length - 1 || closed) {
                return;
            }
            if (playing >= 0 && shown == playing) {
                advanceWhenDone = true;
                Steps s = steps;
                if (s != null) {
                    s.hurry(playing);
                }
                return;
            }
            shown++;
            if (playing >= 0) {
                toPlay = -1; // back over steps played while another plays: show them again, up to the one playing
            } else if (shown < played) {
                toPlay = -1;
            } else {
                toPlay = shown;
                playing = shown;
            }
        }
        publish();
        if (toPlay >= 0) {
            background.execute(() -> play(toPlay));
        }
    }

    /** Shows the step before (its lines as they came out). */
    public void back() {
        synchronized (this) {
            if (shown == 0) {
                return;
            }
            shown--;
        }
        publish();
    }

    public synchronized View view() {
        int at = shown;
        return new View(lesson, at, reports[at], playing == at, problem);
    }

    /** How many of the lesson's lines held and how many there were, over the steps played. */
    public synchronized int[] tally() {
        int ok = 0;
        int all = 0;
        for (StepReport r : Arrays.copyOf(reports, played)) {
            for (Check c : r.checks()) {
                all++;
                ok += c.ok() ? 1 : 0;
            }
        }
        return new int[] {ok, all};
    }

    /**
     * Stops a step under way, then, on the player's thread, closes the steps (the lesson's traffic stops, the engine
     * gets its config back) and the thread; {@link #closed()} completes after.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return; // the window closes a player from its own thread and again on the FX thread
            }
            closed = true;
            if (steps != null) {
                steps.stop();
            }
        }
        background.execute(() -> {
            Steps s;
            synchronized (this) {
                s = steps; // read here: steps still being opened when close came are set by now
            }
            try {
                if (s != null) {
                    s.close();
                }
                closedDone.complete(null);
            } catch (RuntimeException e) {
                closedDone.completeExceptionally(e);
            }
        });
        background.shutdown();
    }

    /** Completes once {@link #close()} has closed the steps (their engine has its config back). */
    public CompletableFuture<Void> closed() {
        return closedDone;
    }

    private void play(int step) {
        Steps s;
        boolean hurried;
        synchronized (this) {
            s = steps;
            if (closed || s == null) {
                return;
            }
            hurried = advanceWhenDone;
        }
        if (hurried) {
            s.hurry(step); // Next came while the lesson's config was being applied
        }
        StepReport r;
        try {
            r = s.run(step, interim -> {
                synchronized (this) {
                    reports[step] = interim;
                }
                publish();
            });
        } catch (RuntimeException e) {
            r = new StepReport(step, java.util.List.of(Check.of(false, Check.words("lesson.check.step_failed",
                    e.getMessage()))), true);
        }
        boolean advance;
        synchronized (this) {
            reports[step] = r;
            played = Math.max(played, step + 1);
            playing = -1;
            advance = advanceWhenDone && shown == step;
            advanceWhenDone = false;
        }
        publish();
        if (advance) {
            next();
        }
    }

    private void publish() {
        listener.accept(view());
    }
}
