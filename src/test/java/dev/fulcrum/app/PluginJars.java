package dev.fulcrum.app;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Plugin jars made in a test: Java sources compiled with the JDK's compiler against the test's class path (Fulcrum's
 * classes, so {@code dev.fulcrum.spi}), the classes and resources put in a jar. Also reads the code blocks of a
 * Markdown page, so docs/PLUGINS.md's example is compiled as written.
 */
final class PluginJars {
    /** A fenced block: its info string (language and an optional path), its text. */
    private static final Pattern FENCE = Pattern.compile("(?m)^```(\\w+)([^\\n]*)\\n(.*?)^```", Pattern.DOTALL);
    private static final Pattern CLASS = Pattern.compile("public\\s+(?:final\\s+)?(?:class|interface|record)\\s+(\\w+)");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+);");

    private PluginJars() {
    }

    /** One fenced block of a Markdown page. */
    record Block(String language, String path, String text) {
    }

    static List<Block> blocks(String markdown) {
        List<Block> out = new ArrayList<>();
        Matcher m = FENCE.matcher(markdown);
        while (m.find()) {
            out.add(new Block(m.group(1), m.group(2).trim(), m.group(3)));
        }
        return out;
    }

    /**
     * A jar at {@code dir/name} of {@code sources} (Java source texts, each one public top-level type) and
     * {@code resources} (path in the jar to text).
     */
    static Path jar(Path dir, String name, List<String> sources, Map<String, String> resources) throws IOException {
        // beside the plugin directory, not in it: only the jar is the plugin's
        Path classes = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-" + name + "-classes"));
        compile(sources, classes);
        Files.createDirectories(dir);
        Path jar = dir.resolve(name);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(classes)) {
                files = s.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
            for (Map.Entry<String, String> r : resources.entrySet()) {
                out.putNextEntry(new JarEntry(r.getKey()));
                out.write(r.getValue().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return jar;
    }

    /** The services file naming {@code providerClass}. */
    static Map<String, String> services(String providerClass) {
        return Map.of("META-INF/services/dev.fulcrum.spi.StrategyProvider", providerClass + "\n");
    }

    private static void compile(List<String> sources, Path out) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no Java compiler: the tests need a JDK");
        }
        List<JavaFileObject> units = new ArrayList<>();
        for (String src : sources) {
            Matcher c = CLASS.matcher(src);
            Matcher p = PACKAGE.matcher(src);
            if (!c.find()) {
                throw new IllegalArgumentException("no public type in source:\n" + src);
            }
            String qualified = (p.find() ? p.group(1) + "." : "") + c.group(1);
            units.add(new SimpleJavaFileObject(URI.create("string:///" + qualified.replace('.', '/') + ".java"),
                    JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return src;
                }
            });
        }
        DiagnosticCollector<JavaFileObject> problems = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(problems, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of("--release", "17", "-cp", System.getProperty("java.class.path"), "-d",
                    out.toString());
            Boolean ok = javac.getTask(null, files, problems, options, null, units).call();
            if (!Boolean.TRUE.equals(ok)) {
                StringBuilder b = new StringBuilder("compilation failed:");
                problems.getDiagnostics().forEach(d -> b.append('\n').append(d));
                throw new IllegalStateException(b.toString());
            }
        }
    }

    /** Writes {@code text} (for a config file). */
    static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        try (OutputStream o = Files.newOutputStream(file)) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    /** Sources by class: a plugin whose one strategy {@code name} picks with {@code pickBody} (over candidates {@code cs}). */
    static List<String> plugin(String pkg, String name, String pickBody) {
        String provider = """
                package %1$s;

                import dev.fulcrum.spi.*;
                import java.util.List;

                public final class Provider implements StrategyProvider {
                    @Override
                    public int spiVersion() {
                        return Spi.VERSION;
                    }

                    @Override
                    public List<PluginStrategy> strategies() {
                        return List.of(new PluginStrategy() {
                            @Override
                            public String name() {
                                return "%2$s";
                            }

                            @Override
                            public String title() {
                                return "test %2$s";
                            }

                            @Override
                            public String sentence() {
                                return "A strategy for a test.";
                            }

                            @Override
                            public Picker create(Settings settings, List<Candidate> cs, Picker previous) {
                                return (request, eligible) -> {
                                    %3$s
                                };
                            }
                        });
                    }
                }
                """.formatted(pkg, name, pickBody);
        return List.of(provider);
    }

    /** A jar in {@code dir} holding {@link #plugin}. */
    static Path pluginJar(Path dir, String jarName, String pkg, String name, String pickBody) throws IOException {
        Map<String, String> res = new LinkedHashMap<>(services(pkg + ".Provider"));
        return jar(dir, jarName, plugin(pkg, name, pickBody), res);
    }
}
