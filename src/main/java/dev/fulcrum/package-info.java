/**
 * Fulcrum, a load balancer you can see. {@link dev.fulcrum.Main} is the one class at this level: it reads the command
 * line ({@code dev.fulcrum.app.FulcrumCommand}) and hands it the window ({@code dev.fulcrum.ui.Gui}) and the lessons'
 * checker ({@code dev.fulcrum.lesson.LessonCheck}), the only place where the app meets the layers above it. docs/ARCHITECTURE.md maps the packages below; docs/REFERENCE.md is the outside.
 *
 * <p>May use: app, lesson and ui. Must not be used by any other package.
 */
package dev.fulcrum;
