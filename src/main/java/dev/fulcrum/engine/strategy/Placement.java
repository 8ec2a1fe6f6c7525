package dev.fulcrum.engine.strategy;

/**
 * Where a hashed request key lands.
 *
 * @param kind     {@code ring} (consistent-hash), {@code maglev} or {@code weight-line} (ip-hash)
 * @param index    ring point index, table slot, or position on the weight line
 * @param position ring: the point's 64-bit hash; maglev: the slot; ip-hash: the hash mod the total weight
 * @param size     ring points, table size, or total weight
 * @param owner    the backend owning that place (before any walk past an ineligible owner)
 */
public record Placement(String kind, long index, long position, long size, String owner) {
}
