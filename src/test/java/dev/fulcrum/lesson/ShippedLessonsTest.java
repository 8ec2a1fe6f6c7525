package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
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

    /**
     * Every lesson played on a fresh engine, one at a time: some expectations are about latency (least requests keeps
     * p90 under 100 ms), which two plays at once beside the other test JVM on two cores can push past.
     */
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
