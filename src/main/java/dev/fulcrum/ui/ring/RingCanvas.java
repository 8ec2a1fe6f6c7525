package dev.fulcrum.ui.ring;

import dev.fulcrum.i18n.Texts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.geometry.BoundingBox;
import javafx.geometry.Bounds;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.shape.ArcType;
import javafx.scene.shape.StrokeLineCap;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;
import javafx.scene.text.TextAlignment;

/**
 * Draws a {@link RingGeometry}: a consistent-hash ring as a circle (the key space clockwise from 12 o'clock,
 * each span in its owner's colour, a tick per virtual node), or a Maglev table as a band (slot runs left to right,
 * shares below). Also the keys seen ({@link KeyFlow}), the looked-up key, and what a what-if gives another owner:
 * only those stretches, outside the ring in the new owner's colour, so nothing that stays put seems to move.
 *
 * <p>A ring of few points (the teaching view's 1, 3 or 10 per backend) draws each point large, named {@code b#i}
 * where the names fit. A change's before/after ({@link KeyFlow#focus()}) draws only the keys it moves large, each
 * travelling from its old owner's point (and colour) to its new owner's, stacked there, while the other keys recede;
 * its caption, with the count, sits beside the ring when the canvas is wider than tall, else above it: never over the
 * marks it describes.
 *
 * <p>Text follows the window's type size: a hidden {@link Text} takes the font the stylesheets give (15 px, 20 px in
 * Present mode, times Ctrl+plus), every text drawn is in proportion to it, and each is measured and wrapped to the
 * room it has rather than cut.
 *
 * <p>Speed: the ring itself (or the band) is an image computed once per geometry and size, each pixel taking
 * the owner of its angle by binary search, so redrawing (a key looked up, a preview) costs one drawImage plus
 * overlays; the virtual-node ticks are one path per colour with sines and cosines computed once per geometry.
 * Filling 8,000 tiny wedges with the software pipeline would take about 180 ms a frame; the image takes a few.
 */
public final class RingCanvas extends Region {
    private static final double BAND_HEIGHT = 56;
    /** The type size the drawing's proportions were made for (the stylesheet's normal size). */
    private static final double NORMAL_EM = 15;
    private final Canvas canvas = new Canvas();
    private final Text fontProbe = new Text("M");
    private final Text measure = new Text();
    private final Map<String, List<String>> wrapped = new HashMap<>();
    private final Map<String, Color> known = new HashMap<>();
    private RingGeometry geometry;
    private double[][][] unit; // [part][0=cos,1=sin][point] of each point's angle
    private Double marker;
    private String markerLabel;
    private Map<String, Double> previewShare;
    private List<RingGeometry.Change> previewChanges;
    private List<KeyFlow.Dot> dots = List.of();
    private String centreNote;
    private String captionTitle;
    private String captionBody;
    private Color textColour = Color.gray(0.2);
    private Color panel = Color.rgb(255, 255, 255, 0.85);
    private WritableImage cachedImage;
    private String cachedKey;
    private Drawn drawn = new Drawn(null, 0, 0, 0, List.of());

    /**
     * Where the last frame put things, for the tests of what covers what: the caption's box (null without one), the
     * circle every mark of the ring stays within (centre and radius; 0 for a band), and the boxes of the point names.
     */
    public record Drawn(Bounds caption, double cx, double cy, double marksRadius, List<Bounds> names) {
    }

    public RingCanvas() {
        fontProbe.setManaged(false);
        fontProbe.setVisible(false);
        getChildren().addAll(canvas, fontProbe);
        canvas.setId("ringCanvas");
        getStyleClass().add("ring-canvas");
        // the probe's font is the stylesheets' (inherited from the root): a new type size redraws in it
        fontProbe.fontProperty().addListener((o, a, f) -> {
            wrapped.clear();
            redraw();
        });
    }

    public Canvas canvas() {
        return canvas;
    }

    /** What the last frame drew where. */
    public Drawn drawn() {
        return drawn;
    }

    public void setTextColour(Color c) {
        textColour = c;
        // the ground under a label: the pane's own, light or dark as the text is the opposite
        panel = c.getBrightness() > 0.5 ? Color.rgb(30, 32, 38, 0.85) : Color.rgb(255, 255, 255, 0.85);
        redraw();
    }

    public void setGeometry(RingGeometry g) {
        if (g != geometry) {
            geometry = g;
            if (g != null) {
                remember(g.colours());
            }
            precompute();
        }
        redraw();
    }

    /**
     * Backends' colours to keep after their ring is gone: a key moved off a removed backend starts in its colour, and
     * one a what-if sends to a backend not yet added ends in the colour that backend will have.
     */
    public void remember(Map<String, Color> colours) {
        known.putAll(colours);
        if (known.size() > 1000) {
            known.keySet().retainAll(colours.keySet());
        }
    }

    /** The looked-up key's position (fraction of the hash space) and label, or null for none. */
    public void setMarker(Double fraction, String label) {
        marker = fraction;
        markerLabel = label;
        redraw();
    }

    public void setPreviewShare(Map<String, Double> share) {
        previewShare = share;
        redraw();
    }

    /** The stretches a what-if gives another owner, drawn outside the ring in the new owner's colour; or null. */
    public void setPreviewChanges(List<RingGeometry.Change> changes) {
        previewChanges = changes;
        redraw();
    }

    /** The keys seen, where they are now ({@link KeyFlow#dots()}); drawn with the next {@link #redraw()}. */
    public void setDots(List<KeyFlow.Dot> d) {
        dots = d;
    }

    /** A line under the ring's name in its centre (the teaching view's count against the pool's), or null. */
    public void setCentreNote(String note) {
        centreNote = note;
    }

    /**
     * The caption of a before/after: {@code title} (the count, large) and {@code body} (what the marks mean), drawn
     * above the ring; null for none. Drawn with the next {@link #redraw()}.
     */
    public void setCaption(String title, String body) {
        captionTitle = title;
        captionBody = body;
    }

    private void precompute() {
        if (geometry == null) {
            unit = null;
            return;
        }
        int n = geometry.parts().size();
        unit = new double[n][][];
        for (int p = 0; p < n; p++) {
            RingGeometry.Part part = geometry.parts().get(p);
            double[] cos = new double[part.points().length];
            double[] sin = new double[part.points().length];
            for (int i = 0; i < cos.length; i++) {
                double a = Math.toRadians(angle(part.points()[i]));
                cos[i] = Math.cos(a);
                sin[i] = Math.sin(a);
            }
            unit[p] = new double[][] {cos, sin};
        }
    }

    /** Euclidean degrees (counter-clockwise from 3 o'clock) of a position going clockwise from 12 o'clock. */
    static double angle(double fraction) {
        return 90.0 - fraction * 360.0;
    }

    @Override
    protected void layoutChildren() {
        double w = getWidth();
        double h = getHeight();
        if (canvas.getWidth() != w || canvas.getHeight() != h) {
            canvas.setWidth(w);
            canvas.setHeight(h);
            redraw();
        }
    }

    @Override
    protected double computePrefWidth(double height) {
        return 600;
    }

    @Override
    protected double computePrefHeight(double width) {
        return 500;
    }

    /** The type size the drawing's text is in proportion to (px): the window's, from the stylesheets. */
    public double typeSize() {
        return em();
    }

    /** The window's type size in px: the font the stylesheets give the hidden probe. */
    private double em() {
        return fontProbe.getFont().getSize();
    }

    private Font font(double ems) {
        return Font.font(fontProbe.getFont().getFamily(), ems * em());
    }

    private Font bold(double ems) {
        return Font.font(fontProbe.getFont().getFamily(), FontWeight.BOLD, ems * em());
    }

    private double width(String text, Font f) {
        measure.setFont(f);
        measure.setText(text);
        return measure.getLayoutBounds().getWidth();
    }

    private double lineHeight(Font f) {
        measure.setFont(f);
        measure.setText("Mg");
        return Math.ceil(measure.getLayoutBounds().getHeight());
    }

    /**
     * {@code text} in lines no wider than {@code max}: broken between words, and a word wider than the line on its own
     * broken where it must (a long backend id), so nothing is cut. Remembered per font and width.
     */
    List<String> wrap(String text, Font f, double max) {
        String key = f.getName() + '|' + f.getSize() + '|' + Math.round(max) + '|' + text;
        List<String> lines = wrapped.get(key);
        if (lines == null) {
            lines = new ArrayList<>();
            for (String paragraph : text.split("\n")) {
                StringBuilder line = new StringBuilder();
                for (String word : paragraph.split(" ")) {
                    String tried = line.length() == 0 ? word : line + " " + word;
                    if (width(tried, f) <= max) {
                        line.setLength(0);
                        line.append(tried);
                        continue;
                    }
                    if (line.length() > 0) {
                        lines.add(line.toString());
                        line.setLength(0);
                    }
                    String rest = word;
                    while (width(rest, f) > max && rest.length() > 1) {
                        int cut = rest.length() - 1;
                        while (cut > 1 && width(rest.substring(0, cut), f) > max) {
                            cut--;
                        }
                        lines.add(rest.substring(0, cut));
                        rest = rest.substring(cut);
                    }
                    line.append(rest);
                }
                lines.add(line.toString());
            }
            if (wrapped.size() > 256) {
                wrapped.clear();
            }
            wrapped.put(key, lines);
        }
        return lines;
    }

    /** Draws everything; public for the timing harness. */
    public void redraw() {
        GraphicsContext gc = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        gc.clearRect(0, 0, w, h);
        if (geometry == null || w < 50 || h < 50) {
            drawn = new Drawn(null, 0, 0, 0, List.of());
            return;
        }
        double pad = Math.round(0.5 * em());
        Bounds caption = null;
        boolean beside = false;
        if (!geometry.isTable() && captionTitle != null && w - h >= 9 * em()) {
            // wider than tall: the caption in the column beside the ring, which keeps its size
            caption = caption(gc, pad, w - h - pad, h - 2 * pad);
            beside = caption != null;
        }
        if (captionTitle != null && caption == null) {
            caption = caption(gc, pad, w - 2 * pad, Double.MAX_VALUE); // else above it
        }
        double left = beside ? caption.getMaxX() : 0;
        double top = caption == null || beside ? 0 : caption.getMaxY();
        if (geometry.isTable()) {
            drawBand(gc, w, h, top, pad);
            drawn = new Drawn(caption, 0, 0, 0, List.of());
        } else {
            drawRing(gc, left, top, w, h, pad, caption);
        }
    }

    /**
     * The caption at the canvas's top left, {@code width} wide: the title's lines, then the body's, in a box; null
     * (and nothing drawn) when it would be taller than {@code maxHeight}.
     */
    private Bounds caption(GraphicsContext gc, double pad, double width, double maxHeight) {
        Font tf = bold(1.0);
        Font bf = font(0.8);
        double inner = width - 2 * pad;
        if (inner < 4 * em()) {
            return null;
        }
        List<String> title = wrap(captionTitle, tf, inner);
        List<String> body = captionBody == null ? List.of() : wrap(captionBody, bf, inner);
        double th = lineHeight(tf);
        double bh = lineHeight(bf);
        double height = title.size() * th + body.size() * bh + 2 * pad;
        if (height > maxHeight) {
            return null;
        }
        Bounds box = new BoundingBox(pad, pad, width, height);
        gc.setFill(textColour.deriveColor(0, 1, 1, 0.06));
        gc.fillRoundRect(box.getMinX(), box.getMinY(), box.getWidth(), box.getHeight(), pad, pad);
        gc.setFill(textColour);
        gc.setTextAlign(TextAlignment.LEFT);
        gc.setTextBaseline(VPos.TOP);
        double y = box.getMinY() + pad;
        gc.setFont(tf);
        for (String line : title) {
            gc.fillText(line, box.getMinX() + pad, y);
            y += th;
        }
        gc.setFont(bf);
        for (String line : body) {
            gc.fillText(line, box.getMinX() + pad, y);
            y += bh;
        }
        return box;
    }

    private void drawRing(GraphicsContext gc, double left, double top, double w, double h, double pad,
                          Bounds caption) {
        double s = em() / NORMAL_EM; // the marks grow with the type, so they read at the same distance
        // room outside the ring for falling keys and a what-if's changes: every mark stays within r + margin
        double margin = Math.ceil(38 * s);
        double cx = left + (w - left) / 2;
        double cy = top + (h - top) / 2;
        double r = Math.max(20, Math.min(w - left, h - top) / 2 - pad - margin);
        gc.setLineCap(StrokeLineCap.BUTT);
        int n = geometry.parts().size();
        double bigDot = Math.max(10, 0.75 * em());
        boolean big = geometry.pointCount() * (bigDot + 3) <= 2 * Math.PI * r;
        boolean ticks = !big && geometry.pointCount() * 3 <= 2 * Math.PI * r;
        // the ring: an image computed once per geometry and size, pixel by pixel (angle -> owner by binary search
        // over the points), so a redraw is one drawImage however many points there are
        double rIn = r - 9 * s;
        double rOut = r + 9 * s;
        WritableImage img = ringImage(cx, cy, rIn, rOut);
        gc.drawImage(img, Math.floor(cx - rOut - 2), Math.floor(cy - rOut - 2));
        boolean focus = focus();
        if (ticks) {
            // a tick per virtual node just outside the ring, unless they would be closer than 3 px and merge into a
            // band that says nothing the ring does not
            gc.setLineWidth(1);
            double r1 = r + 10 * s;
            double r2 = r + 17 * s;
            for (int p = 0; p < n; p++) {
                double[] cos = unit[p][0];
                double[] sin = unit[p][1];
                gc.setStroke(geometry.parts().get(p).colour());
                gc.beginPath();
                for (int i = 0; i < cos.length; i++) {
                    gc.moveTo(cx + r1 * cos[i], cy - r1 * sin[i]);
                    gc.lineTo(cx + r2 * cos[i], cy - r2 * sin[i]);
                }
                gc.stroke();
            }
        }
        // a what-if: only the stretches that would change owner, outside the ring in the new owner's colour
        if (previewChanges != null) {
            changeArcs(gc, cx, cy, r + 24 * s, 8 * s);
        }
        List<Bounds> centre = centreText(gc, cx, cy, r - 26 * s);
        List<Bounds> names = List.of();
        if (big) {
            bigPoints(gc, cx, cy, r, bigDot, s);
            names = pointNames(gc, cx, cy, r - 26 * s, centre, focus ? 0.35 : 1);
        }
        ringDots(gc, cx, cy, r, s, focus);
        if (marker != null) {
            marker(gc, cx, cy, r, s, w, pad);
        }
        drawn = new Drawn(caption, cx, cy, r + margin, names);
    }

    /** Whether a before/after is showing: some key is moving, so the rest recede. */
    private boolean focus() {
        for (KeyFlow.Dot d : dots) {
            if (d.moving()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The ring's name, its size and the note in the middle of the ring, wrapped to the room inside it and made smaller
     * (to 60%) until no word has to be broken and the lines fit, then (to 30%) until no word has to be broken; returns
     * their boxes.
     */
    private List<Bounds> centreText(GraphicsContext gc, double cx, double cy, double inner) {
        double maxWidth = Math.max(40, 1.55 * inner);
        double maxHeight = Math.max(20, 1.1 * inner);
        String count = Texts.t("ring.canvas.count", String.valueOf(geometry.pointCount()),
                String.valueOf(geometry.parts().size()));
        List<Object[]> lines = null; // text, font
        for (double k = 1.0; k >= 0.6 - 1e-9 && lines == null; k -= 0.05) {
            lines = centreLines(count, k, maxWidth, maxHeight, false);
        }
        // past 60% the height may overflow, but a word is never broken ("consistent-has / h" reads as nothing)
        for (double k = 0.6; k >= 0.3 - 1e-9 && lines == null; k -= 0.05) {
            lines = centreLines(count, k, maxWidth, Double.MAX_VALUE, false);
        }
        if (lines == null) {
            lines = centreLines(count, 0.3, maxWidth, maxHeight, true);
        }
        double total = 0;
        for (Object[] l : lines) {
            total += lineHeight((Font) l[1]);
        }
        gc.setFill(textColour);
        gc.setTextAlign(TextAlignment.CENTER);
        gc.setTextBaseline(VPos.TOP);
        double y = cy - total / 2;
        List<Bounds> boxes = new ArrayList<>();
        for (Object[] l : lines) {
            Font f = (Font) l[1];
            double lh = lineHeight(f);
            gc.setFont(f);
            gc.fillText((String) l[0], cx, y);
            double lw = width((String) l[0], f);
            boxes.add(new BoundingBox(cx - lw / 2, y, lw, lh));
            y += lh;
        }
        return boxes;
    }

    /**
     * The centre's lines at {@code k} times their size, or null when a word is wider than {@code maxWidth} or the
     * lines are taller than {@code maxHeight}; {@code anyway}: the lines whatever they need.
     */
    private List<Object[]> centreLines(String count, double k, double maxWidth, double maxHeight, boolean anyway) {
        Object[][] parts = {{geometry.type(), bold(1.25 * k)}, {count, font(0.9 * k)},
                {centreNote, font(0.8 * k)}};
        List<Object[]> out = new ArrayList<>();
        double height = 0;
        for (Object[] p : parts) {
            String text = (String) p[0];
            Font f = (Font) p[1];
            if (text == null) {
                continue;
            }
            for (String word : text.split(" ")) {
                if (!anyway && width(word, f) > maxWidth) {
                    return null;
                }
            }
            for (String l : wrap(text, f, maxWidth)) {
                out.add(new Object[] {l, f});
                height += lineHeight(f);
            }
        }
        return anyway || height <= maxHeight ? out : null;
    }

    /**
     * Each point as a large notch across the ring, in its backend's colour and outlined, so a point reads apart from
     * the keys (round) and from its neighbours.
     */
    private void bigPoints(GraphicsContext gc, double cx, double cy, double r, double d, double s) {
        double inner = r - 13 * s;
        double outer = r + 13 * s;
        gc.setLineCap(StrokeLineCap.BUTT);
        for (int pass = 0; pass < 2; pass++) {
            gc.setLineWidth(pass == 0 ? d * 0.5 + 3 : d * 0.5);
            for (int p = 0; p < geometry.parts().size(); p++) {
                double[] cos = unit[p][0];
                double[] sin = unit[p][1];
                gc.setStroke(pass == 0 ? textColour : geometry.parts().get(p).colour());
                gc.beginPath();
                for (int i = 0; i < cos.length; i++) {
                    double o = pass == 0 ? outer + 1.5 : outer;
                    double n = pass == 0 ? inner - 1.5 : inner;
                    gc.moveTo(cx + n * cos[i], cy - n * sin[i]);
                    gc.lineTo(cx + o * cos[i], cy - o * sin[i]);
                }
                gc.stroke();
            }
        }
    }

    /**
     * Each point's name ({@code b#i}) just inside it, where it fits: in ring order, a name that would overlap one
     * already placed, or the centre's text, is left out rather than drawn over it. Returns the names' boxes.
     */
    private List<Bounds> pointNames(GraphicsContext gc, double cx, double cy, double anchor, List<Bounds> centre,
                                    double alpha) {
        Font f = font(0.72);
        double lh = lineHeight(f);
        List<Object[]> order = new ArrayList<>(); // position, part, index
        for (int p = 0; p < geometry.parts().size(); p++) {
            RingGeometry.Part part = geometry.parts().get(p);
            for (int i = 0; i < part.points().length; i++) {
                if (part.nodes().length > i && part.nodes()[i] >= 0) {
                    order.add(new Object[] {part.points()[i], p, i});
                }
            }
        }
        order.sort(Comparator.comparingDouble(o -> (double) o[0]));
        List<Bounds> placed = new ArrayList<>();
        gc.setFont(f);
        gc.setTextAlign(TextAlignment.LEFT);
        gc.setTextBaseline(VPos.TOP);
        gc.setFill(textColour.deriveColor(0, 1, 1, alpha));
        for (Object[] o : order) {
            RingGeometry.Part part = geometry.parts().get((int) o[1]);
            String name = part.pointName((int) o[2]);
            double a = Math.toRadians(angle((double) o[0]));
            double ux = Math.cos(a);
            double uy = -Math.sin(a);
            double tw = width(name, f);
            // the box's centre inward along the radius by its own half extent, so its edge nearest the ring is at
            // the anchor whatever the angle
            double ext = Math.abs(ux) * tw / 2 + Math.abs(uy) * lh / 2;
            double bx = cx + (anchor - ext) * ux - tw / 2;
            double by = cy + (anchor - ext) * uy - lh / 2;
            Bounds box = new BoundingBox(bx, by, tw, lh);
            if (placed.stream().anyMatch(b -> b.intersects(box)) || centre.stream().anyMatch(b -> b.intersects(box))) {
                continue;
            }
            placed.add(box);
            gc.fillText(name, bx, by);
        }
        return placed;
    }

    private void marker(GraphicsContext gc, double cx, double cy, double r, double s, double w, double pad) {
        double a = Math.toRadians(angle(marker));
        gc.setStroke(textColour);
        gc.setLineWidth(2 * s);
        gc.strokeLine(cx + (r - 30 * s) * Math.cos(a), cy - (r - 30 * s) * Math.sin(a),
                cx + (r + 30 * s) * Math.cos(a), cy - (r + 30 * s) * Math.sin(a));
        gc.setFill(textColour);
        double d = 8 * s;
        gc.fillOval(cx + (r - 30 * s) * Math.cos(a) - d / 2, cy - (r - 30 * s) * Math.sin(a) - d / 2, d, d);
        if (markerLabel != null) {
            Font f = bold(0.85);
            List<String> lines = wrap(markerLabel, f, Math.max(60, r));
            double lh = lineHeight(f);
            double x = cx + (r - 60 * s) * Math.cos(a);
            double y = cy - (r - 60 * s) * Math.sin(a) - lines.size() * lh / 2;
            gc.setFont(f);
            gc.setTextAlign(TextAlignment.CENTER);
            gc.setTextBaseline(VPos.TOP);
            for (String line : lines) {
                double lw = width(line, f);
                double lx = Math.max(pad + lw / 2, Math.min(w - pad - lw / 2, x)); // whole on the canvas
                // on a ground of its own: it may cross the centre's text or a key
                gc.setFill(panel);
                gc.fillRect(lx - lw / 2 - 3, y, lw + 6, lh);
                gc.setFill(textColour);
                gc.fillText(line, lx, y);
                y += lh;
            }
        }
    }

    /**
     * The ring (or band) as pixels: each pixel of the annulus takes the colour of the backend owning its angle,
     * with the edges anti-aliased by their distance to the circles. Cached until geometry or size change.
     */
    private WritableImage ringImage(double cx, double cy, double rIn, double rOut) {
        String key = System.identityHashCode(geometry) + ":" + cx + "," + cy + ":" + rIn;
        if (key.equals(cachedKey)) {
            return cachedImage;
        }
        // only the annulus's bounding square, drawn at (ox, oy)
        double ox = Math.floor(cx - rOut - 2);
        double oy = Math.floor(cy - rOut - 2);
        int size = (int) Math.ceil(2 * rOut + 4);
        int[] argb = new int[size * size];
        int[] colours = argbOfParts();
        double in2 = (rIn - 1) * (rIn - 1);
        double out2 = (rOut + 1) * (rOut + 1);
        for (int y = 0; y < size; y++) {
            double dy = oy + y + 0.5 - cy;
            for (int x = 0; x < size; x++) {
                double dx = ox + x + 0.5 - cx;
                double d2 = dx * dx + dy * dy;
                if (d2 < in2 || d2 > out2) {
                    continue;
                }
                double d = Math.sqrt(d2);
                double coverage = Math.min(1, Math.min(d - rIn + 0.5, rOut - d + 0.5));
                if (coverage <= 0) {
                    continue;
                }
                // clockwise from 12 o'clock, as a fraction of the turn
                double f = Math.atan2(dx, -dy) / (2 * Math.PI);
                if (f < 0) {
                    f += 1;
                }
                int owner = geometry.ownerAt(f);
                if (owner >= 0) {
                    argb[y * size + x] = premultiply(colours[owner], coverage);
                }
            }
        }
        cachedImage = toImage(argb, size, size);
        cachedKey = key;
        return cachedImage;
    }

    private int[] argbOfParts() {
        int[] c = new int[geometry.parts().size()];
        for (int i = 0; i < c.length; i++) {
            Color k = geometry.parts().get(i).colour();
            c[i] = 0xff000000 | (int) Math.round(k.getRed() * 255) << 16 | (int) Math.round(k.getGreen() * 255) << 8
                    | (int) Math.round(k.getBlue() * 255);
        }
        return c;
    }

    private static int premultiply(int argb, double coverage) {
        if (coverage >= 1) {
            return argb;
        }
        int a = (int) Math.round(coverage * 255);
        int r = ((argb >> 16) & 0xff) * a / 255;
        int g = ((argb >> 8) & 0xff) * a / 255;
        int b = (argb & 0xff) * a / 255;
        return a << 24 | r << 16 | g << 8 | b;
    }

    private static WritableImage toImage(int[] argb, int w, int h) {
        WritableImage img = new WritableImage(Math.max(1, w), Math.max(1, h));
        img.getPixelWriter().setPixels(0, 0, w, h, PixelFormat.getIntArgbPreInstance(), argb, 0, w);
        return img;
    }

    private WritableImage bandImage(double width) {
        String key = System.identityHashCode(geometry) + ":band:" + width;
        if (key.equals(cachedKey)) {
            return cachedImage;
        }
        int iw = Math.max(1, (int) Math.ceil(width));
        int ih = (int) BAND_HEIGHT;
        int[] colours = argbOfParts();
        int[] argb = new int[iw * ih];
        for (int x = 0; x < iw; x++) {
            int owner = geometry.ownerAt((x + 0.5) / iw);
            int c = owner < 0 ? 0 : colours[owner];
            for (int y = 0; y < ih; y++) {
                argb[y * iw + x] = c;
            }
        }
        cachedImage = toImage(argb, iw, ih);
        cachedKey = key;
        return cachedImage;
    }

    private void changeArcs(GraphicsContext gc, double cx, double cy, double radius, double width) {
        gc.setLineWidth(width);
        for (RingGeometry.Change c : previewChanges) {
            Color k = geometry.colours().get(c.to());
            gc.setStroke(k == null ? Color.GRAY : k);
            // at least a pixel, so a stretch too narrow to see still shows where it is
            double extent = Math.max(c.length() * 360.0, 360.0 / (2 * Math.PI * radius));
            gc.strokeArc(cx - radius, cy - radius, 2 * radius, 2 * radius, angle(c.start()), -extent, ArcType.OPEN);
        }
    }

    /**
     * The keys: at rest just inside the ring at their hash, falling from outside, or sliding along it. In a
     * before/after the keys it moves are drawn large, from their old owner's point along the
     * ring to their new owner's (a line inside the ring marks the way), stacked inside it, their colour turning from
     * the old owner's to the new one's; the others recede.
     */
    private void ringDots(GraphicsContext gc, double cx, double cy, double r, double s, boolean focus) {
        List<KeyFlow.Dot> moving = new ArrayList<>();
        for (KeyFlow.Dot d : dots) {
            if (d.moving()) {
                moving.add(d);
                continue;
            }
            double a = Math.toRadians(angle(d.at()));
            Color c = colour(d.owner());
            double radius;
            double size;
            if (d.motion() == KeyFlow.Motion.REST) {
                radius = r - 17 * s;
                size = 4 * s;
            } else {
                radius = r + d.drop() * 28 * s;
                size = 7 * s;
            }
            if (focus) {
                c = c.deriveColor(0, 0.4, 1, 0.3);
            }
            dot(gc, cx + radius * Math.cos(a), cy - radius * Math.sin(a), size, c, !focus && d.motion() != KeyFlow.Motion.REST, s);
        }
        if (moving.isEmpty()) {
            return;
        }
        double size = Math.max(9 * s, 0.9 * em());
        moving.sort(Comparator.comparing(KeyFlow.Dot::key)); // a stable place in its stack, frame after frame
        Map<Long, Integer> stacks = new LinkedHashMap<>();
        double step = size * 1.1;
        double base = r - 15 * s - step / 2;
        int perColumn = Math.max(1, (int) ((r - 9 * s) * 0.5 / step));
        // each one's way, from the point it left clockwise to where it is: a line just inside the ring in the
        // colour of its new owner
        double trail = r - 13 * s;
        gc.setLineWidth(3 * s);
        for (KeyFlow.Dot d : moving) {
            double extent = (d.at() - d.from()) * 360.0;
            if (extent > 0.2) {
                gc.setStroke(colour(d.owner()).deriveColor(0, 1, 1, 0.8));
                gc.strokeArc(cx - trail, cy - trail, 2 * trail, 2 * trail, angle(d.from()), -extent, ArcType.OPEN);
            }
        }
        for (KeyFlow.Dot d : moving) {
            Color was = colour(d.was());
            Color now = colour(d.owner());
            double q = d.progress();
            int slot = stacks.merge(Math.round(d.to() % 1.0 * 1e9), 1, Integer::sum) - 1;
            int row = slot % perColumn;
            int column = slot / perColumn;
            double end = base - row * step;
            double radius = r + (end - r) * q + Math.sin(Math.PI * q) * 1.5 * size;
            double at = d.at() + q * column * step / (2 * Math.PI * Math.max(1, end));
            double a = Math.toRadians(angle(at));
            dot(gc, cx + radius * Math.cos(a), cy - radius * Math.sin(a), size, was.interpolate(now, q), true, s);
        }
    }

    private Color colour(String owner) {
        if (owner == null) {
            return Color.GRAY;
        }
        Color c = geometry.colours().get(owner);
        return c != null ? c : known.getOrDefault(owner, Color.GRAY);
    }

    /** One key: a dot in its owner's colour, outlined while it moves. */
    private void dot(GraphicsContext gc, double x, double y, double size, Color c, boolean moving, double s) {
        gc.setFill(c);
        gc.fillOval(x - size / 2, y - size / 2, size, size);
        if (moving) {
            gc.setStroke(textColour);
            gc.setLineWidth(Math.max(1, s));
            gc.strokeOval(x - size / 2, y - size / 2, size, size);
        }
    }

    /**
     * The keys on a Maglev band: each in its slot's column, falling onto the band, then resting in it; in a
     * before/after the keys it moves are drawn large on the band, their colour turning to the new owner's.
     */
    private void bandDots(GraphicsContext gc, double left, double width, double top, double bandHeight, double s) {
        boolean focus = focus();
        double large = Math.max(9 * s, 0.9 * em());
        for (KeyFlow.Dot d : dots) {
            double f = d.at() % 1.0;
            Color c = colour(d.owner());
            double x = left + f * width;
            if (d.moving()) {
                continue;
            }
            double size = (d.motion() == KeyFlow.Motion.REST ? 4 : 8) * s;
            double y = d.motion() == KeyFlow.Motion.REST ? top + bandHeight + 6 * s : top - 6 * s - d.drop() * 40 * s;
            dot(gc, x, y, size, focus ? c.deriveColor(0, 0.4, 1, 0.3) : c, !focus && d.motion() != KeyFlow.Motion.REST, s);
        }
        for (KeyFlow.Dot d : dots) {
            if (d.moving()) {
                dot(gc, left + (d.at() % 1.0) * width, top + bandHeight / 2, large,
                        colour(d.was()).interpolate(colour(d.owner()), d.progress()), true, s);
            }
        }
    }

    private void drawBand(GraphicsContext gc, double w, double h, double captionBottom, double pad) {
        double s = em() / NORMAL_EM;
        double left = Math.max(pad, 30 * s);
        double width = w - 2 * left;
        double bandHeight = Math.round(BAND_HEIGHT * s);
        Font title = font(0.9);
        Font small = font(0.75);
        Font share = font(0.75);
        double barHeight = Math.max(22 * s, lineHeight(share) + 4);
        List<String> head = wrap(Texts.t("ring.canvas.table", String.valueOf(geometry.pointCount())),
                title, width);
        String markerText = marker == null || markerLabel == null ? null : markerLabel;
        List<String> markerLines = markerText == null ? List.of() : wrap(markerText, bold(0.85), width);
        // top to bottom: the title, room for falling keys, the band, resting keys, the shares now (and after), the
        // looked-up key's label; centred in the room below the caption when it is taller than they are
        double height = head.size() * lineHeight(title) + 46 * s + bandHeight + 14 * s
                + (lineHeight(small) + barHeight + 6 * s) * (previewShare != null ? 2 : 1)
                + markerLines.size() * lineHeight(bold(0.85)) + 8 * s;
        double y = captionBottom + pad + Math.max(0, (h - captionBottom - pad - height) / 2);
        gc.setFill(textColour);
        gc.setFont(title);
        gc.setTextAlign(TextAlignment.LEFT);
        gc.setTextBaseline(VPos.TOP);
        for (String line : head) {
            gc.fillText(line, left, y);
            y += lineHeight(title);
        }
        double top = y + 46 * s;
        // one column of pixels per slot range: the owner of the slot under the column's centre
        gc.drawImage(bandImage(width), left, top, width, bandHeight);
        bandDots(gc, left, width, top, bandHeight, s);
        y = top + bandHeight + 14 * s;
        gc.setFill(textColour);
        gc.setFont(small);
        gc.setTextAlign(TextAlignment.LEFT);
        gc.setTextBaseline(VPos.TOP);
        gc.fillText(Texts.t("ring.canvas.share.now"), left, y);
        y += lineHeight(small);
        shareBand(gc, left, width, y, barHeight, null, share);
        y += barHeight + 6 * s;
        if (previewShare != null) {
            gc.setFill(textColour);
            gc.setFont(small);
            gc.setTextAlign(TextAlignment.LEFT);
            gc.setTextBaseline(VPos.TOP);
            gc.fillText(Texts.t("ring.canvas.share.after"), left, y);
            y += lineHeight(small);
            shareBand(gc, left, width, y, barHeight, previewShare, share);
            y += barHeight + 6 * s;
        }
        if (marker != null) {
            double x = left + marker * width;
            gc.setStroke(textColour);
            gc.setLineWidth(2 * s);
            gc.strokeLine(x, top - 4 * s, x, top + bandHeight + 4 * s);
            Font f = bold(0.85);
            gc.setFill(textColour);
            gc.setFont(f);
            gc.setTextAlign(TextAlignment.CENTER);
            gc.setTextBaseline(VPos.TOP);
            y += 2 * s;
            for (String line : markerLines) {
                double lw = width(line, f);
                gc.fillText(line, Math.max(left + lw / 2, Math.min(left + width - lw / 2, x)), y);
                y += lineHeight(f);
            }
        }
    }

    /** One bar of the shares, each backend's stretch named where the name fits inside it. */
    private void shareBand(GraphicsContext gc, double left, double width, double y, double height,
                           Map<String, Double> share, Font f) {
        double at = 0;
        gc.setFont(f);
        gc.setTextAlign(TextAlignment.CENTER);
        gc.setTextBaseline(VPos.CENTER);
        for (RingGeometry.Part part : geometry.parts()) {
            double s = share == null ? part.share() : share.getOrDefault(part.backend(), 0.0);
            if (s <= 0) {
                continue;
            }
            gc.setFill(share == null ? part.colour() : part.colour().deriveColor(0, 1, 1, 0.55));
            gc.fillRect(left + at * width, y, s * width, height);
            String label = String.format("%s %.0f%%", part.backend(), s * 100);
            if (width(label, f) + 8 < s * width) {
                gc.setFill(Color.WHITE);
                gc.fillText(label, left + (at + s / 2) * width, y + height / 2);
            }
            at += s;
        }
    }
}
