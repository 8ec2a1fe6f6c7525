package dev.fulcrum.replay;

/** A recorded request's target as a replay sends it: the path with its query, without scheme, host or fragment. */
final class Targets {
    private Targets() {
    }

    /**
     * {@code /a?b=1} as it is, {@code https://example.com/a?b=1#top} as {@code /a?b=1}, {@code http://h?q} as
     * {@code /?q}, {@code *} (OPTIONS) as it is; null for anything else (no target a request line could have).
     */
    static String pathAndQuery(String target) {
        if (target == null || target.isEmpty()) {
            return null;
        }
        if (target.equals("*")) {
            return target;
        }
        String t = target;
        if (!t.startsWith("/")) {
            int scheme = t.indexOf("://");
            if (scheme <= 0 || !t.substring(0, scheme).chars().allMatch(c -> Character.isLetterOrDigit(c)
                    || c == '+' || c == '-' || c == '.')) {
                return null;
            }
            int from = scheme + 3;
            int slash = t.indexOf('/', from);
            int q = t.indexOf('?', from);
            int hash = t.indexOf('#', from);
            int end = slash >= 0 ? slash : q >= 0 ? q : hash >= 0 ? hash : t.length();
            if (q >= 0 && q < end) {
                end = q;
            }
            if (hash >= 0 && hash < end) {
                end = hash;
            }
            t = t.substring(end);
            if (!t.startsWith("/")) {
                t = "/" + t;
            }
        }
        int hash = t.indexOf('#');
        return hash >= 0 ? t.substring(0, hash) : t;
    }
}
