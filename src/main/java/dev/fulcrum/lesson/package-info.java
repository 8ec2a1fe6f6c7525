/**
 * Lessons: workshops that run themselves (docs/REFERENCE.md §5). A lesson file ({@code samples/lessons/*.json}) holds a
 * title, a summary, a whole Fulcrum config with demo backends, and steps that say something, do something, wait for
 * something and expect what the room should then see, as checks on real figures.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.lesson.LessonReader} reads and checks a lesson file, every problem by JSON path (the
 *       embedded config through the config package's own reader), into a {@link dev.fulcrum.lesson.Lesson}: the
 *       grammar of the lesson, its steps and actions, {@code ExpectationReader} that of what a step expects and waits
 *       for. Every value is read by the config's rules ({@link dev.fulcrum.config.JsonBinder}), which also fills the
 *       records an action is made of, so a lesson refuses a value as a config file and the admin API do.</li>
 *   <li>{@link dev.fulcrum.lesson.LessonRunner} plays the steps against a real engine
 *       ({@link dev.fulcrum.lesson.LessonEngine}: a fresh one, or the window's with the lesson's config applied in
 *       place), with the lesson's seeded traffic over real HTTP, and checks each expectation into a
 *       {@link dev.fulcrum.lesson.Check}.</li>
 *   <li>{@link dev.fulcrum.lesson.LessonCheck} is {@code --lesson FILE --check}; {@link dev.fulcrum.lesson.LessonPlayer}
 *       is the window's lesson player as plain Java (Next, Back, what to show); {@link dev.fulcrum.lesson.Lessons}
 *       lists the shipped lessons.</li>
 * </ul>
 *
 * <p>May use: {@code app} (only {@code EmbeddedFulcrum}, to start a lesson's own engine), {@code admin} (the engine
 * client), {@code config}, {@code demo} (the traffic generator), {@code engine} (values and the simulator),
 * {@code replay} (a recorded comparison's p99), {@code i18n} (a lesson's texts in each language, and the words of the
 * lines the window shows, in its language: English on the command line), {@code rules}, {@code time}, Jackson. Must not use: {@code ui},
 * {@code proxy}, {@code health}, {@code discovery}, JavaFX or Undertow; and {@code app} must not use this package: the
 * command line reaches {@link dev.fulcrum.lesson.LessonCheck} through the hook {@code dev.fulcrum.Main} hands it, as
 * it reaches the window.
 */
package dev.fulcrum.lesson;
