package dev.fulcrum.ui;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.JMException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the JIT's optimising compiler (C2) for the proxy when the window runs in the same process. JavaFX's scene graph,
 * controls and CSS are thousands of lukewarm methods that cross C2's thresholds one by one over the window's first
 * minutes; on a small machine the one C2 thread then spends most of its time on them while the proxy's own hot paths
 * wait in the queue, profiled and slow (measured: C2 at 45% of a core and the proxy at 0.6x of headless in the window's
 * first 25 s). A compiler directive leaves those packages to C1, which compiles quickly and well enough for code that
 * runs a few times a frame; the rasteriser and the renderer ({@code com.sun.prism}, {@code com.sun.marlin}), where a
 * frame's time goes, stay with C2.
 *
 * <p>{@code -Dfulcrum.uiC2=true} leaves the JIT as it is. Attached windows have no proxy beside them and do not call this.
 */
final class ProxyFirstJit {
    /** The packages C1 keeps: HotSpot compiler-directive patterns, class/method. */
    static final String DIRECTIVE = """
            [ { match: [ "javafx/*.*", "com/sun/javafx/*.*", "com/sun/glass/*.*", "com/sun/scenario/*.*", "com/sun/prism/*.*",
                         "com/sun/marlin/*.*", "com/sun/pisces/*.*",
                         "org/controlsfx/*.*", "dev/fulcrum/ui/*.*" ],
                c2: { Exclude: true } } ]
            """;
    private static final Logger LOG = LoggerFactory.getLogger(ProxyFirstJit.class);

    private ProxyFirstJit() {
    }

    /** Adds the directive; says so in the log, or why not (a JVM without the diagnostic command). */
    static boolean apply() {
        if (Boolean.getBoolean("fulcrum.uiC2")) {
            return false;
        }
        try {
            Path f = Files.createTempFile("fulcrum-jit", ".json");
            try {
                Files.writeString(f, DIRECTIVE);
                Object answer = ManagementFactory.getPlatformMBeanServer().invoke(
                        new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesAdd",
                        new Object[] {new String[] {f.toString()}}, new String[] {String[].class.getName()});
                boolean added = String.valueOf(answer).contains("added");
                LOG.info("window: JavaFX code is left to the C1 compiler, C2 kept for the proxy ({})",
                        String.valueOf(answer).strip());
                return added;
            } finally {
                Files.deleteIfExists(f);
            }
        } catch (IOException | JMException | RuntimeException e) {
            LOG.info("window: the JIT's compilers are as the JVM chose ({})", e.toString());
            return false;
        }
    }
}
