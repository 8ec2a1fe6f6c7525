package dev.fulcrum.ui.lessons;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.lesson.Check;
import dev.fulcrum.lesson.Lesson;
import dev.fulcrum.lesson.LessonPlayer;
import dev.fulcrum.lesson.LessonReader;
import dev.fulcrum.lesson.StepReport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the narration panel shows, worked out without the toolkit. */
class NarrationTextTest {
    static final Lesson LESSON = LessonReader.parse("{\"title\": \"Breakers\", \"summary\": \"s\", \"config\":"
            + " {\"demoBackends\": [{\"id\": \"demo-b\", \"port\": 0}]}, \"steps\": [{\"say\": \"Watch it open.\","
            + " \"do\": [{\"demo\": \"demo-b\", \"errorRate\": 1.0}], \"waitFor\": {\"breaker\": \"demo-b\", \"is\":"
            + " \"OPEN\", \"timeoutMs\": 3000}, \"expect\": [{\"breaker\": \"demo-b\", \"is\": \"OPEN\"}, {\"share\":"
            + " \"demo-b\", \"below\": 0.1}, {\"sequence\": [\"demo-b\", \"demo-b\"]}]}, {\"say\": \"Done.\"}]}", "b");

    @Test
    void beforeTheStepsFiguresComeInEveryCheckWaits() {
        NarrationText t = NarrationText.of(new LessonPlayer.View(LESSON, 0, null, true, null));
        assertThat(t.title()).isEqualTo("Breakers");
        assertThat(t.position()).isEqualTo("Step 1 of 2");
        assertThat(t.say()).isEqualTo("Watch it open.");
        assertThat(t.doing()).containsExactly("demo-b: errors 100%", "wait up to 3 s for breaker of demo-b OPEN");
        assertThat(t.rows()).containsExactly(new NarrationText.Row(NarrationText.Tick.PENDING,
                "3 checks once the step is over"));
        assertThat(t.status()).isEqualTo("Playing step 1… Next moves on now.");
        assertThat(t.canNext()).as("the presenter may move on before the figures are in").isTrue();
        assertThat(t.canBack()).isFalse();
    }

    @Test
    void whileTheStepPlaysTheWatchableChecksTickAsFiguresComeIn() {
        StepReport interim = new StepReport(0, List.of(new Check(false, "breaker of demo-b CLOSED, expected OPEN"),
                new Check(true, "share of demo-b 0.05 below 0.1")), false);
        NarrationText t = NarrationText.of(new LessonPlayer.View(LESSON, 0, interim, true, null));
        assertThat(t.rows()).extracting(NarrationText.Row::tick).containsExactly(NarrationText.Tick.NOT_YET,
                NarrationText.Tick.SO_FAR, NarrationText.Tick.PENDING);
        assertThat(t.rows().get(2).text()).isEqualTo("1 more check once the step is over");
    }

    @Test
    void aFinishedStepShowsItsVerdict() {
        StepReport done = new StepReport(0, List.of(new Check(true, "breaker of demo-b OPEN"),
                new Check(true, "share of demo-b 0 below 0.1"), new Check(false, "sequence demo-b -")), true);
        NarrationText t = NarrationText.of(new LessonPlayer.View(LESSON, 0, done, false, null));
        assertThat(t.rows()).extracting(NarrationText.Row::tick).containsExactly(NarrationText.Tick.OK,
                NarrationText.Tick.OK, NarrationText.Tick.FAILED);
        assertThat(t.status()).isEqualTo("2 of 3 held. Next: space or the Next button.");
        assertThat(t.canNext()).isTrue();
    }

    @Test
    void aLessonThatCannotPlaySaysWhy() {
        NarrationText t = NarrationText.of(new LessonPlayer.View(LESSON, 0, null, false, "the engine refuses it"));
        assertThat(t.status()).isEqualTo("This lesson cannot play here: the engine refuses it");
        assertThat(t.canNext()).isFalse();
    }
}
