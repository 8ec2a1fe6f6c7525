package dev.fulcrum.engine.strategy.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScoreFormulaTest {
    /** cpu 0.4, latency 100, inflight 10, errorRate 0.1, weight 3, effectiveWeight 1.5; label tier=spot, cost=2.5. */
    private static double eval(String formula) {
        ScoreFormula f = ScoreFormula.compile(formula);
        ScoreFrame frame = f.newFrame();
        fill(frame);
        for (int k = 0; k < f.labels().size(); k++) {
            String name = f.labels().get(k);
            frame.label(k, switch (name) {
                case "tier" -> "spot";
                case "cost" -> "2.5";
                case "zone" -> "spot";
                default -> null;
            });
        }
        return f.evaluate(frame);
    }

    private static void fill(ScoreFrame frame) {
        frame.set(Variable.CPU, 0.4).set(Variable.LATENCY, 100).set(Variable.INFLIGHT, 10)
                .set(Variable.ERROR_RATE, 0.1).set(Variable.WEIGHT, 3).set(Variable.EFFECTIVE_WEIGHT, 1.5);
    }

    @Test
    void theWorkedExampleOfTheJavadoc() {
        assertThat(eval("1 - (0.5*cpu + 0.3*norm(latency, 0, 500) + 0.2*norm(inflight, 0, 50))"))
                .isCloseTo(0.7, within(1e-12));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = ';', value = {
            "1 + 2 * 3; 7",
            "(1 + 2) * 3; 9",
            "10 - 4 - 3; 3",
            "8 / 4 / 2; 1",
            "2 ^ 3 ^ 2; 512",
            "-2 ^ 2; -4",
            "2 ^ -1; 0.5",
            "--3; 3",
            "+3; 3",
            "1 + 2 < 4; 1",
            "1 < 2 == 1; 1",
            "1 == 1 && 0 || 1; 1",
            "1 || 0 && 0; 1",
            "2 && 3; 1",
            "2 && 0; 0",
            "0 && 0 / 0; 0", // the right side is not evaluated
            "0 || 2; 1",
            "0 || 0; 0",
            "2 || 0 / 0; 1",
            "!0 + 1; 2",
            "!(1 < 2); 0",
            "3 >= 3; 1",
            "3 > 3; 0",
            "3 <= 2; 0",
            "3 != 2; 1",
            ".5 + 1e1 + 2E-1; 10.7",
            "cpu; 0.4",
            "latency; 100",
            "inflight; 10",
            "errorRate; 0.1",
            "weight; 3",
            "effectiveWeight; 1.5",
            "min(3, 1, 2); 1",
            "max(3, 1, 2); 3",
            "clamp(5, 0, 1); 1",
            "clamp(-5, 0, 1); 0",
            "clamp(0.3, 0, 1); 0.3",
            "abs(-2.5); 2.5",
            "sqrt(16); 4",
            "log(1); 0",
            "norm(latency, 0, 500); 0.2",
            "norm(latency, 200, 300); 0",
            "norm(latency, 0, 50); 1",
            "norm(latency, 100, 100); 1",
            "norm(latency, 500, 0); 0.8",
            "if(cpu > 0.5, 1, 2); 2",
            "if(cpu < 0.5, 1, 2); 1",
            "label.cost * 2; 5",
            "if(label.tier == \"spot\", 0.5, 1); 0.5",
            "if(\"spot\" != label.tier, 0.5, 1); 1",
            "label.tier == label.zone; 1",
            "if(cpu > 1, label.absent, 7); 7",
            "   1\t+ 1 ; 2"})
    void precedenceFunctionsAndVariables(String formula, double expected) {
        assertThat(eval(formula)).isCloseTo(expected, within(1e-12));
    }

    @ParameterizedTest(name = "{0} -> missing")
    @CsvSource(delimiter = ';', value = {
            "label.absent", // a label the backend lacks
            "label.tier + 1", // a label that is not a number, used as one
            "label.absent == \"x\"",
            "1 / 0", // infinite
            "0 / 0", // NaN
            "log(0)",
            "sqrt(-1)",
            "if(0 / 0, 1, 2)",
            "0 / 0 > 1",
            "0 / 0 && 1",
            "0 / 0 || 1",
            "1 && 0 / 0",
            "0 || 0 / 0"})
    void whatCannotBeAFiniteNumberScoresNaN(String formula) {
        assertThat(eval(formula)).isNaN();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = ';', value = {
            "1 - cpux; unknown variable 'cpux' at column 5",
            "; empty formula at column 1",
            "1 +; unexpected end of formula at column 4",
            "(1 + 2; expected ')' but found end of formula at column 7",
            "1 2; unexpected '2' at column 3",
            "foo(1); unknown function 'foo' at column 1",
            "cpu(1); 'cpu' is a variable, not a function at column 1",
            "norm; function 'norm' needs its arguments in parentheses at column 1",
            "norm(cpu, 1); function 'norm' takes 3 arguments (got 2) at column 1",
            "1 + abs(); function 'abs' takes 1 argument (got 0) at column 5",
            "min(cpu); function 'min' takes 2 or more arguments (got 1) at column 1",
            "if(1, 2); function 'if' takes 3 arguments (got 2) at column 1",
            "clamp(1,2,3,4); function 'clamp' takes 3 arguments (got 4) at column 1",
            "cpu + \"spot\"; \"spot\" is a string: only a label may be compared with it, by == or != at column 7",
            "cpu == \"spot\"; \"spot\" is a string: only a label may be compared with it, by == or != at column 8",
            "label.tier < \"spot\"; \"spot\" is a string: only a label may be compared with it, by == or != at column 14",
            "\"a\" == \"a\"; \"a\" is a string: only a label may be compared with it, by == or != at column 1",
            "abs(\"x\"); \"x\" is a string: only a label may be compared with it, by == or != at column 5",
            "label; label needs a name: label.NAME at column 1",
            "1 + label.; label needs a name: label.NAME at column 5",
            "cpu = 1; '=' alone: compare with == at column 5",
            "cpu & 1; '&' alone: use && for and at column 5",
            "cpu | 1; '|' alone: use || for or at column 5",
            "1.2.3; malformed number '1.2.' at column 1",
            "2x; malformed number '2x' at column 1",
            "1e999; number out of range '1e999' at column 1",
            "Math.exp(1); unknown variable 'Math' at column 1",
            "cpu #; unexpected character '#' at column 5"})
    void everyErrorNamesItsColumn(String formula, String message) {
        assertThatThrownBy(() -> ScoreFormula.compile(formula == null ? "" : formula))
                .isInstanceOf(FormulaException.class).hasMessage(message);
    }

    @Test
    void quotesThatDoNotFitAreRefused() {
        assertThatThrownBy(() -> ScoreFormula.compile("'a'")).hasMessage("unexpected character ''' at column 1");
        assertThatThrownBy(() -> ScoreFormula.compile("label.x == \"open"))
                .hasMessage("string not closed: a \" is missing at column 12");
    }

    @Test
    void aNewlineOrAnotherControlCharacterIsRefusedByItsCode() {
        assertThatThrownBy(() -> ScoreFormula.compile("cpu\n+ 1")).hasMessage("unexpected character U+000A at column 4");
    }

    @Test
    void tooLongOrTooDeepIsRefusedBeforeTheStackRunsOut() {
        assertThatThrownBy(() -> ScoreFormula.compile("1+".repeat(500) + "1"))
                .hasMessage("too long (at most 1000 characters) at column 1001");
        assertThatThrownBy(() -> ScoreFormula.compile("(".repeat(65) + "1" + ")".repeat(65)))
                .hasMessage("nested too deeply (at most 64 levels) at column 65");
        assertThat(ScoreFormula.problem("(".repeat(60) + "1" + ")".repeat(60))).isNull();
    }

    @Test
    void theFormulaSaysWhatItReads() {
        ScoreFormula f = ScoreFormula.compile("cpu + label.b * label.a + label.b");
        assertThat(f.uses(Variable.CPU)).isTrue();
        assertThat(f.uses(Variable.INFLIGHT)).isFalse();
        assertThat(f.labels()).containsExactly("b", "a");
        assertThat(ScoreFormula.problem("1 - cpux")).isEqualTo("unknown variable 'cpux' at column 5");
    }

    @Test
    void aLabelReadsAsANumberOnlyWhenItIsOne() {
        assertThat(ScoreFrame.number("3")).isEqualTo(3);
        assertThat(ScoreFrame.number("-0.25")).isEqualTo(-0.25);
        assertThat(ScoreFrame.number("1e3")).isEqualTo(1000);
        assertThat(ScoreFrame.number("spot")).isNaN();
        assertThat(ScoreFrame.number("NaN")).isNaN();
        assertThat(ScoreFrame.number("Infinity")).isNaN();
        assertThat(ScoreFrame.number("0x10")).isNaN();
        assertThat(ScoreFrame.number(null)).isNaN();
    }

    // not a timing threshold: the bytes this thread allocated across a million evaluations, after a warm-up
    @Test
    void evaluatingAllocatesNothing() {
        ScoreFormula f = ScoreFormula.compile("if(label.tier == \"spot\", 0.5, 1) * (1 - (0.5*cpu "
                + "+ 0.3*norm(latency, 0, 500) + 0.2*norm(inflight, 0, 50))) + min(errorRate, weight, 2) ^ 2 "
                + "- sqrt(abs(log(effectiveWeight))) + clamp(label.cost, 0, 1) && !(cpu > 2 || cpu < -1)");
        ScoreFrame frame = f.newFrame();
        fill(frame);
        frame.label(0, "spot").label(1, "0.5");
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double sink = 0;
        for (int i = 0; i < 200_000; i++) {
            frame.set(Variable.INFLIGHT, i & 63);
            sink += f.evaluate(frame);
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1_000_000; i++) {
            frame.set(Variable.INFLIGHT, i & 63);
            sink += f.evaluate(frame);
        }
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertThat(sink).isFinite();
        assertThat(allocated).as("bytes over 1,000,000 evaluations").isLessThan(1_000); // 0 per evaluation
    }
}
