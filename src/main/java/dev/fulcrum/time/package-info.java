/**
 * Time, for everything in Fulcrum that reads the clock or waits: a {@link dev.fulcrum.time.Ticker} (monotonic
 * nanoseconds and wall milliseconds) and a {@link dev.fulcrum.time.Scheduler} that runs work later by it. Production
 * reads the system clock ({@code Ticker.system()}, {@code Scheduler.daemon(name)}); the simulator and every test read
 * one {@link dev.fulcrum.time.ManualClock}, which moves only when told and runs what falls due as it moves. This package
 * alone reads the system clock: code that cannot take a Ticker (the proxy's request path) calls
 * {@link dev.fulcrum.time.SystemClock}.
 *
 * <p>May use: {@code java.*} and SLF4J. Must not use: any other package of Fulcrum, which all build on this one.
 */
package dev.fulcrum.time;
