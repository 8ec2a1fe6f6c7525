/**
 * The desktop window (JavaFX): the application class, the main window with its tabs, and the session that feeds
 * every view from one {@link dev.fulcrum.admin.EngineClient}, whether the engine is embedded or remote. Each view
 * has its own subpackage ({@code ring}, {@code backends}, {@code load}, {@code breakers}, {@code health},
 * {@code events}, {@code strategy}, {@code demo}, {@code requests}, {@code workshop}); {@code connect} opens what the
 * window manages.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.ui.Gui} opens the window ({@code dev.fulcrum.Main} calls it when the command line asks for
 *       one) and blocks until it closes; {@link dev.fulcrum.ui.FulcrumWindow} is the JavaFX application.</li>
 *   <li>{@link dev.fulcrum.ui.UiSession} is the window's one link to an engine, sampling it for every view;
 *       {@link dev.fulcrum.ui.MainWindow} puts a session's window on a stage and
 *       {@link dev.fulcrum.ui.MainController} is its frame (engine, pool selector, theme, tabs, status bar);
 *       {@link dev.fulcrum.ui.BackendCommands} makes the operator's backend changes, undoable through
 *       {@link dev.fulcrum.ui.UndoHistory}.</li>
 *   <li>{@link dev.fulcrum.ui.StageFrames} drives an animated view's frames (every pulse, or ticks when
 *       {@link dev.fulcrum.ui.FramePacer} holds it back, nothing while hidden); {@link dev.fulcrum.ui.FxTicks} runs
 *       periodic view work without holding JavaFX's pulse; {@link dev.fulcrum.ui.HeapSettle} gives the heap room
 *       while the machine is busy and has the JVM give it back once quiet.</li>
 * </ul>
 *
 * <p>May use: {@code admin} (the engine client), {@code config}, {@code engine} values, {@code demo} values,
 * {@code replay} (recordings compared side by side), JavaFX and ControlsFX, and of {@code dev.fulcrum.app} only {@link dev.fulcrum.app.EmbeddedFulcrum}, where the
 * window gets its embedded engine. Must not be used by {@code app} or anything below it: the window is the top
 * layer, and {@code dev.fulcrum.Main} the only class above it.
 */
package dev.fulcrum.ui;
