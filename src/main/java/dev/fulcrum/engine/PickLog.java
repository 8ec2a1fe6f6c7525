package dev.fulcrum.engine;

import dev.fulcrum.engine.strategy.Candidates;
import dev.fulcrum.engine.strategy.DecisionLog;
import dev.fulcrum.engine.strategy.Eligibility;

/**
 * A {@link DecisionLog} that also hears the pool's side of a pick: the candidates the strategy chose among and the
 * backend the pool leased. {@link Pool#pick} tells it when the request's {@code decisions()} is one (the proxy's
 * recorder, with {@code proxy.logDecisions} on); a strategy sees only the {@link DecisionLog} part.
 *
 * <p>Example: a request retried after a failure on a: the first pick hears {@code considering(weighted-random, [a, b],
 * ..)}, draws, {@code picked(a)}; the second {@code considering(weighted-random, [a, b], ..)} with a now
 * ineligible (tried), draws, {@code picked(b)}.
 */
public interface PickLog extends DecisionLog {
    /**
     * The pool asks {@code strategy} to choose among {@code candidates}; {@code eligible} says which of them may take
     * the request now. Called again for the backups when no primary could take it ({@code backup} true).
     */
    void considering(String strategy, Candidates candidates, Eligibility eligible, boolean backup);

    /** The backend the pool leased for this pick, or null when none could take the request. */
    void picked(Backend backend);
}
