package dev.fulcrum.ui.ring;

import java.util.Map;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.shape.StrokeLineCap;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * Draws a {@link RingGeometry}: a consistent-hash ring as a circle (the key space clockwise from 12 o'clock,
 * each span in its owner's colour, a tick per virtual node), or a Maglev table as a band (slot runs left to right,
 * shares below). Also the keys seen ({@link KeyFlow}), the looked-up key, and what a what-if gives another owner:
 * only those stretches, outside the ring in the new owner's colour, so nothing that stays put seems to move.
 *
 * <p>Speed: the ring itself (or the band) is an image computed once per geometry and size, each pixel taking
 * the owner of its angle by binary search, so redrawing (a key looked up, a preview) costs one drawImage plus
 * overlays; the virtual-node ticks are one path per colour with sines and cosines computed once per geometry.
 * Filling 8,000 tiny wedges with the software pipeline would take about 180 ms a frame; the image takes a few.
 */
public final class RingCanvas extends Region {
    private static final double BAND_HEIGHT = 56;
    private final Canvas canvas = new Canvas();
    private RingGeometry geometry;
    private double[][][] unit; // [part][0=cos,1=sin][point] of each point's angle
    private Double marker;
    private String markerLabel;
    private Map<String, Double> previewShare;
    private java.util.List<RingGeometry.Change> previewChanges;
    private java.util.List<KeyFlow.Dot> dots = java.util.List.of();
    private Color textColour = Color.gray(0.2);
    private WritableImage cachedImage;
    private String cachedKey;

    public RingCanvas() {
        getChildren().add(canvas);
        canvas.setId("ringCanvas");
        getStyleClass().add("ring-canvas");
    }

    public Canvas canvas() {
        return canvas;
    }

    public void setTextColour(Color c) {
        textColour = c;
        redraw();
    }

    public void setGeometry(RingGeometry g) {
        if (g != geometry) {
            geometry = g;
            precompute();
        }
        redraw();
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
    public void setPreviewChanges(java.util.List<RingGeometry.Change> changes) {
        previewChanges = changes;
        redraw();
    }

    /** The keys seen, where they are now ({@link KeyFlow#dots()}); drawn with the next {@link #redraw()}. */
    public void setDots(java.util.List<KeyFlow.Dot> d) {
        dots = d;
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

    /** Draws everything; public for the timing harness. */
    public void redraw() {
        GraphicsContext gc = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        gc.clearRect(0, 0, w, h);
        if (geometry == null || w < 50 || h < 50) {
            return;
        }
        if (geometry.isTable()) {
            drawBand(gc, w, h);
        } else {
            drawRing(gc, w, h);
        }
    }

    private void drawRing(GraphicsContext gc, double w, double h) {
        double cx = w / 2;
        double cy = h / 2;
        double r = Math.max(20, Math.min(w, h) / 2 - 56); // room outside for falling keys and a what-if's changes
        gc.setLineCap(StrokeLineCap.BUTT);
        int n = geometry.parts().size();
        if (geometry.pointCount() * 3 > 2 * Math.PI * r) {
            r += 10; // no ticks: use their room
        }
        // the ring: an image computed once per geometry and size, pixel by pixel (angle -> owner by binary search
        // over the points), so a redraw is one drawImage however many points there are
        double rIn = r - 9;
        double rOut = r + 9;
        WritableImage img = ringImage(cx, cy, rIn, rOut);
        gc.drawImage(img, Math.floor(cx - rOut - 2), Math.floor(cy - rOut - 2));
        // a tick per virtual node just outside the ring, unless they would be closer than 3 px and merge into a
        // band that says nothing the ring does not
        if (geometry.pointCount() * 3 <= 2 * Math.PI * r) {
            gc.setLineWidth(1);
            double r1 = r + 11;
            double r2 = r + 19;
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
            changeArcs(gc, cx, cy, r + 30);
            gc.setFill(textColour);
            gc.setFont(Font.font(12));
            gc.setTextAlign(TextAlignment.LEFT);
            gc.setTextBaseline(VPos.TOP);
            gc.fillText("what-if: outer marks are the keys that would change owner, in the new owner's colour;"
                    + " everything else stays", 8, 6);
        }
        ringDots(gc, cx, cy, r);
        gc.setFill(textColour);
        gc.setTextAlign(TextAlignment.CENTER);
        gc.setTextBaseline(VPos.CENTER);
        gc.setFont(Font.font(15));
        gc.fillText(geometry.type(), cx, cy - 12);
        gc.setFont(Font.font(12));
        gc.fillText(geometry.pointCount() + " points, " + n + " backends", cx, cy + 10);
        if (marker != null) {
            double a = Math.toRadians(angle(marker));
            gc.setStroke(textColour);
            gc.setLineWidth(2);
            gc.strokeLine(cx + (r - 30) * Math.cos(a), cy - (r - 30) * Math.sin(a), cx + (r + 24) * Math.cos(a),
                    cy - (r + 24) * Math.sin(a));
            gc.setFill(textColour);
            gc.fillOval(cx + (r - 30) * Math.cos(a) - 4, cy - (r - 30) * Math.sin(a) - 4, 8, 8);
            if (markerLabel != null) {
                gc.fillText(markerLabel, cx + (r - 60) * Math.cos(a), cy - (r - 60) * Math.sin(a));
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

    private void changeArcs(GraphicsContext gc, double cx, double cy, double radius) {
        gc.setLineWidth(10);
        for (RingGeometry.Change c : previewChanges) {
            Color k = geometry.colours().get(c.to());
            gc.setStroke(k == null ? Color.GRAY : k);
            // at least a pixel, so a stretch too narrow to see still shows where it is
            double extent = Math.max(c.length() * 360.0, 360.0 / (2 * Math.PI * radius));
            gc.strokeArc(cx - radius, cy - radius, 2 * radius, 2 * radius, angle(c.start()), -extent,
                    javafx.scene.shape.ArcType.OPEN);
        }
    }

    /** The keys: at rest just inside the ring at their hash, falling from outside, or sliding along it. */
    private void ringDots(GraphicsContext gc, double cx, double cy, double r) {
        for (KeyFlow.Dot d : dots) {
            double a = Math.toRadians(angle(d.at()));
            Color c = geometry.colours().getOrDefault(d.owner(), Color.GRAY);
            double radius;
            double size;
            if (d.motion() == KeyFlow.Motion.REST) {
                radius = r - 17;
                size = 4;
            } else {
                radius = r + d.drop() * 40;
                size = d.motion() == KeyFlow.Motion.MOVE ? 9 : 7;
            }
            dot(gc, cx + radius * Math.cos(a), cy - radius * Math.sin(a), size, c, d.motion() != KeyFlow.Motion.REST);
        }
    }

    /** One key: a dot in its owner's colour, outlined while it moves. */
    private void dot(GraphicsContext gc, double x, double y, double size, Color c, boolean moving) {
        gc.setFill(c);
        gc.fillOval(x - size / 2, y - size / 2, size, size);
        if (moving) {
            gc.setStroke(textColour);
            gc.setLineWidth(1);
            gc.strokeOval(x - size / 2, y - size / 2, size, size);
        }
    }

    /** The keys on a Maglev band: each in its slot's column, falling onto the band, then resting in it. */
    private void bandDots(GraphicsContext gc, double left, double width, double top) {
        for (KeyFlow.Dot d : dots) {
            double f = d.at() % 1.0;
            Color c = geometry.colours().getOrDefault(d.owner(), Color.GRAY);
            double x = left + f * width;
            double size = d.motion() == KeyFlow.Motion.REST ? 4 : 8;
            double y = d.motion() == KeyFlow.Motion.REST ? top + BAND_HEIGHT + 6 : top - 6 - d.drop() * 40;
            if (d.motion() == KeyFlow.Motion.MOVE) {
                y = top + BAND_HEIGHT / 2;
            }
            dot(gc, x, y, size, c, d.motion() != KeyFlow.Motion.REST);
        }
    }

    private void drawBand(GraphicsContext gc, double w, double h) {
        double left = 30;
        double width = w - 60;
        double top = h / 2 - BAND_HEIGHT;
        // one column of pixels per slot range: the owner of the slot under the column's centre
        gc.drawImage(bandImage(width), left, top);
        gc.setFill(textColour);
        gc.setFont(Font.font(13));
        gc.setTextAlign(TextAlignment.LEFT);
        gc.setTextBaseline(VPos.BOTTOM);
        gc.fillText("maglev lookup table: " + geometry.pointCount() + " runs of slots, slot 0 at the left", left,
                top - 56);
        bandDots(gc, left, width, top);
        gc.setFill(textColour);
        gc.setFont(Font.font(11));
        gc.setTextAlign(TextAlignment.LEFT);
        gc.setTextBaseline(VPos.BOTTOM);
        gc.fillText("share of the slots now", left, top + BAND_HEIGHT + 32);
        shareBand(gc, left, width, top + BAND_HEIGHT + 34, null);
        if (previewShare != null) {
            gc.setFill(textColour);
            gc.setTextAlign(TextAlignment.LEFT);
            gc.setTextBaseline(VPos.BOTTOM);
            gc.fillText("after the what-if", left, top + BAND_HEIGHT + 76);
            shareBand(gc, left, width, top + BAND_HEIGHT + 78, previewShare);
        }
        if (marker != null) {
            double x = left + marker * width;
            gc.setStroke(textColour);
            gc.setLineWidth(2);
            gc.strokeLine(x, top - 4, x, top + BAND_HEIGHT + 4);
            if (markerLabel != null) {
                gc.setTextAlign(TextAlignment.CENTER);
                gc.setTextBaseline(VPos.TOP);
                gc.fillText(markerLabel, x, top + BAND_HEIGHT + 108);
            }
        }
    }

    private void shareBand(GraphicsContext gc, double left, double width, double y, Map<String, Double> share) {
        double at = 0;
        gc.setFont(Font.font(11));
        gc.setTextAlign(TextAlignment.CENTER);
        gc.setTextBaseline(VPos.CENTER);
        for (RingGeometry.Part part : geometry.parts()) {
            double s = share == null ? part.share() : share.getOrDefault(part.backend(), 0.0);
            if (s <= 0) {
                continue;
            }
            gc.setFill(share == null ? part.colour() : part.colour().deriveColor(0, 1, 1, 0.55));
            gc.fillRect(left + at * width, y, s * width, 22);
            if (s * width > 60) {
                gc.setFill(Color.WHITE);
                gc.fillText(String.format("%s %.0f%%", part.backend(), s * 100), left + (at + s / 2) * width, y + 11);
            }
            at += s;
        }
    }
}
