/**
 * The Routes tab: one panel per route that splits or mirrors its requests (docs/REFERENCE.md §2.1 {@code routes}),
 * its arms side by side over the last minute, the canary against the baseline, the guard's state, a slider for the
 * canary's share, Promote and Roll back, and the mirror's counts.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.ui.routes.SplitPanelModel} says what a panel reads, plain Java from one sample;
 *       {@link dev.fulcrum.ui.RouteText} how a route's match reads.</li>
 *   <li>{@link dev.fulcrum.ui.routes.SplitCommands} throttles the slider's sends and records undo.</li>
 *   <li>{@link dev.fulcrum.ui.routes.RoutesController} and {@link dev.fulcrum.ui.routes.RoutesTab} are the view.</li>
 * </ul>
 *
 * <p>May use: the ui root ({@code UiSession}, {@code UndoHistory}, {@code Views}, {@code RouteText}), admin values
 * ({@code EngineState}, the engine client), engine values ({@code Split.Arm}, what {@code setSplit} takes), JavaFX.
 * Must not use: other views' packages, app, proxy, engine internals. Every client call goes through the session's
 * worker.
 */
package dev.fulcrum.ui.routes;
