package dev.fulcrum.lesson;

import dev.fulcrum.time.SystemClock;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code java -jar fulcrum.jar --lesson FILE --check} (docs/REFERENCE.md §5): reads the lesson, starts a fresh engine
 * on its config with its demo backends, plays every step and prints one line per expectation,
 * {@code step 3: ok: share of demo-c 0.112 in [0.09, 0.13]} or {@code step 3: FAILED: ...}. Exit code 0 when every
 * expectation held, 1 when one failed, 2 when the file is not a valid lesson (one {@code lesson error: ...} line per
 * problem on standard error, nothing started). The build checks every shipped lesson through {@link #check}.
 * {@code --step-pause SECONDS} plays the lesson at a presenter's pace: that long of talk before each Next, the
 * traffic and the engine's timers going on meanwhile ({@link LessonRunner#talk}).
 */
public final class LessonCheck {
    public static final int FAILED = 1;
    public static final int INVALID = 2;

    private LessonCheck() {
    }

    /** What a lesson's check showed: its lines in order and whether all held. */
    public record Outcome(List<String> lines, boolean ok, long millis) {
    }

    /**
     * Checks the lesson file, printing the lines on {@code out} and problems on {@code err}; the exit code.
     *
     * @param stepPauseMs the presenter's talk before each Next, 0 for none
     */
    public static int run(Path file, long stepPauseMs, PrintStream out, PrintStream err) {
        Lesson lesson;
        try {
            lesson = LessonReader.read(file);
        } catch (LessonException e) {
            e.lines().forEach(err::println);
            err.flush();
            return INVALID;
        }
        try {
            Outcome o = check(lesson, stepPauseMs, false, out::println);
            out.flush();
            return o.ok() ? 0 : FAILED;
        } catch (RuntimeException e) {
            err.println("fulcrum: lesson " + lesson.name() + ": cannot run: " + e.getMessage());
            err.flush();
            return FAILED;
        }
    }

    /** {@link #check(Lesson, long, boolean, java.util.function.Consumer)} with no pause between steps. */
    public static Outcome check(Lesson lesson, boolean stopAtFirstFailure, java.util.function.Consumer<String> each) {
        return check(lesson, 0, stopAtFirstFailure, each);
    }

    /**
     * Plays every step of {@code lesson} on a fresh engine and collects the lines.
     *
     * @param stepPauseMs        the presenter's talk before each Next (after every step but the last)
     * @param stopAtFirstFailure end after the first step with a failed line (enough to know that it fails)
     * @param each               told each line as it is known
     */
    public static Outcome check(Lesson lesson, long stepPauseMs, boolean stopAtFirstFailure,
                                java.util.function.Consumer<String> each) {
        long start = SystemClock.nanoTime();
        List<String> lines = new ArrayList<>();
        boolean ok = true;
        try (LessonRunner runner = new LessonRunner(lesson, LessonEngine.fresh(lesson.config()))) {
            for (int i = 0; i < lesson.steps().size(); i++) {
                if (i > 0 && stepPauseMs > 0) {
                    runner.talk(stepPauseMs);
                }
                StepReport r = runner.run(i);
                for (Check c : r.checks()) {
                    lines.add(c.line(i + 1));
                    each.accept(c.line(i + 1));
                }
                ok &= r.ok();
                if (!ok && stopAtFirstFailure) {
                    break;
                }
            }
        }
        return new Outcome(lines, ok, (SystemClock.nanoTime() - start) / 1_000_000);
    }
}
