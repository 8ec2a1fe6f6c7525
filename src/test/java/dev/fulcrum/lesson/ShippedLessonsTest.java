package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every shipped lesson still shows what it promises: each is played against a fresh engine with its demo backends and
 * seeded traffic, as {@code --lesson FILE --check} plays it, and every expectation must hold. The lesson list of
 * {@link Lessons} is the folder's. Each lesson's lines and time go to this class's output.
 */
class ShippedLessonsTest {
    @Test
    void theListIsTheFolder() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("samples/lessons"))) {
            assertThat(files.map(p -> p.getFileName().toString().replaceFirst("\\.json$", "")))
                    .containsExactlyInAnyOrderElementsOf(Lessons.SHIPPED);
        }
        assertThat(Lessons.SHIPPED).hasSizeGreaterThanOrEqualTo(10);
    }

    @Test
    void everyShippedLessonReadsAndExpectsSomethingInMostSteps() {
        for (Lesson l : Lessons.shipped()) {
            long checked = l.steps().stream().filter(s -> s.expectations() > 0).count();
            assertThat(checked).as(l.name() + ": steps with expectations").isGreaterThanOrEqualTo(
                    (l.steps().size() + 1) / 2);
            assertThat(l.title()).isNotBlank();
        }
    }

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

    /**
     * Plays the lessons with {@link #TALK_MS} of talk between steps, two at a time (a lesson mostly waits, and one at
     * a time would cost the build a minute per lesson), and fails naming every line that failed.
     */
    private static void assertPaced(List<String> names) throws Exception {
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            Map<String, Future<LessonCheck.Outcome>> runs = new LinkedHashMap<>();
            for (String name : names) {
                Lesson lesson = LessonReader.readResource(Lessons.resource(name));
                runs.put(name, two.submit(() -> LessonCheck.check(lesson, TALK_MS, false, line -> { })));
            }
            List<String> failed = new ArrayList<>();
            for (Map.Entry<String, Future<LessonCheck.Outcome>> r : runs.entrySet()) {
                LessonCheck.Outcome o = r.getValue().get();
                System.out.println(r.getKey() + " at " + TALK_MS + " ms a step: " + o.millis() + " ms");
                o.lines().forEach(System.out::println);
                o.lines().stream().filter(l -> l.contains(": FAILED: ")).forEach(l -> failed.add(r.getKey() + " " + l));
            }
            assertThat(failed).as("lines failed with " + TALK_MS + " ms of talk before each Next").isEmpty();
        } finally {
            two.shutdownNow();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyShippedLessonHoldsOnARealEngine() {
        return Lessons.SHIPPED.stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            Lesson lesson = LessonReader.readResource(Lessons.resource(name));
            LessonCheck.Outcome o = LessonCheck.check(lesson, false, line -> { });
            System.out.println(name + ": " + o.millis() + " ms");
            o.lines().forEach(System.out::println);
            List<String> failed = o.lines().stream().filter(l -> l.contains(": FAILED: ")).toList();
            assertThat(failed).as(name).isEmpty();
            assertThat(o.lines()).as(name + ": lines").isNotEmpty();
        }));
    }
}
