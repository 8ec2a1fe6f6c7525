package dev.fulcrum.proxy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.Pool;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.Cookie;
import io.undertow.server.handlers.CookieImpl;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Sticky sessions with an opaque cookie: the value is an HMAC-SHA256 of the pool and backend id under a
 * secret derived from the config, cut to 16 bytes and base64url-encoded. It names no address, cannot be
 * forged to reach a chosen backend, and every instance started with the same config computes the same
 * value, so any of them honours it.
 */
final class StickyCookies {
    private final boolean enabled;
    private final String name;
    private final long ttlSeconds;
    private final SecretKeySpec key;
    private final ThreadLocal<Mac> mac;
    /** "pool/id" to token, and token to "pool/id"; tokens never change for a given secret. */
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final Map<String, String> owners = new ConcurrentHashMap<>();

    StickyCookies(ProxySettings s) {
        this.enabled = s.stickyEnabled();
        this.name = s.stickyCookie();
        this.ttlSeconds = s.stickyTtlSeconds();
        this.key = new SecretKeySpec(s.stickySecret().length == 0 ? new byte[1] : s.stickySecret(), "HmacSHA256");
        this.mac = ThreadLocal.withInitial(() -> {
            try {
                Mac m = Mac.getInstance("HmacSHA256");
                m.init(key);
                return m;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 unavailable", e);
            }
        });
    }

    boolean enabled() {
        return enabled;
    }

    String cookieName() {
        return name;
    }

    String token(String pool, String backendId) {
        return tokens.computeIfAbsent(pool + "/" + backendId, k -> {
            byte[] d = mac.get().doFinal(k.getBytes(StandardCharsets.UTF_8));
            byte[] cut = java.util.Arrays.copyOf(d, 16);
            String t = Base64.getUrlEncoder().withoutPadding().encodeToString(cut);
            owners.put(t, k);
            return t;
        });
    }

    /** The backend id a cookie value names in this pool, or null (unknown, forged, or another pool's). */
    String backendFor(Pool pool, String value) {
        if (value == null) {
            return null;
        }
        String owner = owners.get(value);
        if (owner == null) {
            // not seen yet on this instance: compute the tokens of the pool's current members once
            for (var v : pool.snapshot().all()) {
                token(pool.name(), v.id());
            }
            owner = owners.get(value);
        }
        String prefix = pool.name() + "/";
        return owner != null && owner.startsWith(prefix) ? owner.substring(prefix.length()) : null;
    }

    /** Sets the cookie when the request did not already carry this backend's token. */
    void onResponse(HttpServerExchange exchange, Pool pool, Backend backend) {
        if (!enabled) {
            return;
        }
        String t = token(pool.name(), backend.id());
        Cookie sent = exchange.getRequestCookie(name);
        if (sent != null && t.equals(sent.getValue())) {
            return;
        }
        CookieImpl c = new CookieImpl(name, t);
        c.setPath("/");
        c.setHttpOnly(true);
        c.setMaxAge((int) Math.min(Integer.MAX_VALUE, ttlSeconds));
        exchange.setResponseCookie(c);
    }
}
