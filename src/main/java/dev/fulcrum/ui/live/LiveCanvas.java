package dev.fulcrum.ui.live;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.Palette;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

/**
 * Draws one frame of the Live stage from the model: the clients, the wires to the proxy and on to each backend's card
 * (in the backend's colour), the proxy with its strategy, and every dot where its flight is now. The cards themselves
 * are JavaFX nodes laid over the canvas by the controller. Nothing here keeps state between frames but the palette.
 */
final class LiveCanvas extends Canvas {
    /** What each kind of dot looks like; the legend says the same in words. */
    static final Map<Flight.Kind, Color> COLOURS = new EnumMap<>(Map.of(
            Flight.Kind.OK, Color.web("#2e9d57"),
            Flight.Kind.REDIRECT, Color.web("#3b6fd8"),
            Flight.Kind.CLIENT_ERROR, Color.web("#e0a21b"),
            Flight.Kind.SERVER_ERROR, Color.web("#d64545"),
            Flight.Kind.CLIENT_GONE, Color.web("#8a8f98"),
            Flight.Kind.REFUSED, Color.web("#b4232b"),
            Flight.Kind.UPGRADE, Color.web("#8e44ad")));

    /** What a kind of dot means, for the legend: the status class, or what happened in words. */
    static String meaning(Flight.Kind k) {
        return switch (k) {
            case OK -> "2xx";
            case REDIRECT -> "3xx";
            case CLIENT_ERROR -> "4xx";
            case SERVER_ERROR -> "5xx";
            case CLIENT_GONE -> Texts.t("live.legend.gone");
            case REFUSED -> Texts.t("live.legend.refused");
            case UPGRADE -> "WebSocket";
        };
    }

    private boolean dark;
    private double textScale = 1;

    void setDark(boolean d) {
        dark = d;
    }

    /** Present mode's larger type. */
    void setTextScale(double s) {
        textScale = s;
    }

    @Override
    public boolean isResizable() {
        return true;
    }

    /**
     * Whether a client lane is drawn: a lane no client has is left out (two blank circles read as two silent clients),
     * except the first while no request has come, so the stage still shows where clients stand.
     */
    static boolean drawn(String[] laneLabels, int lane) {
        return !laneLabels[lane].isEmpty() || (lane == 0 && java.util.Arrays.stream(laneLabels).allMatch(String::isEmpty));
    }

    void draw(StageLayout l, List<Flight> flights, double now, String strategy, String[] laneLabels) {
        draw(l, flights, now, strategy, laneLabels, null);
    }

    /**
     * With {@code fanOut} (routes that split or mirror), each pool's group is framed under its label, and an edge
     * from the proxy to each group carries its share and rate (a mirror's dashed); a mirrored copy is a ring.
     */
    void draw(StageLayout l, List<Flight> flights, double now, String strategy, String[] laneLabels, FanOut fanOut) {
        GraphicsContext g = getGraphicsContext2D();
        double w = getWidth();
        double h = getHeight();
        g.setFill(dark ? Color.web("#1b1e24") : Color.web("#f6f7f9"));
        g.fillRect(0, 0, w, h);
        Color ink = dark ? Color.web("#d8dce3") : Color.web("#1f2430");
        Color faint = dark ? Color.web("#3a3f49") : Color.web("#d3d7de");

        // wires: each client lane to the proxy, the proxy to each card
        g.setLineWidth(2);
        g.setStroke(faint);
        for (int i = 0; i < StageLayout.CLIENT_LANES; i++) {
            if (!drawn(laneLabels, i)) {
                continue;
            }
            StageLayout.Point c = l.client(i);
            g.strokeLine(c.x() + 18, c.y(), l.proxyIn().x(), l.proxyIn().y());
        }
        java.util.Set<String> copiesOnly = new java.util.HashSet<>();
        if (fanOut != null) {
            fanOut.groups().stream().filter(FanOut.Group::mirror).forEach(grp -> copiesOnly.addAll(grp.backends()));
        }
        for (Map.Entry<String, StageLayout.Box> e : l.cards().entrySet()) {
            StageLayout.Point to = e.getValue().entry();
            g.setStroke(Palette.of(e.getKey()).deriveColor(0, 1, 1, 0.45));
            if (copiesOnly.contains(e.getKey())) {
                g.setLineDashes(6, 5); // a mirror pool gets copies, never a client's request
            }
            g.strokeLine(l.proxyOut().x(), l.proxyOut().y(), to.x(), to.y());
            g.setLineDashes();
        }

        if (fanOut != null) {
            drawFanOut(g, l, fanOut, ink, faint);
        }

        // clients
        for (int i = 0; i < StageLayout.CLIENT_LANES; i++) {
            if (!drawn(laneLabels, i)) {
                continue;
            }
            StageLayout.Point c = l.client(i);
            g.setFill(faint);
            g.fillOval(c.x() - 18, c.y() - 18, 36, 36);
            g.setFill(ink);
            g.setFont(Font.font(dev.fulcrum.ui.Fonts.family(), FontWeight.NORMAL, 11 * textScale));
            g.setTextAlign(TextAlignment.CENTER);
            // a shared lane is named "clients" by the model; drawn in the window's language
            String lane = laneLabels[i].isEmpty() || RateSource.CLIENT.equals(laneLabels[i]) ? Texts.t("live.clients")
                    : laneLabels[i];
            g.fillText(lane, c.x(), c.y() + 32 * textScale);
        }

        // the proxy
        StageLayout.Box p = l.proxy();
        g.setFill(dark ? Color.web("#262a33") : Color.WHITE);
        g.fillRoundRect(p.x(), p.y(), p.w(), p.h(), 14, 14);
        g.setStroke(dark ? Color.web("#5b8def") : Color.web("#3b6fd8"));
        g.setLineWidth(2);
        g.strokeRoundRect(p.x(), p.y(), p.w(), p.h(), 14, 14);
        g.setFill(ink);
        g.setTextAlign(TextAlignment.CENTER);
        g.setFont(Font.font(dev.fulcrum.ui.Fonts.family(), FontWeight.BOLD, 15 * textScale));
        g.fillText("Fulcrum", p.centre().x(), p.centre().y() - 6 * textScale);
        // a long strategy name in large type gets smaller type rather than run over the box's edges
        double strategySize = Math.min(12 * textScale, (p.w() - 12) / Math.max(1, strategy.length() * 0.56));
        g.setFont(Font.font(dev.fulcrum.ui.Fonts.family(), FontWeight.NORMAL, strategySize));
        g.fillText(strategy, p.centre().x(), p.centre().y() + 14 * textScale);

        // the dots, a group of requests a little larger than a single one
        for (Flight f : flights) {
            Flight.Position pos = f.at(now, l);
            if (pos == null) {
                continue;
            }
            Color c = COLOURS.get(f.kind());
            double alpha = pos.fading() ? Math.max(0.15, 1 - pos.progress()) : 0.92;
            double r = (f.count() > 1 ? 5.5 : 4.5) * Math.sqrt(textScale);
            if (f.mirror()) {
                // a copy: a ring of its outcome's colour, so it never reads as a client's request
                double a = pos.fading() ? Math.max(0.1, 1 - pos.progress()) : 0.92;
                g.setStroke(c.deriveColor(0, 1, 1, a));
                g.setLineWidth(2);
                g.strokeOval(pos.x() - r, pos.y() - r, 2 * r, 2 * r);
                continue;
            }
            g.setFill(c.deriveColor(0, 1, 1, alpha));
            g.fillOval(pos.x() - r, pos.y() - r, 2 * r, 2 * r);
            if (f.refused() && pos.fading()) {
                g.setStroke(c.deriveColor(0, 1, 1, alpha * 0.6));
                g.setLineWidth(1.5);
                double ring = r + 10 * pos.progress();
                g.strokeOval(pos.x() - ring, pos.y() - ring, 2 * ring, 2 * ring);
            }
        }
        if (fanOut != null) {
            drawEdgeLabels(g, l, fanOut, ink);
        }
    }

    /** Group frames with their labels, then each edge from the proxy to its group with its two lines of figures. */
    private void drawFanOut(GraphicsContext g, StageLayout l, FanOut fanOut, Color ink, Color faint) {
        Color muted = dark ? Color.web("#9aa3b2") : Color.web("#5b6270");
        g.setFont(Font.font(dev.fulcrum.ui.Fonts.family(), FontWeight.BOLD, 11 * textScale));
        g.setTextAlign(TextAlignment.LEFT);
        for (FanOut.Group grp : fanOut.groups()) {
            StageLayout.Box b = l.groups().get(grp.pool());
            if (b == null) {
                continue;
            }
            g.setStroke(faint);
            g.setLineWidth(1.2);
            if (grp.mirror()) {
                g.setLineDashes(5, 4);
            }
            g.strokeRoundRect(b.x(), b.y(), b.w(), b.h(), 10, 10);
            g.setLineDashes();
            g.setFill(ink);
            g.fillText(fit(grp.label(), b.w() - 12, 11 * textScale), b.x() + 6, b.y() + 14 * textScale);
        }
        g.setTextAlign(TextAlignment.CENTER);
    }

    /**
     * Each arm's or mirror's figures where its wires reach its group, on a patch of the stage's colour, drawn over the
     * dots: the wires and the dots converging there must not make the figures unreadable.
     */
    private void drawEdgeLabels(GraphicsContext g, StageLayout l, FanOut fanOut, Color ink) {
        Color muted = dark ? Color.web("#9aa3b2") : Color.web("#5b6270");
        java.util.Map<String, Integer> perGroup = new java.util.HashMap<>();
        double size = 10.5 * textScale;
        g.setFont(Font.font(dev.fulcrum.ui.Fonts.family(), FontWeight.NORMAL, size));
        g.setTextAlign(TextAlignment.RIGHT);
        double lineH = 13 * textScale;
        Color patch = dark ? Color.web("#1b1e24", 0.88) : Color.web("#f6f7f9", 0.88);
        for (FanOut.Edge e : fanOut.edges()) {
            StageLayout.Box b = l.groups().get(e.pool());
            if (b == null) {
                continue;
            }
            int k = perGroup.merge(e.pool(), 1, Integer::sum) - 1;
            double room = b.x() - l.proxyOut().x() - 16;
            String one = fit(e.line1(), room, size);
            String two = fit(e.line2(), room, size);
            double wide = Math.max(one.length(), two.length()) * size * 0.56;
            double x = b.x() - 8;
            double top = b.y() + b.h() / 2 - lineH + k * 2.4 * lineH - (two.isEmpty() ? 0 : lineH / 2);
            double tall = (two.isEmpty() ? 1 : 2) * lineH + 4;
            g.setFill(patch);
            g.fillRoundRect(x - wide - 4, top - 2, wide + 8, tall, 6, 6);
            g.setFill(e.mirror() ? muted : ink);
            g.fillText(one, x, top + lineH - 3);
            if (!two.isEmpty()) {
                g.fillText(two, x, top + 2 * lineH - 3);
            }
        }
        g.setTextAlign(TextAlignment.CENTER);
    }

    /** {@code text}, cut with an ellipsis to about {@code width} at a font of {@code size} (an average glyph's width). */
    static String fit(String text, double width, double size) {
        int max = (int) Math.max(4, width / (size * 0.56));
        return text.length() <= max ? text : text.substring(0, max - 1) + "\u2026";
    }
}
