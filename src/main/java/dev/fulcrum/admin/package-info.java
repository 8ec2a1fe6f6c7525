/**
 * The admin API (docs/REFERENCE.md §4) and the one interface the window manages any engine through.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.admin.AdminServer}: the HTTP API on its own Undertow listener: state, backend commands,
 *       strategy, ring, events ({@link dev.fulcrum.admin.EventStream}), config, export, demo faults and
 *       {@code /metrics} ({@link dev.fulcrum.admin.Metrics}, {@link dev.fulcrum.admin.DurationHistogram}).</li>
 *   <li>{@link dev.fulcrum.admin.EngineClient}: what the window can ask of an engine, with three implementations:
 *       {@link dev.fulcrum.admin.InProcessEngineClient} (the embedded engine, direct calls),
 *       {@link dev.fulcrum.admin.HttpEngineClient} (a headless Fulcrum over this API) and
 *       {@link dev.fulcrum.admin.haproxy.HaproxyFleetClient} (HAProxy instances over their runtime API).</li>
 *   <li>{@link dev.fulcrum.admin.ConfigExport}: the running pools as nginx, HAProxy or Envoy config.</li>
 * </ul>
 *
 * <p>May use: engine, config, proxy (its metrics and settings), rules, time, Undertow, Jackson, Micrometer and the
 * Prometheus model. Must not use: ui, app, JavaFX: the app hands this package what it needs through
 * {@link dev.fulcrum.admin.AdminRuntime}.
 */
package dev.fulcrum.admin;
