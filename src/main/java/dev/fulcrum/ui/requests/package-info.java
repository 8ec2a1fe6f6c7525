/**
 * The developer's proxy in the window: the Requests tab, the live list of the requests the proxy completed (a lossy
 * sample, design rule 8 of docs/ARCHITECTURE.md) with the WebSockets open now, filters, pause, each request's headers,
 * timings, attempts and "why this backend", a HAR 1.2 export; and the local HTTPS dialog that trusts Fulcrum's
 * certificate authority as {@code --trust} does (docs/REFERENCE.md §5).
 *
 * <ul>
 *   <li>{@link dev.fulcrum.ui.requests.RequestsViewModel} holds the list, plain Java (JavaFX collections and
 *       properties only); {@link dev.fulcrum.ui.requests.RequestText} says how a request reads;
 *       {@link dev.fulcrum.ui.requests.RecordedDecision} explains where a recorded request went, and
 *       {@link dev.fulcrum.ui.requests.DecisionText} how its strategy chose, when {@code proxy.logDecisions} kept it
 *       (candidates, scores, draws, fallbacks).</li>
 *   <li>{@link dev.fulcrum.ui.requests.RequestsTab} builds the tab; {@link dev.fulcrum.ui.requests.RequestsController}
 *       wires {@code fxml/requests.fxml} to the model; {@link dev.fulcrum.ui.requests.HarExport} writes the file;
 *       {@link dev.fulcrum.ui.requests.TrustDialog} is the HTTPS dialog.</li>
 * </ul>
 *
 * <p>May use: the ui root ({@code UiSession}, {@code Views}), admin (the request source, {@code Har}), requests,
 * engine ({@code DecisionTrace} on the embedded engine's live pool), app's {@code EmbeddedFulcrum} only (in
 * {@link dev.fulcrum.ui.requests.RequestsContext}), JavaFX. Must not use: other views' packages, proxy, trust.
 * Never blocks the FX thread: the source's {@code poll()} is the one call made on it; everything else goes through the
 * session's worker or a thread of its own.
 */
package dev.fulcrum.ui.requests;
