package dev.fulcrum.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A config that cannot be used, with every problem found in it (never just the first). The CLI prints
 * {@link #lines()} one per line on standard error and exits 2; {@code PUT /api/config} answers 400 with
 * {@link #problems()}.
 */
public final class ConfigException extends RuntimeException {
    private final transient List<ConfigProblem> problems;

    public ConfigException(List<ConfigProblem> problems) {
        super(problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("\n")));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public List<ConfigProblem> problems() {
        return problems;
    }

    /** One {@code config error: ...} line per problem, in the order found. */
    public List<String> lines() {
        return problems.stream().map(ConfigProblem::toString).toList();
    }
}
