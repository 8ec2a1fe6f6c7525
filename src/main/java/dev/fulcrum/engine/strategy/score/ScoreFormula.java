package dev.fulcrum.engine.strategy.score;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A score formula, compiled: what the {@code score} strategy evaluates for each backend (docs/REFERENCE.md §2.2).
 *
 * <p>Grammar, loosest binding first (all binary operators left-associative but {@code ^}):
 * <pre>
 *   formula  = or
 *   or       = and { "||" and }
 *   and      = equal { "&amp;&amp;" equal }
 *   equal    = compare { ("==" | "!=") compare }
 *   compare  = sum { ("&lt;" | "&lt;=" | "&gt;" | "&gt;=") sum }
 *   sum      = product { ("+" | "-") product }
 *   product  = unary { ("*" | "/") unary }
 *   unary    = ("-" | "+" | "!") unary | power
 *   power    = primary [ "^" unary ]             (right-associative: 2^3^2 = 2^9; -2^2 = -4)
 *   primary  = number | string | variable | "label." NAME | function "(" formula { "," formula } ")"
 *            | "(" formula ")"
 * </pre>
 * A number is a decimal ({@code 0.5}, {@code .5}, {@code 2e-3}); a string is text in double quotes; NAME is letters,
 * digits and {@code _}. The variables are {@link Variable}'s; the functions {@code min(a, b, ...)},
 * {@code max(a, b, ...)}, {@code clamp(x, lo, hi)}, {@code abs(x)}, {@code sqrt(x)}, {@code log(x)} (natural),
 * {@code norm(x, lo, hi)} (where x lies from lo to hi, clamped to 0..1) and {@code if(c, a, b)}. Truth is a number:
 * comparisons give 1 or 0, and anything but 0 is true. A string may only stand beside a label, compared by
 * {@code ==} or {@code !=} ({@code label.tier == "spot"}); anywhere else a label is a number.
 *
 * <p>Worked example: {@code 1 - (0.5*cpu + 0.3*norm(latency, 0, 500) + 0.2*norm(inflight, 0, 50))} compiles to
 * {@code Binary(SUB, 1, Binary(ADD, Binary(ADD, 0.5*cpu, 0.3*Call3(norm)), 0.2*Call3(norm)))}; for a backend at cpu
 * 0.4, latency 100 ms and 10 in flight it is 1 - (0.2 + 0.3 x 0.2 + 0.2 x 0.2) = 0.7. {@code 1 - cpux} is refused
 * with {@code unknown variable 'cpux' at column 5}; {@code norm(cpu, 1)} with
 * {@code function 'norm' takes 3 arguments (got 2) at column 1}; {@code cpu + "spot"} with
 * {@code "spot" is a string: only a label may be compared with it, by == or != at column 7}.
 *
 * <p>Evaluation ({@link #evaluate}) walks the tree over a {@link ScoreFrame} the caller filled, allocating nothing;
 * a result that is NaN or infinite (0/0, log(0), sqrt(-1)), or one that needed a label the backend lacks, is
 * reported as NaN. A formula is immutable and may be evaluated by several threads, each with its own frame.
 */
public final class ScoreFormula {
    /** The longest formula accepted, in characters; a guess at what a person writes and reads on one line. */
    public static final int MAX_LENGTH = 1000;
    /** The deepest nesting of parentheses, calls and unary operators accepted (keeps parsing off the stack's end). */
    public static final int MAX_DEPTH = 64;

    /** The function names, for the error that says a name is not one. */
    public static final List<String> FUNCTIONS = List.of("min", "max", "clamp", "abs", "sqrt", "log", "norm", "if");

    private final String source;
    private final Node root;
    private final Set<Variable> uses;
    private final List<String> labels;

    private ScoreFormula(String source, Node root, Set<Variable> uses, List<String> labels) {
        this.source = source;
        this.root = root;
        this.uses = Collections.unmodifiableSet(uses);
        this.labels = List.copyOf(labels);
    }

    /**
     * Parses and checks {@code source}.
     *
     * @throws FormulaException naming the first problem and its 1-based column
     */
    public static ScoreFormula compile(String source) {
        Parser p = new Parser(source);
        Node root = p.parse();
        return new ScoreFormula(source, root, p.uses, p.labels);
    }

    /** The problem with {@code source} as {@code what at column N}, or null when it compiles. */
    public static String problem(String source) {
        try {
            compile(source);
            return null;
        } catch (FormulaException e) {
            return e.getMessage();
        }
    }

    public String source() {
        return source;
    }

    /** Whether the formula names {@code v} anywhere. */
    public boolean uses(Variable v) {
        return uses.contains(v);
    }

    /** The labels it names, in slot order: {@code label.NAME} reads slot {@code labels().indexOf(NAME)}. */
    public List<String> labels() {
        return labels;
    }

    /** A frame sized for this formula. */
    public ScoreFrame newFrame() {
        return new ScoreFrame(labels.size());
    }

    /**
     * The formula's value over {@code frame}, or NaN when it is not a finite number or needed a label the backend
     * lacks (or one that is not a number where a number was needed). Allocates nothing.
     */
    public double evaluate(ScoreFrame frame) {
        frame.missingLabel = false;
        double v = root.eval(frame);
        return frame.missingLabel || Double.isNaN(v) || Double.isInfinite(v) ? Double.NaN : v;
    }

    @Override
    public String toString() {
        return source;
    }

    /** A lexer and precedence-climbing parser in one: one pass over the characters, one token of lookahead. */
    private static final class Parser {
        private static final int NUM = 0, WORD = 1, LABEL = 2, STR = 3, OP = 4, END = 5;

        private final String s;
        private int pos;
        // the current token
        private int type;
        private String text;
        private double number;
        private int column;

        private int depth;
        final Set<Variable> uses = EnumSet.noneOf(Variable.class);
        final List<String> labels = new ArrayList<>();

        Parser(String s) {
            this.s = s == null ? "" : s;
        }

        Node parse() {
            if (s.length() > MAX_LENGTH) {
                throw new FormulaException("too long (at most " + MAX_LENGTH + " characters)", MAX_LENGTH + 1);
            }
            next();
            if (type == END) {
                throw new FormulaException("empty formula", 1);
            }
            Node n = number(expression(1));
            if (type != END) {
                throw new FormulaException("unexpected " + shown(), column);
            }
            return n;
        }

        // ---------------------------------------------------------------- lexer

        private void next() {
            while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
                pos++;
            }
            column = pos + 1;
            text = null;
            if (pos >= s.length()) {
                type = END;
                return;
            }
            char c = s.charAt(pos);
            if (isDigit(c) || c == '.' && pos + 1 < s.length() && isDigit(s.charAt(pos + 1))) {
                lexNumber();
            } else if (Character.isLetter(c) || c == '_') {
                lexWord();
            } else if (c == '"') {
                int end = s.indexOf('"', pos + 1);
                if (end < 0) {
                    throw new FormulaException("string not closed: a \" is missing", column);
                }
                type = STR;
                text = s.substring(pos + 1, end);
                pos = end + 1;
            } else {
                lexOperator(c);
            }
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private static boolean isWordChar(char c) {
            return c < 128 && (Character.isLetterOrDigit(c) || c == '_');
        }

        private void lexNumber() {
            int start = pos;
            while (pos < s.length() && isDigit(s.charAt(pos))) {
                pos++;
            }
            if (pos < s.length() && s.charAt(pos) == '.') {
                pos++;
                while (pos < s.length() && isDigit(s.charAt(pos))) {
                    pos++;
                }
            }
            if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                int e = pos + 1;
                if (e < s.length() && (s.charAt(e) == '+' || s.charAt(e) == '-')) {
                    e++;
                }
                if (e < s.length() && isDigit(s.charAt(e))) {
                    pos = e;
                    while (pos < s.length() && isDigit(s.charAt(pos))) {
                        pos++;
                    }
                }
            }
            if (pos < s.length() && (isWordChar(s.charAt(pos)) || s.charAt(pos) == '.')) {
                throw new FormulaException("malformed number '" + s.substring(start, pos + 1) + "'", start + 1);
            }
            text = s.substring(start, pos);
            number = Double.parseDouble(text);
            if (Double.isInfinite(number)) {
                throw new FormulaException("number out of range '" + text + "'", start + 1);
            }
            type = NUM;
        }

        private void lexWord() {
            int start = pos;
            while (pos < s.length() && isWordChar(s.charAt(pos))) {
                pos++;
            }
            text = s.substring(start, pos);
            type = WORD;
            if (text.equals("label")) {
                if (pos >= s.length() || s.charAt(pos) != '.') {
                    throw new FormulaException("label needs a name: label.NAME", start + 1);
                }
                int nameStart = ++pos;
                while (pos < s.length() && isWordChar(s.charAt(pos))) {
                    pos++;
                }
                if (pos == nameStart) {
                    throw new FormulaException("label needs a name: label.NAME", start + 1);
                }
                text = s.substring(nameStart, pos);
                type = LABEL;
            }
        }

        private void lexOperator(char c) {
            char d = pos + 1 < s.length() ? s.charAt(pos + 1) : 0;
            String two = "" + c + d;
            switch (two) {
                case "<=", ">=", "==", "!=", "&&", "||" -> {
                    text = two;
                    pos += 2;
                    type = OP;
                    return;
                }
                default -> {
                }
            }
            switch (c) {
                case '+', '-', '*', '/', '^', '(', ')', ',', '<', '>', '!' -> {
                    text = String.valueOf(c);
                    pos++;
                    type = OP;
                }
                case '=' -> throw new FormulaException("'=' alone: compare with ==", column);
                case '&' -> throw new FormulaException("'&' alone: use && for and", column);
                case '|' -> throw new FormulaException("'|' alone: use || for or", column);
                default -> throw new FormulaException("unexpected character " + character(c), column);
            }
        }

        private static String character(char c) {
            return c < ' ' || c == 127 || Character.isWhitespace(c)
                    ? String.format("U+%04X", (int) c) : "'" + c + "'";
        }

        /** Whether the next character after the current token, spaces aside, is {@code (}. */
        private boolean opensParenthesis() {
            int p = pos;
            while (p < s.length() && (s.charAt(p) == ' ' || s.charAt(p) == '\t')) {
                p++;
            }
            return p < s.length() && s.charAt(p) == '(';
        }

        private boolean isOp(String op) {
            return type == OP && text.equals(op);
        }

        private String shown() {
            return switch (type) {
                case END -> "end of formula";
                case STR -> "\"" + text + "\"";
                case LABEL -> "'label." + text + "'";
                default -> "'" + text + "'";
            };
        }

        private void expect(String op) {
            if (!isOp(op)) {
                throw new FormulaException("expected '" + op + "' but found " + shown(), column);
            }
            next();
        }

        // ---------------------------------------------------------------- parser

        /** Binding strength of the binary operator at hand (1 loosest), or 0 when the token is none. */
        private int precedence() {
            if (type != OP) {
                return 0;
            }
            return switch (text) {
                case "||" -> 1;
                case "&&" -> 2;
                case "==", "!=" -> 3;
                case "<", "<=", ">", ">=" -> 4;
                case "+", "-" -> 5;
                case "*", "/" -> 6;
                default -> 0;
            };
        }

        /** Precedence climbing: operands bound tighter than {@code min}, joined by operators of at least {@code min}. */
        private Node expression(int min) {
            Node left = unary();
            while (true) {
                int prec = precedence();
                if (prec < min || prec == 0) {
                    return left;
                }
                String op = text;
                next();
                Node right = expression(prec + 1);
                left = combine(op, left, right);
            }
        }

        private Node combine(String op, Node l, Node r) {
            int col = l.column;
            switch (op) {
                case "||":
                    return new Node.Logic(col, true, number(l), number(r));
                case "&&":
                    return new Node.Logic(col, false, number(l), number(r));
                case "==":
                case "!=":
                    return equality(op.equals("!="), l, r);
                default:
                    break;
            }
            int code = switch (op) {
                case "+" -> Node.Binary.ADD;
                case "-" -> Node.Binary.SUB;
                case "*" -> Node.Binary.MUL;
                case "/" -> Node.Binary.DIV;
                case "<" -> Node.Binary.LT;
                case "<=" -> Node.Binary.LE;
                case ">" -> Node.Binary.GT;
                default -> Node.Binary.GE;
            };
            return new Node.Binary(col, code, number(l), number(r));
        }

        /** {@code ==} / {@code !=}: label with string or label as text, anything else as numbers. */
        private Node equality(boolean negate, Node l, Node r) {
            if (l.kind() == Node.Kind.STRING || r.kind() == Node.Kind.STRING) {
                Node str = l.kind() == Node.Kind.STRING ? l : r;
                Node other = str == l ? r : l;
                if (other.kind() != Node.Kind.LABEL) {
                    throw notANumber((Node.Text) str);
                }
                return new Node.LabelEquals(l.column, ((Node.Label) other).slot, Node.LabelEquals.TEXT,
                        ((Node.Text) str).text, negate);
            }
            if (l.kind() == Node.Kind.LABEL && r.kind() == Node.Kind.LABEL) {
                return new Node.LabelEquals(l.column, ((Node.Label) l).slot, ((Node.Label) r).slot, null, negate);
            }
            return new Node.Binary(l.column, negate ? Node.Binary.NE : Node.Binary.EQ, number(l), number(r));
        }

        /** {@code n} where a number is needed: a string literal is refused there. */
        private Node number(Node n) {
            if (n instanceof Node.Text t) {
                throw notANumber(t);
            }
            return n;
        }

        private static FormulaException notANumber(Node.Text t) {
            return new FormulaException("\"" + t.text + "\" is a string: only a label may be compared with it, "
                    + "by == or !=", t.column);
        }

        private Node unary() {
            if (++depth > MAX_DEPTH) {
                throw new FormulaException("nested too deeply (at most " + MAX_DEPTH + " levels)", column);
            }
            try {
                int col = column;
                if (isOp("-")) {
                    next();
                    return new Node.Negate(col, number(unary()));
                }
                if (isOp("+")) {
                    next();
                    return number(unary());
                }
                if (isOp("!")) {
                    next();
                    return new Node.Not(col, number(unary()));
                }
                Node base = primary();
                if (isOp("^")) {
                    next();
                    Node exponent = unary();
                    return new Node.Binary(base.column, Node.Binary.POW, number(base), number(exponent));
                }
                return base;
            } finally {
                depth--;
            }
        }

        private Node primary() {
            int col = column;
            switch (type) {
                case NUM -> {
                    double v = number;
                    next();
                    return new Node.Constant(col, v);
                }
                case STR -> {
                    String t = text;
                    next();
                    return new Node.Text(col, t);
                }
                case LABEL -> {
                    String name = text;
                    next();
                    int slot = labels.indexOf(name);
                    if (slot < 0) {
                        slot = labels.size();
                        labels.add(name);
                    }
                    return new Node.Label(col, slot, name);
                }
                case WORD -> {
                    String word = text;
                    if (opensParenthesis()) {
                        next();
                        return call(word, col);
                    }
                    Node v = variable(word, col); // refused before the lexer reads what follows the word
                    next();
                    return v;
                }
                case END -> throw new FormulaException("unexpected end of formula", col);
                default -> {
                    if (isOp("(")) {
                        next();
                        Node inner = expression(1);
                        expect(")");
                        return inner;
                    }
                    throw new FormulaException("unexpected " + shown(), col);
                }
            }
        }

        private Node variable(String word, int col) {
            Variable v = Variable.of(word);
            if (v != null) {
                uses.add(v);
                return new Node.Var(col, v);
            }
            if (FUNCTIONS.contains(word)) {
                throw new FormulaException("function '" + word + "' needs its arguments in parentheses", col);
            }
            throw new FormulaException("unknown variable '" + word + "'", col);
        }

        private Node call(String fn, int col) {
            if (!FUNCTIONS.contains(fn)) {
                if (Variable.of(fn) != null) {
                    throw new FormulaException("'" + fn + "' is a variable, not a function", col);
                }
                throw new FormulaException("unknown function '" + fn + "'", col);
            }
            next(); // (
            List<Node> args = new ArrayList<>();
            if (!isOp(")")) {
                args.add(expression(1));
                while (isOp(",")) {
                    next();
                    args.add(expression(1));
                }
            }
            expect(")");
            int n = args.size();
            switch (fn) {
                case "min", "max" -> {
                    if (n < 2) {
                        throw arity(fn, "2 or more arguments", n, col);
                    }
                    return new Node.MinMax(col, fn.equals("max"), args.stream().map(this::number).toArray(Node[]::new));
                }
                case "abs", "sqrt", "log" -> {
                    if (n != 1) {
                        throw arity(fn, "1 argument", n, col);
                    }
                    int code = fn.equals("abs") ? Node.Call1.ABS : fn.equals("sqrt") ? Node.Call1.SQRT : Node.Call1.LOG;
                    return new Node.Call1(col, code, number(args.get(0)));
                }
                case "clamp", "norm" -> {
                    if (n != 3) {
                        throw arity(fn, "3 arguments", n, col);
                    }
                    return new Node.Call3(col, fn.equals("norm"), number(args.get(0)), number(args.get(1)),
                            number(args.get(2)));
                }
                default -> { // if
                    if (n != 3) {
                        throw arity(fn, "3 arguments", n, col);
                    }
                    return new Node.If(col, number(args.get(0)), number(args.get(1)), number(args.get(2)));
                }
            }
        }

        private static FormulaException arity(String fn, String takes, int got, int col) {
            return new FormulaException("function '" + fn + "' takes " + takes + " (got " + got + ")", col);
        }
    }
}
