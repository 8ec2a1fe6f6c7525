/**
 * The test kit: what the integration tests start and talk to, one of each. {@link dev.fulcrum.testkit.RunningFulcrum}
 * runs a bare proxy on an engine or a whole app; {@link dev.fulcrum.testkit.RawBackend} is a backend on plain sockets
 * that records every byte and each request read apart, and answers scripted bytes or each request's target;
 * {@link dev.fulcrum.testkit.RecordingBackend} is a real HTTP backend that records what reached it;
 * {@link dev.fulcrum.testkit.WebSocketEcho} is a WebSocket backend that echoes; {@link dev.fulcrum.testkit.RawHttp}
 * is a client on plain sockets that writes raw bytes and splits what came back into answers;
 * {@link dev.fulcrum.testkit.TestSettings} builds proxy settings; {@link dev.fulcrum.testkit.EtcdCluster} runs real
 * etcd members and {@link dev.fulcrum.testkit.EtcdFleetApps} Fulcrums sharing a config in them;
 * {@link dev.fulcrum.testkit.ProcessOutput} waits for a child process's ready line; {@link dev.fulcrum.testkit.FreePort}
 * picks loopback ports nothing listens on; {@link dev.fulcrum.testkit.SlowOnPurpose} is the one pause, for a peer slow
 * on purpose. The fake clock is {@link dev.fulcrum.time.ManualClock}.
 */
package dev.fulcrum.testkit;
