package dev.fulcrum.ui.live;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each part of the Live stage sits on a canvas of {@code width} by {@code height}: the clients in a column on
 * the left, the proxy in the middle, one card per backend in a column on the right, in the pool's order. Recomputed
 * when the canvas is resized or the members change, never per frame.
 *
 * <p>Example: 1200 by 700 with three backends: clients at x 108, the proxy's box centred at (504, 350), cards 330 wide
 * from x 780, each 112 high with 16 between, the column centred vertically.
 */
public final class StageLayout {
    /** A point on the stage. */
    public record Point(double x, double y) {
    }

    /** A box on the stage; {@link #entry()} is where a request's dot arrives (the middle of its left edge). */
    public record Box(double x, double y, double w, double h) {
        public Point entry() {
            return new Point(x, y + h / 2);
        }

        public Point centre() {
            return new Point(x + w / 2, y + h / 2);
        }
    }

    /** Client lanes: requests are spread over this many, by client address. */
    public static final int CLIENT_LANES = 3;
    static final double CARD_MAX_H = 112;
    static final double CARD_MIN_H = 30;
    static final double GAP = 16;

    private final double width;
    private final double height;
    private final Box proxy;
    private final Map<String, Box> cards = new LinkedHashMap<>();
    private final Point[] clients = new Point[CLIENT_LANES];
    /** With a fan-out: each pool's group, its label above its cards, in the fan-out's order. */
    private final Map<String, Box> groups = new LinkedHashMap<>();
    /** A group's label line above its cards, and the space between two groups. */
    static final double GROUP_HEAD = 20;
    /** This layout's label line: {@link #GROUP_HEAD} grown with the type (present mode). */
    private final double groupHead;
    static final double GROUP_GAP = 12;
    static final double GROUP_PAD = 4;

    public StageLayout(double width, double height, List<String> backends) {
        this(width, height, backends, null);
    }

    /**
     * With {@code fanOut} (not null), the cards stand in one column of groups, one per pool, each under its label,
     * and the proxy sits further left to leave its edges room for their labels.
     */
    public StageLayout(double width, double height, List<String> backends, FanOut fanOut) {
        this(width, height, backends, fanOut, 1);
    }

    /** As above, the groups' label lines grown by {@code textScale} (present mode's larger type). */
    public StageLayout(double width, double height, List<String> backends, FanOut fanOut, double textScale) {
        this.groupHead = GROUP_HEAD * Math.max(1, textScale);
        this.width = Math.max(width, 320);
        this.height = Math.max(height, 240);
        double pw = Math.min(190, this.width * 0.16);
        double ph = Math.min(130, this.height * 0.22);
        double proxyX = fanOut == null ? 0.42 : 0.36;
        this.proxy = new Box(this.width * proxyX - pw / 2, this.height / 2 - ph / 2, pw, ph);
        // the first client in the middle, level with the proxy (the common case is one: a developer's browser), the
        // next above it, the third below
        int[] row = {1, 0, 2};
        for (int i = 0; i < CLIENT_LANES; i++) {
            clients[i] = new Point(this.width * 0.09, this.height * (row[i] + 1) / (CLIENT_LANES + 1));
        }
        if (fanOut != null) {
            placeGroups(fanOut);
            return;
        }
        int n = Math.max(1, backends.size());
        double gap = n > 8 ? 6 : GAP;
        double cardH = Math.max(CARD_MIN_H, Math.min(CARD_MAX_H, (this.height - 40 - gap * (n - 1)) / n));
        double column = cardH * n + gap * (n - 1);
        double top = Math.max(10, (this.height - column) / 2);
        double x = this.width * 0.65;
        double w = this.width * 0.97 - x;
        for (int i = 0; i < backends.size(); i++) {
            cards.put(backends.get(i), new Box(x, top + i * (cardH + gap), w, cardH));
        }
    }

    private void placeGroups(FanOut fanOut) {
        List<FanOut.Group> gs = fanOut.groups();
        int n = 0;
        for (FanOut.Group g : gs) {
            n += Math.max(1, g.backends().size());
        }
        double gap = n > 8 ? 4 : 8;
        // each group: its label, its cards with a gap between two, a little room under the last; a gap between groups
        double fixed = gs.size() * (groupHead + GROUP_PAD) + (gs.size() - 1) * GROUP_GAP + gap * (n - gs.size());
        double cardH = Math.max(CARD_MIN_H, Math.min(CARD_MAX_H, (this.height - 16 - fixed) / n));
        double column = fixed + cardH * n;
        double y = Math.max(4, (this.height - column) / 2);
        double x = this.width * 0.62;
        double w = this.width * 0.97 - x;
        for (FanOut.Group g : gs) {
            double top = y;
            y += groupHead;
            int k = Math.max(1, g.backends().size());
            for (int i = 0; i < g.backends().size(); i++) {
                cards.put(g.backends().get(i), new Box(x, y + i * (cardH + gap), w, cardH));
            }
            y += k * cardH + (k - 1) * gap + GROUP_PAD;
            groups.put(g.pool(), new Box(x - 6, top, w + 12, y - top));
            y += GROUP_GAP;
        }
    }

    /** Each pool's group (label and cards) with a fan-out, else empty. */
    public Map<String, Box> groups() {
        return groups;
    }

    public double width() {
        return width;
    }

    public double height() {
        return height;
    }

    public Box proxy() {
        return proxy;
    }

    /** The card of {@code backend}, or null when it is not on the stage (removed since the dot left). */
    public Box card(String backend) {
        return cards.get(backend);
    }

    public Map<String, Box> cards() {
        return cards;
    }

    public Point client(int lane) {
        return clients[Math.floorMod(lane, CLIENT_LANES)];
    }

    /** Where a dot enters the proxy from the left, and leaves it for a backend on the right. */
    public Point proxyIn() {
        return new Point(proxy.x(), proxy.y() + proxy.h() / 2);
    }

    public Point proxyOut() {
        return new Point(proxy.x() + proxy.w(), proxy.y() + proxy.h() / 2);
    }
}
