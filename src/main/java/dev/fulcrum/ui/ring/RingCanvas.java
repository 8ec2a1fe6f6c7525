package dev.fulcrum.ui.ring;

import java.util.Map;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.shape.StrokeLineCap;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * Draws a {@link RingGeometry}: a consistent-hash ring as a circle (the key space clockwise from 12 o'clock,
 * each span in its owner's colour, a tick per virtual node, and outside it each backend's share as one arc), or a
 * Maglev table as a band (slot runs left to right, shares below). Also the looked-up key and a what-if's shares.
 *
 * <p>Speed: one path and one stroke per colour, never per point, and sines and cosines of every point are
 * computed once per geometry, not per frame. Resizing redraws; samples that did not change the ring do not.
 */
public final class RingCanvas extends Region {
    private static final double BAND_HEIGHT = 56;
    private final Canvas canvas = new Canvas();
    private RingGeometry geometry;
    private double[][][] unit; // [part][0=cos,1=sin][point] of each point's angle
    private double[][] spanAngles; // [part][4k]=start angle (deg), +1 extent (deg), +2 cos, +3 sin of the start
    private Double marker;
    private String markerLabel;
    private Map<String, Double> previewShare;
    private Color textColour = Color.gray(0.2);

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

    private void precompute() {
        if (geometry == null) {
            unit = null;
            spanAngles = null;
            return;
        }
        int n = geometry.parts().size();
        unit = new double[n][][];
        spanAngles = new double[n][];
        for (int p = 0; p < n; p++) {
            RingGeometry.Part part = geometry.parts().get(p);
            double[] cos = new double[part.points().length];
            double[] sin = new double[part.points().length];
            double[] spans = new double[part.spanStart().length * 4];
            for (int i = 0; i < cos.length; i++) {
                double a = Math.toRadians(angle(part.points()[i]));
                cos[i] = Math.cos(a);
                sin[i] = Math.sin(a);
                double start = angle(part.spanStart()[i]);
                spans[4 * i] = start;
                spans[4 * i + 1] = -part.spanLength()[i] * 360.0;
                spans[4 * i + 2] = Math.cos(Math.toRadians(start));
                spans[4 * i + 3] = Math.sin(Math.toRadians(start));
            }
            unit[p] = new double[][] {cos, sin};
            spanAngles[p] = spans;
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
        double r = Math.max(20, Math.min(w, h) / 2 - 80);
        gc.setLineCap(StrokeLineCap.BUTT);
        int n = geometry.parts().size();
        // the ring: each backend's spans, one path per colour
        gc.setLineWidth(18);
        for (int p = 0; p < n; p++) {
            RingGeometry.Part part = geometry.parts().get(p);
            double[] spans = spanAngles[p];
            gc.setStroke(part.colour());
            gc.beginPath();
            for (int k = 0; k < spans.length; k += 4) {
                gc.moveTo(cx + r * spans[k + 2], cy - r * spans[k + 3]);
                gc.arc(cx, cy, r, r, spans[k], spans[k + 1]);
            }
            gc.stroke();
        }
        // a tick per virtual node, just outside the ring
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
        // each backend's share as one arc, in id order
        shareArcs(gc, cx, cy, r + 36, 12, null, true);
        if (previewShare != null) {
            shareArcs(gc, cx, cy, r + 56, 8, previewShare, false);
        }
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

    private void shareArcs(GraphicsContext gc, double cx, double cy, double radius, double width,
                           Map<String, Double> share, boolean labels) {
        gc.setLineWidth(width);
        double at = 0;
        gc.setFont(Font.font(11));
        gc.setTextAlign(TextAlignment.CENTER);
        gc.setTextBaseline(VPos.CENTER);
        for (RingGeometry.Part part : geometry.parts()) {
            double s = share == null ? part.share() : share.getOrDefault(part.backend(), 0.0);
            if (s <= 0) {
                continue;
            }
            Color c = part.colour();
            gc.setStroke(share == null ? c : c.deriveColor(0, 1, 1, 0.55));
            gc.strokeArc(cx - radius, cy - radius, 2 * radius, 2 * radius, angle(at), -s * 360.0,
                    javafx.scene.shape.ArcType.OPEN);
            if (labels && s >= 0.03) {
                double mid = Math.toRadians(angle(at + s / 2));
                gc.setFill(textColour);
                gc.fillText(String.format("%s %.0f%%", part.backend(), s * 100), cx + (radius + 26) * Math.cos(mid),
                        cy - (radius + 26) * Math.sin(mid));
            }
            at += s;
        }
    }

    private void drawBand(GraphicsContext gc, double w, double h) {
        double left = 30;
        double width = w - 60;
        double top = h / 2 - BAND_HEIGHT;
        for (RingGeometry.Part part : geometry.parts()) {
            gc.setFill(part.colour());
            double[] start = part.spanStart();
            double[] len = part.spanLength();
            for (int i = 0; i < start.length; i++) {
                double x0 = start[i] < 0 ? 0 : start[i];
                double x1 = start[i] + len[i];
                // at least a hair wide, so a one-slot run still shows
                gc.fillRect(left + x0 * width, top, Math.max((x1 - x0) * width, 0.6), BAND_HEIGHT);
                if (start[i] < 0) {
                    gc.fillRect(left + (1 + start[i]) * width, top, -start[i] * width, BAND_HEIGHT);
                }
            }
        }
        gc.setFill(textColour);
        gc.setFont(Font.font(13));
        gc.setTextAlign(TextAlignment.LEFT);
        gc.setTextBaseline(VPos.BOTTOM);
        gc.fillText("maglev lookup table: " + geometry.pointCount() + " runs of slots, slot 0 at the left", left,
                top - 8);
        shareBand(gc, left, width, top + BAND_HEIGHT + 16, null);
        if (previewShare != null) {
            shareBand(gc, left, width, top + BAND_HEIGHT + 52, previewShare);
        }
        if (marker != null) {
            double x = left + marker * width;
            gc.setStroke(textColour);
            gc.setLineWidth(2);
            gc.strokeLine(x, top - 4, x, top + BAND_HEIGHT + 4);
            if (markerLabel != null) {
                gc.setTextAlign(TextAlignment.CENTER);
                gc.setTextBaseline(VPos.TOP);
                gc.fillText(markerLabel, x, top + BAND_HEIGHT + 90);
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
