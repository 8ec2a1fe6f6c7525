package dev.fulcrum.proxy;

import dev.fulcrum.rules.JsonText;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;

/** The proxy's own answers (docs/REFERENCE.md §3): JSON {@code {"error":"...","status":N}}. */
public final class ErrorResponses {
    private ErrorResponses() {
    }

    /** Sends a JSON error and ends the exchange; closes the connection when {@code close}. */
    static void send(ExchangeRequest exchange, int status, String message, boolean close) {
        if (exchange.isResponseStarted()) {
            cutOff(exchange);
            return;
        }
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        if (close) {
            exchange.setPersistent(false);
            exchange.getResponseHeaders().put(Headers.CONNECTION, "close");
        }
        exchange.send(json(status, message));
    }

    /**
     * Cuts the client off when an answer cannot be completed: its connection (HTTP/1.x) or its stream (HTTP/2: a
     * RST_STREAM). An HTTP/2 exchange does not complete by itself after that (its completion waits for a write that
     * never comes), which would keep it out of the access log and metrics and hold graceful shutdown for its whole
     * drain timeout: it is ended here.
     */
    static void cutOff(ExchangeRequest exchange) {
        exchange.closeClient();
        if (!exchange.http1()) {
            exchange.endExchange();
        }
    }

    /** {@code s} with control and non-ASCII chars written as {@code \xNN} (for an error message that echoes input). */
    static String printable(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f) {
                b.append(String.format("\\x%02x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    public static String json(int status, String message) {
        StringBuilder b = new StringBuilder(message.length() + 32).append("{\"error\":\"");
        JsonText.appendEscaped(b, message);
        return b.append("\",\"status\":").append(status).append('}').toString();
    }

    static final HttpString X_FULCRUM_BACKEND = new HttpString("X-Fulcrum-Backend");
}
