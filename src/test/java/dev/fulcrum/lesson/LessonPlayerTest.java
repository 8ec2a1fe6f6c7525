package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Next, Back and what the player shows, on scripted steps and a direct executor: no engine, no toolkit, no waiting. */
class LessonPlayerTest {
    static final Lesson LESSON = LessonReader.parse(LessonReaderTest.lesson(
            "[{\"say\": \"one\"}, {\"say\": \"two\"}, {\"say\": \"three\"}]"), "three");

    /** Runs every task at once, on the caller's thread. */
    static final class Direct extends AbstractExecutorService {
        boolean shut;

        @Override
        public void execute(Runnable r) {
            r.run();
        }

        @Override
        public void shutdown() {
            shut = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shut = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shut;
        }

        @Override
        public boolean isTerminated() {
            return shut;
        }

        @Override
        public boolean awaitTermination(long t, TimeUnit u) {
            return true;
        }
    }

    /** Steps that report one interim and one final line each, and remember what was played. */
    static class Script implements LessonPlayer.Steps {
        final List<Integer> played = new ArrayList<>();
        boolean stopped;
        boolean closed;

        @Override
        public StepReport run(int step, Consumer<StepReport> interim) {
            played.add(step);
            interim.accept(new StepReport(step, List.of(new Check(false, "coming")), false));
            return new StepReport(step, List.of(new Check(step != 1, "step " + step)), true);
        }

        @Override
        public void stop() {
            stopped = true;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void startPlaysTheFirstStepAndNextTheFollowingOnes() {
        Script script = new Script();
        List<LessonPlayer.View> seen = new ArrayList<>();
        LessonPlayer p = new LessonPlayer(LESSON, () -> script, new Direct(), seen::add);
        p.start();
        assertThat(script.played).containsExactly(0);
        assertThat(p.view().shown()).isZero();
        assertThat(p.view().report().checks()).containsExactly(new Check(true, "step 0"));
        assertThat(seen).anyMatch(v -> v.report() != null && !v.report().finished()); // the interim came through
        p.next();
        p.next();
        assertThat(script.played).containsExactly(0, 1, 2);
        assertThat(p.view().last()).isTrue();
        p.next();
        assertThat(script.played).containsExactly(0, 1, 2);
        assertThat(p.tally()).containsExactly(2, 3);
    }

    @Test
    void backShowsAStepAgainWithoutPlayingItAgain() {
        Script script = new Script();
        LessonPlayer p = new LessonPlayer(LESSON, () -> script, new Direct(), v -> { });
        p.start();
        p.next();
        p.back();
        assertThat(p.view().shown()).isZero();
        assertThat(p.view().canBack()).isFalse();
        p.next();
        assertThat(p.view().shown()).isEqualTo(1);
        assertThat(p.view().report().checks()).containsExactly(new Check(false, "step 1"));
        assertThat(script.played).containsExactly(0, 1);
        p.next();
        assertThat(script.played).containsExactly(0, 1, 2);
    }

    @Test
    void aLessonThatCannotPlaySaysWhyAndGoesNowhere() {
        LessonPlayer p = new LessonPlayer(LESSON, () -> {
            throw new IllegalStateException("the engine refuses the lesson's config: timeouts.readMs: takes effect at"
                    + " a restart");
        }, new Direct(), v -> { });
        p.start();
        assertThat(p.view().problem()).startsWith("the engine refuses");
        assertThat(p.view().playing()).isFalse();
        p.next();
        assertThat(p.view().shown()).isZero();
    }

    @Test
    void nextOnTheStepStillPlayingEndsItsWaitAndPlaysTheFollowingOne() {
        List<Integer> hurried = new ArrayList<>();
        LessonPlayer[] player = new LessonPlayer[1];
        Script script = new Script() {
            @Override
            public StepReport run(int step, Consumer<StepReport> interim) {
                if (step == 0) {
                    player[0].next(); // the presenter presses Next while step 1 still waits
                }
                return super.run(step, interim);
            }

            @Override
            public void hurry(int step) {
                hurried.add(step);
            }
        };
        player[0] = new LessonPlayer(LESSON, () -> script, new Direct(), v -> { });
        player[0].start();

        assertThat(hurried).as("step 1's wait ended").containsExactly(0);
        assertThat(script.played).as("the press was not lost: step 2 played after step 1").containsExactly(0, 1);
        assertThat(player[0].view().shown()).isEqualTo(1);
    }

    @Test
    void closeStopsTheStepsAndTheThread() {
        Script script = new Script();
        Direct thread = new Direct();
        LessonPlayer p = new LessonPlayer(LESSON, () -> script, thread, v -> { });
        p.start();
        p.close();
        assertThat(script.stopped).isTrue();
        assertThat(script.closed).isTrue();
        assertThat(thread.shut).isTrue();
        p.next();
        assertThat(script.played).containsExactly(0);
    }

    @Test
    void aSecondCloseDoesNothing() {
        Script script = new Script();
        java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
        LessonPlayer p = new LessonPlayer(LESSON, () -> script, thread, v -> { });
        p.close();
        // the window closes from its own thread, then on the FX thread: the thread is shut down by then
        org.assertj.core.api.Assertions.assertThatCode(p::close).doesNotThrowAnyException();
    }
}
