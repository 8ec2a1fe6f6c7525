package dev.fulcrum.lesson;

import java.util.List;

/**
 * What one step of a lesson showed: a line per expectation (and per action that failed or wait that timed out), in
 * order. While the step runs the window gets interim reports ({@code finished} false) of the expectations that can be
 * read as the figures come in; the finished report is the verdict.
 *
 * @param step     the step, counted from 0
 * @param checks   the lines
 * @param finished whether the step is over (its actions done, its wait over, every expectation checked)
 */
public record StepReport(int step, List<Check> checks, boolean finished) {
    public StepReport {
        checks = List.copyOf(checks);
    }

    public boolean ok() {
        return checks.stream().allMatch(Check::ok);
    }
}
