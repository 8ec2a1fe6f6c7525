package dev.fulcrum.lesson;

import java.util.List;

/**
 * Where a step points the room: the window's view to switch to and, optionally, the backend to highlight in it.
 *
 * @param view    one of {@link #VIEWS}, the window's tab names
 * @param backend a backend id of the lesson, or null
 */
public record Show(String view, String backend) {
    /** The views a lesson may name: the window's tabs, as their titles read. */
    public static final List<String> VIEWS = List.of("Backends", "Ring", "Load", "Breakers", "Health", "Strategy",
            "Events", "Demo faults", "Traffic", "Side by side", "Why this backend", "Routes", "Requests");
}
