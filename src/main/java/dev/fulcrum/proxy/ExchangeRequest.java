package dev.fulcrum.proxy;

import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.strategy.DecisionLog;
import dev.fulcrum.engine.strategy.RequestContext;
import io.undertow.server.HttpServerExchange;
import java.util.Deque;

/**
 * The engine's view of a live request: every value is read lazily, only if a strategy asks. It also keeps what a
 * hashing strategy says it hashed, for the request's record, and, while {@code proxy.logDecisions} is on, how its
 * backend was chosen ({@link DecisionRecorder}).
 */
final class ExchangeRequest implements RequestContext {
    private final HttpServerExchange exchange;
    private final String path;
    private String clientIp;
    private String hashedKey;
    private long hash;
    private boolean spilled;
    /** Null unless this request's decision is recorded: what every pick checks, and all it costs when off. */
    DecisionRecorder recorder;
    /** The route it took ({@code routes[i]}), or null for the default pool. */
    Router.Route route;
    /** With a split: the split and its arms' figures as read once for this request, and the arm chosen; else null. */
    Router.Route.Arms arms;
    int arm = -1;
    /** Refused at its route's class ceiling (a shed). */
    boolean shed;

    ExchangeRequest(HttpServerExchange exchange, String path) {
        this.exchange = exchange;
        this.path = path;
    }

    @Override
    public String clientIp() {
        if (clientIp == null) {
            clientIp = ClientWatch.of(exchange).clientIp(exchange);
        }
        return clientIp;
    }

    @Override
    public String method() {
        return exchange.getRequestMethod().toString();
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String header(String name) {
        return exchange.getRequestHeaders().getFirst(name);
    }

    @Override
    public String cookie(String name) {
        return StickyCookies.first(exchange.getRequestHeaders(), name);
    }

    @Override
    public void hashed(String key, long hash) {
        this.hashedKey = key;
        this.hash = hash;
    }

    @Override
    public void spilled() {
        spilled = true;
    }

    @Override
    public DecisionLog decisions() {
        return recorder;
    }

    /** From now on, the picks for this request record how they chose. */
    void recordDecisions() {
        recorder = new DecisionRecorder(this);
    }

    /** What was recorded of how the backend was chosen, or null (not recorded, or no pick made). */
    dev.fulcrum.requests.Decision decision() {
        return recorder == null ? null : recorder.decision();
    }

    /** The pool of the split's arm it went to, or null without a split. */
    String armPool() {
        return arms == null ? null : arms.split().arms().get(arm).pool();
    }

    /** Its route's index as written, or -1 for the default pool. */
    int routeIndex() {
        return route == null ? -1 : route.index();
    }

    /** Its route's class, or null. */
    String routeClass() {
        return route == null ? null : route.routeClass();
    }

    /**
     * A split request ended with {@code status} sent to its client after {@code latencyNanos}: its arm's figures
     * count it, unless it was shed. A shed says the class sent more than its ceiling, not that the arm's release is
     * worse, so it must not bring a canary guard to roll back. Called once per request, where it ends.
     */
    void recordArm(int status, long latencyNanos) {
        if (arms != null && !shed) {
            arms.stats()[arm].record(status, latencyNanos);
        }
    }

    /** What the last hashing pick hashed, or null. */
    String hashedKey() {
        return hashedKey;
    }

    long hash() {
        return hash;
    }

    boolean wasSpilled() {
        return spilled;
    }

    @Override
    public String queryParam(String name) {
        Deque<String> v = exchange.getQueryParameters().get(name);
        return v == null || v.isEmpty() ? null : v.getFirst();
    }
}
