package dev.fulcrum.engine.strategy;

/**
 * One candidate's score as a scoring strategy sees it ({@link Strategy#candidateScores()}).
 *
 * @param id       the backend's id
 * @param score    what it scores now (its own, or what stands in for a missing one); null when it is left out of
 *                 the picks ({@code missing: "exclude"})
 * @param fallback null when the score is its own; {@code stale} or {@code missing} when the strategy's
 *                 {@code missing} rule gave it
 * @param cold     whether it joined recently and its share is capped (cold start)
 */
public record CandidateScore(String id, Double score, String fallback, boolean cold) {
}
