/**
 * Workshop mode: demo backends to balance over, and traffic to send through the proxy.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.demo.DemoBackend} (one small Undertow server with settable latency, error rate and
 *       down, docs/REFERENCE.md §2.4) and {@link dev.fulcrum.demo.DemoFleet} (several, started and closed
 *       together), described by {@link dev.fulcrum.demo.DemoSpec}.</li>
 *   <li>{@link dev.fulcrum.demo.TrafficGenerator}: open-loop HTTP traffic at a rate
 *       ({@link dev.fulcrum.demo.TrafficSettings}), observed as {@link dev.fulcrum.demo.TrafficSnapshot}s;
 *       {@link dev.fulcrum.demo.TrafficRecorder} writes what it sends as JSON lines and
 *       {@link dev.fulcrum.demo.TrafficReplay} sends such a trace again, or feeds it to the simulator.</li>
 * </ul>
 *
 * <p>Time: the generator paces and reports on a {@link dev.fulcrum.time.Scheduler} (tests give a
 * {@link dev.fulcrum.time.ManualClock}); {@code TrafficGenerator.create(settings)} makes its own. A demo
 * backend's latency is real time on purpose: it is what makes a backend slow.
 *
 * <p>May use: {@code dev.fulcrum.engine} (backend specs, the simulator's key distributions and requests),
 * {@code dev.fulcrum.time}, Undertow, the JDK's HTTP client, Jackson, HdrHistogram. Must not use: {@code admin},
 * {@code ui}, {@code app}, {@code proxy}, {@code config}, {@code health}, {@code discovery}.
 */
package dev.fulcrum.demo;
