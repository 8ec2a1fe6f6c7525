/**
 * A fleet of HAProxy instances managed through their runtime API (the stats socket on TCP), behind the same
 * {@link dev.fulcrum.admin.EngineClient} as an embedded or a remote Fulcrum, so one window manages any of them:
 * {@code --attach haproxy://HOST:PORT[,HOST:PORT...]} (docs/REFERENCE.md §1).
 *
 * <ul>
 *   <li>{@link dev.fulcrum.admin.haproxy.HaproxyFleetClient}, the {@code EngineClient}: sequences the parts below and
 *       documents what the merged state means.</li>
 *   <li>{@link dev.fulcrum.admin.haproxy.HaproxyRuntime}: one instance's runtime API, a TCP connection per command;
 *       its answers read into {@link dev.fulcrum.admin.haproxy.ServerStat},
 *       {@link dev.fulcrum.admin.haproxy.BackendStat},
 *       {@link dev.fulcrum.admin.haproxy.ServerState}, {@link dev.fulcrum.admin.haproxy.AdminState} and
 *       {@link dev.fulcrum.admin.haproxy.HaproxyVersion}.</li>
 *   <li>{@code FleetAddresses}: reading the {@code haproxy://} form of {@code --attach}.</li>
 *   <li>{@code FleetMerge}: the instances' answers to one poll merged into one
 *       {@link dev.fulcrum.admin.haproxy.FleetState}, with the {@link dev.fulcrum.admin.haproxy.Divergence}s where
 *       they disagree and the instances that did not answer (pure). {@code ProbeHistory} keeps the check results the
 *       polls saw change.</li>
 *   <li>{@code FleetCommands}: weight, drain, enable, add and remove sent to every instance, and one report of which
 *       refused and which applied.</li>
 *   <li>{@code FleetEvents}: the events between two merged views (pure); {@code FleetPoller} polls for them on a
 *       {@link dev.fulcrum.time.Scheduler}.</li>
 * </ul>
 *
 * <p>Time and threads: event polls are timed by the client's {@link dev.fulcrum.time.Scheduler} (tests give a
 * {@link dev.fulcrum.time.ManualClock}; {@code connect(addresses)} makes a daemon one and shuts it down at
 * {@code close()}); the socket I/O runs on the client's own daemon threads, never on the scheduler's. Every call may
 * block on the network: not for the JavaFX thread.
 *
 * <p>May use: the engine's values ({@code dev.fulcrum.engine.EngineEvent}, {@code EngineException}), the
 * {@code EngineClient} interface of {@code dev.fulcrum.admin} and its {@code EngineState}, {@code dev.fulcrum.time},
 * {@code dev.fulcrum.rules}. Must not use: {@code dev.fulcrum.ui}, {@code dev.fulcrum.app}, {@code dev.fulcrum.proxy},
 * JavaFX; the window is above this package and reaches it only as an {@code EngineClient} (and for the fleet's
 * problems and tabs, as a {@code HaproxyFleetClient}).
 */
package dev.fulcrum.admin.haproxy;
