/**
 * Recordings of real traffic read as {@link dev.fulcrum.replay.RecordedRequest}s, and the side-by-side comparison
 * of strategies over one (docs/REFERENCE.md §6).
 *
 * <ul>
 *   <li>{@link dev.fulcrum.replay.Recordings#open} is the one entry point: it detects the format
 *       ({@link dev.fulcrum.replay.RecordingFormat}) or takes it, and returns a streaming
 *       {@link dev.fulcrum.replay.Recording}: HAR 1.2 ({@code HarReader}, Jackson's streaming parser, one entry in
 *       memory at a time), nginx access logs ({@code NginxReader} over a compiled
 *       {@link dev.fulcrum.replay.NginxLogFormat}) and Fulcrum's JSON access log ({@code FulcrumJsonReader}). A line
 *       it cannot read is counted and reported as {@code FILE:LINE: reason}, and skipped.</li>
 *   <li>{@link dev.fulcrum.replay.ArrivalOrder} puts a mostly ordered recording into arrival order with a bounded
 *       window.</li>
 *   <li>{@link dev.fulcrum.replay.StrategyList} reads {@code --strategies}; {@link dev.fulcrum.replay.Comparison}
 *       plays a recording through each strategy in lock step on the simulator ({@code engine.sim.LockStep}) and
 *       returns a {@link dev.fulcrum.replay.ComparisonResult}, written as {@code result.json} and read back by the
 *       window.</li>
 *   <li>{@link dev.fulcrum.replay.LiveReplay} sends a recording through a proxy live, at its recorded offsets over a
 *       speed factor, open loop on a pacer thread of its own with at most 256 requests in flight
 *       (docs/REFERENCE.md §1, {@code --replay}); {@link dev.fulcrum.replay.ReplayHeaders} says which headers go again,
 *       {@link dev.fulcrum.replay.ReplayProgress} what it did, {@link dev.fulcrum.replay.ReplayFiles} opens a file for
 *       it and {@link dev.fulcrum.replay.ReplayConsole} prints headless's lines. It uses the JDK's HTTP client.</li>
 * </ul>
 *
 * <p>May use: {@code dev.fulcrum.engine} (and its rooms), {@code config} (a {@code --config} file's backends),
 * {@code rules}, {@code time}, and Jackson. Must not use: {@code proxy}, {@code admin}, {@code app}, {@code ui}, JavaFX
 * or Undertow; the command line ({@code app}) and the window ({@code ui}) use it.
 *
 * <p>Threading: a {@link dev.fulcrum.replay.Recording} and a comparison run belong to the thread that reads them;
 * {@link dev.fulcrum.replay.Recording#bytesRead} may be read from any thread (a progress bar).
 */
package dev.fulcrum.replay;
