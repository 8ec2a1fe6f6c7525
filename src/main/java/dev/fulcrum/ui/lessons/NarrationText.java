package dev.fulcrum.ui.lessons;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.lesson.Check;
import dev.fulcrum.lesson.LessonPlayer;
import dev.fulcrum.lesson.Step;
import dev.fulcrum.lesson.StepReport;
import java.util.ArrayList;
import java.util.List;

/**
 * What the narration panel shows for one moment of a lesson, worked out from the player's {@link LessonPlayer.View}
 * in plain Java (tested without the toolkit): the lesson and step, the words to say, what the step does, and one row
 * per check, ticking as the figures come in.
 *
 * <p>While a step plays, the checks that can be read as figures come in show as {@link Tick#SO_FAR} (holding now)
 * or {@link Tick#NOT_YET}; the others wait as one {@link Tick#PENDING} row. Once the step is over every row is
 * {@link Tick#OK} or {@link Tick#FAILED}: the verdict, as {@code --lesson FILE --check} prints it.
 *
 * @param title    the lesson's title
 * @param position e.g. {@code Step 2 of 5}
 * @param say      the narration
 * @param doing    what the step does (its actions and its wait), one line each
 * @param rows     the checks
 * @param status   one line: playing, the step's tally, or why the lesson cannot play
 * @param canBack  Back goes somewhere
 * @param canNext  Next goes somewhere now (on a step still playing it moves on at once; not after the last)
 */
public record NarrationText(String title, String position, String say, List<String> doing, List<Row> rows,
                            String status, boolean canBack, boolean canNext) {
    public enum Tick { PENDING, SO_FAR, NOT_YET, OK, FAILED }

    public record Row(Tick tick, String text) {
    }

    public static NarrationText of(LessonPlayer.View v) {
        Step step = v.step();
        int steps = v.lesson().steps().size();
        List<String> doing = new ArrayList<>(step.actionLines());
        if (step.waitLine() != null) {
            doing.add(step.waitLine());
        }
        List<Row> rows = new ArrayList<>();
        StepReport r = v.report();
        if (r != null) {
            for (Check c : r.checks()) {
                rows.add(new Row(r.finished() ? (c.ok() ? Tick.OK : Tick.FAILED) : (c.ok() ? Tick.SO_FAR : Tick.NOT_YET),
                        c.text()));
            }
        }
        boolean over = r != null && r.finished();
        int waiting = step.expectations() - (r == null ? 0 : r.checks().size());
        if (!over && waiting > 0) {
            rows.add(new Row(Tick.PENDING, Texts.t(waiting == step.expectations() ? "lessons.pending"
                    : "lessons.pending.more", waiting)));
        }
        String status;
        String shown = String.valueOf(v.shown() + 1);
        if (v.problem() != null) {
            status = Texts.t("lessons.status.cannot", v.problem());
        } else if (v.playing()) {
            status = Texts.t(v.last() ? "lessons.status.playing" : "lessons.status.playing.next", shown);
        } else if (over) {
            long ok = r.checks().stream().filter(Check::ok).count();
            status = r.checks().isEmpty() ? Texts.t("lessons.status.done") : Texts.t(v.last()
                    ? "lessons.status.held.last" : "lessons.status.held", String.valueOf(ok),
                    String.valueOf(r.checks().size()));
        } else {
            status = "";
        }
        boolean canNext = v.problem() == null && !v.last();
        return new NarrationText(v.lesson().title(), Texts.t("lessons.position", shown, String.valueOf(steps)),
                step.say(), List.copyOf(doing), List.copyOf(rows), status, v.canBack(), canNext);
    }
}
