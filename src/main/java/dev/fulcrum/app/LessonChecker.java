package dev.fulcrum.app;

import java.nio.file.Path;

/**
 * Checks a lesson file for {@link FulcrumCommand}'s {@code --lesson FILE --check} (docs/REFERENCE.md §5). The lessons
 * live above this package ({@code dev.fulcrum.lesson} starts engines of its own through it), so
 * {@code dev.fulcrum.Main} hands the command the lessons' checker, as it hands it the window.
 */
@FunctionalInterface
public interface LessonChecker {
    /**
     * Plays every step of the lesson in {@code file} on a fresh engine, printing one line per expectation on
     * standard output.
     *
     * @param stepPauseMs the presenter's talk before each Next ({@code --step-pause}), 0 for none
     * @return the exit code: 0 every expectation held, 1 one failed, 2 the file is not a valid lesson
     */
    int check(Path file, long stepPauseMs);
}
