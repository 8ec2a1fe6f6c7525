package dev.fulcrum.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AnswersTest {
    @Test
    void eachAnswerCountsOnceAndFiveHundredOrMoreIsAnError() {
        Answers a = new Answers();
        for (int status : new int[] {200, 101, 404, 499, 500, 502, 503, 504}) {
            a.answered(status);
        }
        assertThat(a.total()).isEqualTo(8);
        assertThat(a.errors()).isEqualTo(4);
    }

    @Test
    void theRatesAreThoseSinceTheLastRollUp() {
        Answers a = new Answers();
        a.roll(0);
        assertThat(a.rps()).as("no roll-up before: no rate").isZero();
        for (int i = 0; i < 10; i++) {
            a.answered(i < 3 ? 503 : 200);
        }
        a.roll(2_000_000_000L);
        assertThat(a.rps()).isEqualTo(5.0);
        assertThat(a.errorRps()).isEqualTo(1.5);
        a.roll(3_000_000_000L);
        assertThat(a.rps()).isZero();
        assertThat(a.total()).as("the counts go on").isEqualTo(10);
    }
}
