/**
 * The rulebook: every limit and format Fulcrum puts on what it is given (ids, weights, URLs, ports, table sizes,
 * virtual nodes, balance factor, hashing keys, every {@code *Ms} bound), written once in {@link
 * dev.fulcrum.rules.Limits} and worded once, so the config file, the admin API and the engine accept exactly the
 * same values. {@link dev.fulcrum.rules.JsonText} is the one way a string is escaped in the JSON Fulcrum writes by
 * hand, whichever layer writes it.
 *
 * <p>May use: {@code java.*} only. Must not use: any other package of Fulcrum (every layer, the engine included,
 * asks here) or any library.
 */
package dev.fulcrum.rules;
