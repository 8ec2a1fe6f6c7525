package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.i18n.LocalText;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every shipped lesson speaks the window's three languages: its title, its summary and each step's narration in
 * English, Simplified Chinese and Polish, so a trainer can run any of them in the room's language.
 */
class ShippedLessonLanguagesTest {
    static final List<String> LANGUAGES = List.of("en", "zh", "pl");

    @Test
    void everyShippedLessonHasItsTitleSummaryAndNarrationInEveryLanguage() {
        List<String> missing = new ArrayList<>();
        for (Lesson l : Lessons.shipped()) {
            missing(l.name() + " title", l.localTitle(), missing);
            missing(l.name() + " summary", l.localSummary(), missing);
            for (int i = 0; i < l.steps().size(); i++) {
                missing(l.name() + " steps[" + i + "].say", l.steps().get(i).localSay(), missing);
            }
        }
        assertThat(missing).as("texts without a language").isEmpty();
    }

    @Test
    void aTextWithoutALanguageIsFound() {
        List<String> missing = new ArrayList<>();
        missing("t", LocalText.of("English only"), missing);
        assertThat(missing).containsExactly("t: zh", "t: pl");
    }

    /** Adds {@code what: language} for each language {@code text} lacks. */
    static void missing(String what, LocalText text, List<String> missing) {
        for (String language : LANGUAGES) {
            if (!text.byLanguage().containsKey(language)) {
                missing.add(what + ": " + language);
            }
        }
    }
}
