package dev.fulcrum.lesson;

import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.i18n.LocalText;
import java.util.List;

/**
 * A workshop lesson as read from {@code samples/lessons/NAME.json} (docs/REFERENCE.md §5): a title and summary for the
 * list, the whole Fulcrum config it runs on (demo backends included), and its steps. {@link LessonReader} reads and
 * checks one; {@link LessonRunner} plays it against a real engine.
 *
 * @param name    the file's base name, e.g. {@code smooth-weighted-round-robin}
 * @param localTitle   one line for the lessons list, in each language the file gives (English always)
 * @param localSummary what the lesson shows, a sentence or two, in each language the file gives
 * @param config  the config the lesson's engine runs
 * @param sets    the config's top-level fields the file writes (the rest are defaults), e.g. {@code retries}: what
 *                a running engine must take from the lesson rather than keep as it runs
 * @param steps   at least one
 */
public record Lesson(String name, LocalText localTitle, LocalText localSummary, FulcrumConfig config,
                     java.util.Set<String> sets, List<Step> steps) {
    public Lesson {
        sets = java.util.Set.copyOf(sets);
        steps = List.copyOf(steps);
    }

    /** The title in the window's language (English on the command line). */
    public String title() {
        return localTitle.text();
    }

    /** The summary in the window's language (English on the command line). */
    public String summary() {
        return localSummary.text();
    }
}
