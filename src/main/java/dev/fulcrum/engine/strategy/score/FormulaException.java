package dev.fulcrum.engine.strategy.score;

/**
 * A formula that cannot be compiled: what is wrong and the 1-based column where it is, e.g.
 * {@code unknown variable 'cpux' at column 5} for {@code 1 - cpux}. {@link #getMessage()} is that whole phrase.
 */
public final class FormulaException extends IllegalArgumentException {
    private final String problem;
    private final int column;

    public FormulaException(String problem, int column) {
        super(problem + " at column " + column);
        this.problem = problem;
        this.column = column;
    }

    /** What is wrong, without the column, e.g. {@code unknown variable 'cpux'}. */
    public String problem() {
        return problem;
    }

    /** 1-based: the first character of the formula is column 1. */
    public int column() {
        return column;
    }
}
