package dev.fulcrum.ui.backends;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class BackendFormTest {
    @Test
    void aValidFormHasNoProblems() {
        assertThat(BackendForm.problems("api-3", "http://127.0.0.1:9003", "5", Set.of("api-1"))).isEmpty();
        assertThat(BackendForm.values(" api-3 ", " http://127.0.0.1:9003 ", " 5 "))
                .isEqualTo(new BackendForm.Values("api-3", "http://127.0.0.1:9003", 5));
    }

    @Test
    void eachProblemNamesTheFieldAndTheValue() {
        assertThat(BackendForm.problems("bad id!", "ftp://x:1", "-3", Set.of())).containsExactly(
                "id: must be 1-64 characters of A-Z a-z 0-9 . _ - (got: bad id!)",
                "url: must be an absolute http://host:port URL (scheme http) (got: ftp://x:1)",
                "weight: must be between 0 and 1000 (got: -3)");
    }

    @Test
    void aTakenIdAnEmptyUrlAndAWeightThatIsNotANumberAreProblems() {
        assertThat(BackendForm.problems("a", "", "lots", Set.of("a"))).containsExactly(
                "id: already exists (got: a)",
                "url: required, e.g. http://127.0.0.1:9001 (got: nothing)",
                "weight: must be a whole number between 0 and 1000 (got: lots)");
    }

    @Test
    void idsLongerThanSixtyFourCharactersAreRefused() {
        assertThat(BackendForm.problems("x".repeat(65), "http://h:1", "1", Set.of())).hasSize(1)
                .first().asString().startsWith("id: must be 1-64 characters");
        assertThat(BackendForm.problems("x".repeat(64), "http://h:1", "1", Set.of())).isEmpty();
    }
}
