package dev.fulcrum.ui.ring;

import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.shape.Rectangle;

/**
 * One backend's share of the key space as a bar in its colour, with a mark at its fair share: the spread beside the
 * ring. The bar's full length is {@code scale} (the largest share or fair share shown), so bars compare across
 * backends; a what-if's share after the change is a paler bar below the share now.
 */
final class ShareBar extends Region {
    private final Rectangle now = new Rectangle();
    private final Rectangle after = new Rectangle();
    private final Region fair = new Region();
    private double share;
    private double fairShare;
    private double afterShare = -1;
    private double scale = 1;

    ShareBar(Color colour) {
        getStyleClass().add("ring-share-bar");
        now.setFill(colour);
        after.setFill(colour.deriveColor(0, 1, 1, 0.45));
        fair.getStyleClass().add("ring-share-fair");
        getChildren().addAll(now, after, fair);
    }

    /** @param afterShare the share after a what-if, or a negative number for none */
    void set(double share, double fairShare, double afterShare, double scale) {
        this.share = share;
        this.fairShare = fairShare;
        this.afterShare = afterShare;
        this.scale = scale <= 0 ? 1 : scale;
        requestLayout();
    }

    @Override
    protected void layoutChildren() {
        double w = getWidth();
        double h = getHeight();
        boolean twoBars = afterShare >= 0;
        double barH = twoBars ? h / 2 : h;
        now.setX(0);
        now.setY(0);
        now.setWidth(w * Math.min(1, share / scale));
        now.setHeight(barH);
        after.setVisible(twoBars);
        after.setX(0);
        after.setY(barH);
        after.setWidth(twoBars ? w * Math.min(1, afterShare / scale) : 0);
        after.setHeight(barH);
        double mark = Math.max(2, h / 6);
        fair.resizeRelocate(Math.min(w - mark, w * Math.min(1, fairShare / scale) - mark / 2), -1, mark, h + 2);
    }

    @Override
    protected double computePrefWidth(double height) {
        return 60;
    }

    @Override
    protected double computeMinWidth(double height) {
        return 20;
    }
}
