package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shipped lessons keep the presenter's pace: played with {@link #TALK_MS} of talk before each Next, as
 * {@code --lesson FILE --check --step-pause 12} plays them, every expectation must still hold (traffic that spans
 * steps, a timer the narration talks about). Its own class, apart from {@link ShippedLessonsTest}, so that the build's
 * two test JVMs can play these minutes of talk beside each other's work.
 */
class PacedLessonsTest {
    /** The lessons whose traffic and timers span steps, played every build at a presenter's pace. */
    static final List<String> AT_A_SPEAKING_PACE = List.of("circuit-breaker", "retries-and-idempotency");
    /** Twelve seconds of talk before each Next: about one step's narration read aloud. */
    static final long TALK_MS = 12_000;

    @Test
    void theLessonsWhoseTrafficSpansStepsHoldWhenThePresenterTalksBeforeEachNext() throws Exception {
        assertPaced(AT_A_SPEAKING_PACE);
    }

    @Test
    @Tag("long")
    void everyShippedLessonHoldsWhenThePresenterTalksBeforeEachNext() throws Exception {
        assertPaced(Lessons.SHIPPED);
    }

    /** Plays the lessons {@link TwoAtATime} with the talk between steps, and fails naming every line that failed. */
    private static void assertPaced(List<String> names) throws Exception {
        Map<String, Callable<LessonCheck.Outcome>> plays = new LinkedHashMap<>();
        for (String name : names) {
            Lesson lesson = LessonReader.readResource(Lessons.resource(name));
            plays.put(name, () -> LessonCheck.check(lesson, TALK_MS, false, line -> { }));
        }
        List<String> failed = new ArrayList<>();
        for (Map.Entry<String, Future<LessonCheck.Outcome>> r : TwoAtATime.start(plays).entrySet()) {
            LessonCheck.Outcome o = TwoAtATime.outcome(r.getValue());
            System.out.println(r.getKey() + " at " + TALK_MS + " ms a step: " + o.millis() + " ms");
            o.lines().forEach(System.out::println);
            o.lines().stream().filter(l -> l.contains(": FAILED: ")).forEach(l -> failed.add(r.getKey() + " " + l));
        }
        assertThat(failed).as("lines failed with " + TALK_MS + " ms of talk before each Next").isEmpty();
    }
}
