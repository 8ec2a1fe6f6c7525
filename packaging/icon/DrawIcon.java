import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Draws Fulcrum's icon with Java2D and writes the files the installers take:
 * {@code fulcrum.png} (256x256, Linux), {@code fulcrum.ico} (16-256, Windows) and {@code fulcrum.icns} (16-1024, macOS).
 * Run from the repository root: {@code java packaging/icon/DrawIcon.java}.
 *
 * <p>The motif is a lever balanced on a fulcrum: a beam resting on a triangle, one request dot above it and two
 * equal backend weights hanging from its ends, on a dark rounded square. Every size is drawn from the same vector
 * shapes at that size (not scaled down from one bitmap), so the small ones stay sharp. The .ico and .icns
 * containers hold PNG images, which Windows (Vista on) and macOS (10.7 on) read; both are written here by hand
 * because the JDK has no writer for them.
 */
public class DrawIcon {

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "packaging/icon");
        Files.createDirectories(dir);
        ImageIO.write(draw(256), "png", dir.resolve("fulcrum.png").toFile());

        Map<Integer, byte[]> ico = new LinkedHashMap<>();
        for (int size : new int[] {16, 24, 32, 48, 64, 128, 256}) {
            ico.put(size, png(draw(size)));
        }
        Files.write(dir.resolve("fulcrum.ico"), ico(ico));

        // icns element types holding PNG data, by edge length (Apple's "icp4".."ic10")
        Map<String, byte[]> icns = new LinkedHashMap<>();
        icns.put("icp4", png(draw(16)));
        icns.put("icp5", png(draw(32)));
        icns.put("icp6", png(draw(64)));
        icns.put("ic07", png(draw(128)));
        icns.put("ic08", png(draw(256)));
        icns.put("ic09", png(draw(512)));
        icns.put("ic10", png(draw(1024)));
        Files.write(dir.resolve("fulcrum.icns"), icns(icns));
        System.out.println("wrote fulcrum.png, fulcrum.ico, fulcrum.icns in " + dir);
    }

    /** The icon at size x size pixels; coordinates below are on a 256 grid, scaled to the size. */
    static BufferedImage draw(int size) {
        BufferedImage image = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
        g.scale(size / 256.0, size / 256.0);

        // background: a rounded square, deep blue to teal
        g.setPaint(new GradientPaint(0, 0, new Color(0x1B2A4A), 256, 256, new Color(0x0E5E6F)));
        g.fill(new RoundRectangle2D.Double(8, 8, 240, 240, 56, 56));

        Color amber = new Color(0xF5A623);
        Color light = new Color(0xE8F1F5);

        // the request, dropping onto the middle of the beam
        g.setColor(amber);
        g.fill(new Ellipse2D.Double(128 - 17, 38, 34, 34));

        // the fulcrum: a triangle the beam rests on
        Path2D triangle = new Path2D.Double();
        triangle.moveTo(128, 112);
        triangle.lineTo(170, 200);
        triangle.lineTo(86, 200);
        triangle.closePath();
        g.setColor(amber);
        g.fill(triangle);
        g.fill(new RoundRectangle2D.Double(66, 198, 124, 16, 8, 8));

        // the beam, level: the load is balanced
        g.setColor(light);
        g.fill(new RoundRectangle2D.Double(30, 98, 196, 16, 8, 8));

        // two backends hanging from the beam's ends, equal weights
        g.setStroke(new BasicStroke(5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        for (double x : new double[] {46, 210}) {
            g.setColor(light);
            g.drawLine((int) x, 114, (int) x, 136);
            g.fill(new RoundRectangle2D.Double(x - 18, 134, 36, 30, 8, 8));
        }
        return image;
    }

    static byte[] png(BufferedImage image) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }

    /** An ICO file: a 6-byte header, a 16-byte entry per image, then the PNGs (little-endian throughout). */
    static byte[] ico(Map<Integer, byte[]> images) {
        int offset = 6 + 16 * images.size();
        int total = offset + images.values().stream().mapToInt(b -> b.length).sum();
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 0).putShort((short) 1).putShort((short) images.size());
        for (Map.Entry<Integer, byte[]> e : images.entrySet()) {
            int edge = e.getKey() >= 256 ? 0 : e.getKey(); // 0 means 256 in an ICO entry
            b.put((byte) edge).put((byte) edge).put((byte) 0).put((byte) 0);
            b.putShort((short) 1).putShort((short) 32).putInt(e.getValue().length).putInt(offset);
            offset += e.getValue().length;
        }
        images.values().forEach(b::put);
        return b.array();
    }

    /** An ICNS file: "icns" and the file's length, then per image its 4-letter type, its length with header, PNG. */
    static byte[] icns(Map<String, byte[]> images) throws IOException {
        int total = 8 + images.values().stream().mapToInt(b -> 8 + b.length).sum();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(total);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeBytes("icns");
        out.writeInt(total);
        for (Map.Entry<String, byte[]> e : images.entrySet()) {
            out.writeBytes(e.getKey());
            out.writeInt(8 + e.getValue().length);
            out.write(e.getValue());
        }
        return bytes.toByteArray();
    }
}
