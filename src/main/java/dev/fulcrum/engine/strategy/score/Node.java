package dev.fulcrum.engine.strategy.score;

/**
 * A compiled formula's node: evaluated over a {@link ScoreFrame}, returning a double, allocating nothing. Truth is a
 * number: a comparison gives 1 or 0, and {@code &&}, {@code ||}, {@code !} and {@code if} take anything but 0 as
 * true. NaN goes through every node (a comparison or a condition on NaN gives NaN), so a formula that divides 0 by
 * 0 anywhere on the path it takes scores NaN, which the strategy counts as missing.
 */
abstract class Node {
    /** What a node yields: a number, a string literal (only ever compared with a label), or a label. */
    enum Kind { NUMBER, STRING, LABEL }

    /** 1-based column of the node's first character, for the errors found after parsing it. */
    final int column;

    Node(int column) {
        this.column = column;
    }

    Kind kind() {
        return Kind.NUMBER;
    }

    abstract double eval(ScoreFrame f);

    static double truth(boolean b) {
        return b ? 1 : 0;
    }

    static final class Constant extends Node {
        final double value;

        Constant(int column, double value) {
            super(column);
            this.value = value;
        }

        @Override
        double eval(ScoreFrame f) {
            return value;
        }
    }

    static final class Var extends Node {
        final int slot;

        Var(int column, Variable v) {
            super(column);
            this.slot = v.ordinal();
        }

        @Override
        double eval(ScoreFrame f) {
            return f.values[slot];
        }
    }

    /** A string literal: it has no value of its own and is only compiled into a {@link LabelEquals}. */
    static final class Text extends Node {
        final String text;

        Text(int column, String text) {
            super(column);
            this.text = text;
        }

        @Override
        Kind kind() {
            return Kind.STRING;
        }

        @Override
        double eval(ScoreFrame f) {
            throw new IllegalStateException("a string has no number"); // refused by the parser
        }
    }

    /** {@code label.NAME} as a number; a backend without it, or whose value is not a number, is missing. */
    static final class Label extends Node {
        final int slot;
        final String name;

        Label(int column, int slot, String name) {
            super(column);
            this.slot = slot;
            this.name = name;
        }

        @Override
        Kind kind() {
            return Kind.LABEL;
        }

        @Override
        double eval(ScoreFrame f) {
            double v = f.labelNumber[slot];
            if (v != v) {
                f.missingLabel = true;
            }
            return v;
        }
    }

    /**
     * {@code label.A == "text"} or {@code label.A == label.B} (or {@code !=}), compared as text; a backend lacking a
     * label it names is missing.
     */
    static final class LabelEquals extends Node {
        /** {@link #b} when the label is compared with {@link #text} rather than with a second label. */
        static final int TEXT = -1;
        final int a;
        final int b;
        final String text;
        final boolean negate;

        LabelEquals(int column, int a, int b, String text, boolean negate) {
            super(column);
            this.a = a;
            this.b = b;
            this.text = text;
            this.negate = negate;
        }

        @Override
        double eval(ScoreFrame f) {
            String x = f.labelText[a];
            String y = b == TEXT ? text : f.labelText[b];
            if (x == null || y == null) {
                f.missingLabel = true;
                return Double.NaN;
            }
            return truth(x.equals(y) != negate);
        }
    }

    static final class Negate extends Node {
        final Node x;

        Negate(int column, Node x) {
            super(column);
            this.x = x;
        }

        @Override
        double eval(ScoreFrame f) {
            return -x.eval(f);
        }
    }

    static final class Not extends Node {
        final Node x;

        Not(int column, Node x) {
            super(column);
            this.x = x;
        }

        @Override
        double eval(ScoreFrame f) {
            double v = x.eval(f);
            return v != v ? v : truth(v == 0);
        }
    }

    /** The arithmetic and comparison operators, one node class switching on a small int (no boxing, no lambdas). */
    static final class Binary extends Node {
        static final int ADD = 0, SUB = 1, MUL = 2, DIV = 3, POW = 4, LT = 5, LE = 6, GT = 7, GE = 8, EQ = 9, NE = 10;
        final int op;
        final Node l;
        final Node r;

        Binary(int column, int op, Node l, Node r) {
            super(column);
            this.op = op;
            this.l = l;
            this.r = r;
        }

        @Override
        double eval(ScoreFrame f) {
            double a = l.eval(f);
            double b = r.eval(f);
            switch (op) {
                case ADD:
                    return a + b;
                case SUB:
                    return a - b;
                case MUL:
                    return a * b;
                case DIV:
                    return a / b;
                case POW:
                    return Math.pow(a, b);
                default:
                    break;
            }
            if (a != a || b != b) {
                return Double.NaN;
            }
            switch (op) {
                case LT:
                    return truth(a < b);
                case LE:
                    return truth(a <= b);
                case GT:
                    return truth(a > b);
                case GE:
                    return truth(a >= b);
                case EQ:
                    return truth(a == b);
                default:
                    return truth(a != b);
            }
        }
    }

    /**
     * {@code a && b} and {@code a || b}: NaN on the left gives NaN; a left side that decides ({@code 0} for
     * {@code &&}, anything else for {@code ||}) gives 0 or 1 without evaluating the right; else the right's truth.
     */
    static final class Logic extends Node {
        final boolean or;
        final Node l;
        final Node r;

        Logic(int column, boolean or, Node l, Node r) {
            super(column);
            this.or = or;
            this.l = l;
            this.r = r;
        }

        @Override
        double eval(ScoreFrame f) {
            double a = l.eval(f);
            if (a != a) {
                return a;
            }
            if ((a != 0) == or) {
                return truth(or);
            }
            double b = r.eval(f);
            return b != b ? b : truth(b != 0);
        }
    }

    /** {@code if(c, a, b)}: only the branch taken is evaluated (a label the other branch names is not needed). */
    static final class If extends Node {
        final Node c;
        final Node a;
        final Node b;

        If(int column, Node c, Node a, Node b) {
            super(column);
            this.c = c;
            this.a = a;
            this.b = b;
        }

        @Override
        double eval(ScoreFrame f) {
            double v = c.eval(f);
            return v != v ? v : v != 0 ? a.eval(f) : b.eval(f);
        }
    }

    /** The one-argument functions. */
    static final class Call1 extends Node {
        static final int ABS = 0, SQRT = 1, LOG = 2;
        final int fn;
        final Node x;

        Call1(int column, int fn, Node x) {
            super(column);
            this.fn = fn;
            this.x = x;
        }

        @Override
        double eval(ScoreFrame f) {
            double v = x.eval(f);
            switch (fn) {
                case ABS:
                    return Math.abs(v);
                case SQRT:
                    return Math.sqrt(v);
                default:
                    return Math.log(v);
            }
        }
    }

    /** {@code min} and {@code max} of two or more arguments; NaN in any gives NaN. */
    static final class MinMax extends Node {
        final boolean max;
        final Node[] args;

        MinMax(int column, boolean max, Node[] args) {
            super(column);
            this.max = max;
            this.args = args;
        }

        @Override
        double eval(ScoreFrame f) {
            double v = args[0].eval(f);
            for (int i = 1; i < args.length; i++) {
                double w = args[i].eval(f);
                v = max ? Math.max(v, w) : Math.min(v, w);
            }
            return v;
        }
    }

    /** {@code clamp(x, lo, hi)} = min(max(x, lo), hi); {@code norm(x, lo, hi)} = where x lies from lo to hi, in 0..1. */
    static final class Call3 extends Node {
        final boolean norm;
        final Node x;
        final Node lo;
        final Node hi;

        Call3(int column, boolean norm, Node x, Node lo, Node hi) {
            super(column);
            this.norm = norm;
            this.x = x;
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        double eval(ScoreFrame f) {
            double v = x.eval(f);
            double a = lo.eval(f);
            double b = hi.eval(f);
            if (!norm) {
                return Math.min(Math.max(v, a), b);
            }
            if (v != v || a != a || b != b) {
                return Double.NaN;
            }
            if (a == b) {
                return truth(v >= b); // a step at lo
            }
            double t = (v - a) / (b - a);
            return t < 0 ? 0 : t > 1 ? 1 : t;
        }
    }
}
