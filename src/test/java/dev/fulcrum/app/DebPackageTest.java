package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fulcrum.testkit.ProcessOutput;
import dev.fulcrum.testkit.RecordingBackend;
import java.awt.image.BufferedImage;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package as a user gets it: {@code packaging/deb.sh} builds it, {@code dpkg-deb -x} unpacks it into a
 * temporary folder, and the unpacked tree is checked (menu entry, icon, file types, the {@code fulcrum} command)
 * and its launcher, on the package's own runtime, run headless to its ready line, through the proxy, and stopped.
 *
 * <p>deb.sh packages target/fulcrum.jar, which the {@code package} phase builds after the {@code test} phase. So
 * this test is tagged {@code installer}: the ordinary test run leaves it out, and pom.xml runs it in a second
 * surefire execution in the {@code integration-test} phase, after {@code package}, where {@code mvn verify} has just
 * built the jar and deb.sh is run with {@code --no-build} to package that very jar. Alone:
 * {@code mvn -o verify -Dtest=DebPackageTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("installer")
class DebPackageTest {
    private static final Pattern READY = Pattern.compile("fulcrum ready proxy=(http://127\\.0\\.0\\.1:\\d+) admin=(\\S+)");
    private static final Path INSTALL = Path.of("opt/fulcrum");
    private static final String LAUNCHER = "/opt/fulcrum/bin/Fulcrum";

    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void theDebInstallsAMenuEntryFileTypesTheCommandAndALauncherThatServes(@TempDir Path t) throws Exception {
        assumeTrue(onPath("jpackage").isPresent(), "jpackage is not on the PATH (it comes with a full JDK 17): no .deb");
        assumeTrue(onPath("dpkg-deb").isPresent(), "dpkg-deb is not on the PATH (package dpkg): no .deb");
        assumeTrue(onPath("fakeroot").isPresent(), "fakeroot is not on the PATH (jpackage builds a .deb under it): no .deb");
        Path jar = Path.of("target/fulcrum.jar");
        assertThat(jar).as("target/fulcrum.jar, built by the package phase (run this test with mvn verify)").exists();
        // the shaded jar carries Fulcrum's Host check in Undertow's place (the project's classes go in first)
        try (java.net.URLClassLoader l = new java.net.URLClassLoader(new java.net.URL[] {jar.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            assertThat(l.loadClass("io.undertow.server.handlers.HostHeaderHandler").getDeclaredFields())
                    .extracting(java.lang.reflect.Field::getName).contains("REG_NAME");
        }

        Path dist = t.resolve("dist");
        long start = System.nanoTime();
        run(t, List.of("packaging/deb.sh", "--no-build", "--dest", dist.toString()), 15);
        System.out.printf("deb.sh --no-build: %.1f s%n", (System.nanoTime() - start) / 1e9);

        String version = Files.readString(Path.of("pom.xml")).replaceFirst("(?s).*?\n  <version>([^<]+)</version>.*", "$1")
                .replace("-SNAPSHOT", "");
        Path deb = dist.resolve("fulcrum_" + version + "_amd64.deb");
        assertThat(deb).as("the package, named after pom.xml's version").exists();
        System.out.printf("%s: %.1f MB%n", deb.getFileName(), Files.size(deb) / 1e6);

        Path root = Files.createDirectories(t.resolve("root"));
        run(t, List.of("dpkg-deb", "-x", deb.toString(), root.toString()), 2);
        Path control = t.resolve("control");
        run(t, List.of("dpkg-deb", "-e", deb.toString(), control.toString()), 2);
        Path lib = root.resolve(INSTALL).resolve("lib");

        // the menu entry: the launcher, Fulcrum's icon, both file types
        Path desktop = lib.resolve("fulcrum-Fulcrum.desktop");
        assertThat(Files.readAllLines(desktop)).contains("Name=Fulcrum", "Exec=" + LAUNCHER + " %f",
                "Icon=/opt/fulcrum/lib/Fulcrum.png", "Type=Application",
                "MimeType=application/x-har;application/x-fulcrum-config");
        Path icon = lib.resolve("Fulcrum.png");
        assertThat(Files.readAllBytes(icon)).as("the icon drawn for Fulcrum")
                .isEqualTo(Files.readAllBytes(Path.of("packaging/icon/fulcrum.png")));
        BufferedImage image = ImageIO.read(icon.toFile());
        assertThat(List.of(image.getWidth(), image.getHeight())).containsExactly(256, 256);

        // the file types: *.har and *.fulcrum.json, each with its MIME type
        String mime = Files.readString(lib.resolve("fulcrum-Fulcrum-MimeInfo.xml"));
        assertThat(mime.replaceAll("\\s+", " "))
                .contains("<mime-type type=\"application/x-har\"> <comment>HTTP Archive (HAR)</comment> "
                        + "<glob pattern=\"*.har\"></glob> </mime-type>")
                .contains("<mime-type type=\"application/x-fulcrum-config\"> <comment>Fulcrum config</comment> "
                        + "<glob pattern=\"*.fulcrum.json\"></glob> </mime-type>");

        // installing registers both and links the command; removing unlinks it
        String postinst = Files.readString(control.resolve("postinst"));
        assertThat(postinst).contains("xdg-desktop-menu install /opt/fulcrum/lib/fulcrum-Fulcrum.desktop",
                "xdg-mime install /opt/fulcrum/lib/fulcrum-Fulcrum-MimeInfo.xml",
                "ln -sf " + LAUNCHER + " /usr/bin/fulcrum");
        assertThat(Files.readString(control.resolve("prerm"))).contains(
                "xdg-desktop-menu uninstall /opt/fulcrum/lib/fulcrum-Fulcrum.desktop",
                "xdg-mime uninstall /opt/fulcrum/lib/fulcrum-Fulcrum-MimeInfo.xml");
        assertThat(Files.readString(control.resolve("postrm"))).contains("rm -f /usr/bin/fulcrum");
        assertThat(Files.readString(control.resolve("control"))).contains("Package: fulcrum",
                "Version: " + version + "-1", "Architecture: amd64");

        // its own runtime, with the heap ceiling
        Path launcher = root.resolve(LAUNCHER.substring(1));
        assertThat(Files.isExecutable(launcher)).as("%s is executable", launcher).isTrue();
        assertThat(lib.resolve("runtime/lib/server/libjvm.so")).exists();
        assertThat(Files.readAllLines(lib.resolve("app/Fulcrum.cfg"))).contains("java-options=-Xmx512m",
                "java-options=-Xms32m", "java-options=-XX:MinHeapFreeRatio=10", "java-options=-XX:MaxHeapFreeRatio=30",
                "java-options=-XX:+ExplicitGCInvokesConcurrent");
        if (hasVmOption("TrimNativeHeapInterval")) { // the bundled runtime is this JDK: 17.0.9 and later have it
            assertThat(Files.readAllLines(lib.resolve("app/Fulcrum.cfg")))
                    .contains("java-options=-XX:TrimNativeHeapInterval=2000");
        }

        // the command as postinst links it: a link named fulcrum to the launcher (which finds its app from there)
        Path fulcrum = Files.createSymbolicLink(Files.createDirectories(t.resolve("bin")).resolve("fulcrum"),
                launcher.toAbsolutePath());
        headlessToReadyThroughTheProxyThenSigterm(t, fulcrum);
    }

    private static void headlessToReadyThroughTheProxyThenSigterm(Path t, Path fulcrum) throws Exception {
        try (RecordingBackend backend = new RecordingBackend("a")) {
            Path cfg = Files.writeString(t.resolve("headless.fulcrum.json"), """
                    {"proxy": {"host": "127.0.0.1", "port": 0}, "admin": {"host": "127.0.0.1", "port": 0},
                     "backends": [{"id": "a", "url": "%s"}],
                     "healthCheck": {"enabled": false}}
                    """.formatted(backend.url()));
            Path err = t.resolve("stderr.txt");
            ProcessBuilder pb = new ProcessBuilder(fulcrum.toString(), "--headless", "--config", cfg.toString())
                    .redirectError(err.toFile());
            // a home of its own: the launcher's JavaFX cache and plugin folder are not the user's
            pb.environment().put("HOME", Files.createDirectories(t.resolve("home")).toString());
            pb.environment().put("XDG_CONFIG_HOME", t.resolve("home/.config").toString());
            long start = System.nanoTime();
            Process p = pb.start();
            try {
                String line = ProcessOutput.firstLine(p, Duration.ofSeconds(120));
                System.out.printf("packaged launcher to its ready line: %.2f s%n", (System.nanoTime() - start) / 1e9);
                Matcher m = READY.matcher(line == null ? "" : line);
                assertThat(m.matches()).as("ready line (got: %s; stderr: %s)", line, Files.readString(err)).isTrue();

                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(m.group(1) + "/hello"))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.headers().firstValue("X-Fulcrum-Backend")).hasValue("a");
                assertThat(backend.requests.get()).isEqualTo(1);
            } finally {
                p.destroy(); // SIGTERM
            }
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("stops within 60 s of SIGTERM").isTrue();
            assertThat(p.exitValue()).as("exit code after SIGTERM (stderr: %s)", Files.readString(err)).isZero();
        }
    }

    /** Runs a command to its end within {@code minutes}, its output into t; fails naming it and its output. */
    private static void run(Path t, List<String> command, int minutes) throws Exception {
        Path log = Files.createTempFile(t, "run", ".log");
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        // the package's data compressed with gzip -1 instead of dpkg's xz: half of deb.sh's 48 s here was xz
        // squeezing 4.7 MB out of 65 (jlink's modules and the jar are compressed already); what is checked is
        // what the package holds and does, which the compressor does not change
        b.environment().put("DPKG_DEB_COMPRESSOR_TYPE", "gzip");
        b.environment().put("DPKG_DEB_COMPRESSOR_LEVEL", "1");
        Process p = b.start();
        if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(command + " ran longer than " + minutes + " min: " + Files.readString(log));
        }
        assertThat(p.exitValue()).as("%s exit code; output: %s", command, Files.readString(log)).isZero();
    }

    private static boolean hasVmOption(String name) {
        try {
            java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                    .getVMOption(name);
            return true;
        } catch (IllegalArgumentException absent) {
            return false;
        }
    }

    private static Optional<Path> onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, program))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
