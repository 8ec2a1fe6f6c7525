/**
 * The Lessons tab and the narration panel beside the views: lists the lessons, plays one on the window's engine
 * (embedded or attached) through {@link dev.fulcrum.lesson.LessonPlayer}, switches to the view each step names and
 * marks what it points at. {@link dev.fulcrum.ui.lessons.NarrationText} is what the panel shows, in plain Java.
 *
 * <p>May use: the ui root ({@code UiSession}, {@code Views}), {@code lesson}, {@code i18n} (its words, and the lessons'
 * texts, in the window's language), JavaFX. Must not use: the other views'
 * packages (it finds what to mark by the ids they give their nodes), app, proxy.
 */
package dev.fulcrum.ui.lessons;
