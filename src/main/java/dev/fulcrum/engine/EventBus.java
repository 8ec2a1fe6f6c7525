package dev.fulcrum.engine;

import dev.fulcrum.time.Ticker;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Tells every subscriber each {@link EngineEvent}, stamped with the wall time of the engine's ticker, on the
 * thread that publishes it and in the order published. The engine's own events (membership, health, drain,
 * weight, strategy, breaker, panic) are published on its control thread, so subscribers see them in the order
 * the changes were made; {@link BreakerEventOrder} restores that order for breaker transitions, which happen
 * on request threads. Other layers publish theirs (demo, config, discovery) from their own threads.
 *
 * <p>A listener that throws is skipped for that event: a broken window or event stream must not break the
 * engine, nor keep the event from the listeners after it.
 *
 * <p>Threading: any thread may subscribe, unsubscribe or publish; the listener list is copy-on-write, so a
 * publication in progress tells the listeners there were when it began.
 */
final class EventBus {
    private final Ticker ticker;
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();

    EventBus(Ticker ticker) {
        this.ticker = ticker;
    }

    void subscribe(Consumer<EngineEvent> listener) {
        listeners.add(listener);
    }

    void unsubscribe(Consumer<EngineEvent> listener) {
        listeners.remove(listener);
    }

    void publish(String type, String pool, String backend, String from, String to) {
        publish(new EngineEvent(type, pool, backend, from, to, ticker.wallMillis()));
    }

    /** A route's event ({@link EngineEvent#route}). */
    void publishRoute(String type, int route, String pool, String from, String to) {
        publish(new EngineEvent(type, pool, null, from, to, ticker.wallMillis(), route));
    }

    private void publish(EngineEvent e) {
        for (Consumer<EngineEvent> l : listeners) {
            try {
                l.accept(e);
            } catch (RuntimeException ignored) {
                // skipped: see the class comment
            }
        }
    }
}
