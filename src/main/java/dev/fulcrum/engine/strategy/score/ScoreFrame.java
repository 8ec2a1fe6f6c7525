package dev.fulcrum.engine.strategy.score;

/**
 * One backend's figures as a formula reads them: a double per {@link Variable}, and per label slot the label's text
 * and its value as a number (NaN when the label is absent or does not read as a number). A frame is filled, then
 * {@link ScoreFormula#evaluate} reads it; it is scratch space for one evaluating thread at a time, reused across
 * backends and evaluations, so evaluating allocates nothing.
 */
public final class ScoreFrame {
    final double[] values = new double[Variable.values().length];
    final String[] labelText;
    final double[] labelNumber;
    /** Set by an evaluation that needed a label the backend lacks (or one that is not a number). */
    boolean missingLabel;

    /** A frame for a formula with {@code labels} label slots ({@code formula.labels().size()}). */
    public ScoreFrame(int labels) {
        labelText = new String[labels];
        labelNumber = new double[labels];
    }

    public ScoreFrame set(Variable v, double value) {
        values[v.ordinal()] = value;
        return this;
    }

    /**
     * Label slot {@code slot} as the backend has it: {@code text} (null when it has no such label) and the number it
     * reads as ({@link #number(String)}, computed once by the caller so the frame's filling need not parse).
     */
    public ScoreFrame label(int slot, String text, double number) {
        labelText[slot] = text;
        labelNumber[slot] = number;
        return this;
    }

    /** {@link #label(int, String, double)} with the number read from {@code text}. */
    public ScoreFrame label(int slot, String text) {
        return label(slot, text, number(text));
    }

    /** A label's value as a number: a decimal like {@code 3}, {@code -0.25} or {@code 1e3}; NaN otherwise (or null). */
    public static double number(String text) {
        if (text == null || text.isEmpty() || !text.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
            return Double.NaN;
        }
        double d = Double.parseDouble(text);
        return Double.isFinite(d) ? d : Double.NaN;
    }
}
