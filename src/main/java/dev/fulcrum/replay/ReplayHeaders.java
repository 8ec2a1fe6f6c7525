package dev.fulcrum.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which recorded request headers a live replay sends again (docs/REFERENCE.md §1, "Replaying a recording"): all but
 * credentials, and but those that belong to the recorded connection rather than to the request.
 *
 * <ul>
 *   <li>Credentials, never replayed: a recording shared to reproduce a load must not act as the users in it.
 *       {@code authorization}, {@code proxy-authorization}, {@code cookie}, {@code set-cookie}, {@code x-api-key},
 *       {@code x-auth-token}, {@code x-csrf-token}, {@code x-xsrf-token}.</li>
 *   <li>Hop-by-hop and framing, which the replay's own connection sets: {@code connection}, {@code keep-alive},
 *       {@code proxy-connection}, {@code transfer-encoding}, {@code te}, {@code trailer}, {@code upgrade},
 *       {@code content-length}, {@code host}, {@code expect}, and HTTP/2's pseudo-headers ({@code :authority},
 *       {@code :method}, {@code :path}, {@code :scheme}; any name starting with {@code :}), which HAR files
 *       record beside the real ones.</li>
 * </ul>
 * Everything else is kept, in recorded order ({@code X-User}, {@code Accept}, {@code Content-Type}, ...).
 */
public final class ReplayHeaders {
    /** Credentials: never sent again. */
    public static final Set<String> CREDENTIALS = Set.of("authorization", "proxy-authorization", "cookie",
            "set-cookie", "x-api-key", "x-auth-token", "x-csrf-token", "x-xsrf-token");
    /** Hop-by-hop and framing: the replay's own connection decides them. */
    public static final Set<String> CONNECTION = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "te", "trailer", "upgrade", "content-length", "host", "expect");

    private ReplayHeaders() {
    }

    /** Whether a header of this name is sent again (case does not matter). */
    public static boolean kept(String name) {
        if (name == null || name.isEmpty() || name.startsWith(":")) {
            return false;
        }
        String n = name.toLowerCase(Locale.ROOT);
        return !CREDENTIALS.contains(n) && !CONNECTION.contains(n);
    }

    /** The headers of {@code recorded} that are sent again, in their order. */
    public static List<Map.Entry<String, String>> kept(List<Map.Entry<String, String>> recorded) {
        List<Map.Entry<String, String>> out = new ArrayList<>(recorded.size());
        for (Map.Entry<String, String> h : recorded) {
            if (kept(h.getKey()) && h.getValue() != null) {
                out.add(h);
            }
        }
        return out;
    }
}
