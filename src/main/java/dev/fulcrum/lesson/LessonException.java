package dev.fulcrum.lesson;

import dev.fulcrum.config.ConfigProblem;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A lesson file that cannot be played, with every problem found in it, each by JSON path as a config's are
 * (docs/REFERENCE.md §1, §5): {@code lesson error: steps[2].do[0].weight: must be between 0 and 1000 (got: -3)}; the
 * embedded config's own problems carry {@code config.} in front of their paths.
 */
public final class LessonException extends RuntimeException {
    private final transient List<ConfigProblem> problems;

    public LessonException(List<ConfigProblem> problems) {
        super(problems.stream().map(LessonException::line).collect(Collectors.joining("\n")));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a LessonException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public List<ConfigProblem> problems() {
        return problems;
    }

    /** One {@code lesson error: ...} line per problem, in the order found. */
    public List<String> lines() {
        return problems.stream().map(LessonException::line).toList();
    }

    static String line(ConfigProblem p) {
        return "lesson error: " + p.describe();
    }
}
