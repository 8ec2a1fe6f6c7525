package dev.fulcrum;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The design the code cites lives in the repository: every {@code docs/REFERENCE.md §N} names a section that
 * exists, every path docs/ARCHITECTURE.md names exists, and nothing cites a document outside the repository.
 */
class DocsTest {
    private static final Pattern CITATION = Pattern.compile("docs/REFERENCE\\.md §(\\d+(?:\\.\\d+)?)");
    private static final Pattern SECTION = Pattern.compile("^#{2,3} (\\d+(?:\\.\\d+)?)\\. |^#{2,3} (\\d+\\.\\d+) ",
            Pattern.MULTILINE);
    private static final Pattern OUTSIDE = Pattern.compile("\\bCONTRACT\\b|\\bDESIGN\\.md|\\.\\./shared");

    static Set<String> sections(String markdown) {
        Set<String> out = new TreeSet<>();
        Matcher m = SECTION.matcher(markdown);
        while (m.find()) {
            out.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
        return out;
    }

    static List<Path> sources() {
        List<Path> out = new ArrayList<>();
        for (String root : List.of("src", "bench", "pom.xml", "README.md", "BENCHMARKS.md", "RELIABILITY.md", "docs", ".ci")) {
            Path p = Path.of(root);
            if (!Files.exists(p)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(p)) {
                walk.filter(Files::isRegularFile)
                        .filter(f -> f.toString().matches(".*\\.(java|xml|sh|md|json|css|fxml)$") || f.endsWith("run"))
                        .forEach(out::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everyCitedReferenceSectionExists() {
        Set<String> sections = sections(read(Path.of("docs/REFERENCE.md")));
        assertThat(sections).contains("1", "2.1", "2.2", "2.3", "2.4", "3", "4");

        List<String> dangling = new ArrayList<>();
        int citations = 0;
        for (Path f : sources()) {
            Matcher m = CITATION.matcher(read(f));
            while (m.find()) {
                citations++;
                if (!sections.contains(m.group(1))) {
                    dangling.add(f + ": §" + m.group(1));
                }
            }
        }
        assertThat(citations).as("citations found").isGreaterThan(20);
        assertThat(dangling).as("citations of sections docs/REFERENCE.md does not have").isEmpty();
    }

    @Test
    void theSectionFinderSeesAMissingSection() {
        assertThat(sections("## 1. Command line\n### 2.1 Shape\n## 3. Wire\n")).containsExactly("1", "2.1", "3");
    }

    @Test
    void nothingCitesADocumentOutsideTheRepository() {
        List<String> outside = new ArrayList<>();
        for (Path f : sources()) {
            if (f.endsWith("DocsTest.java")) {
                continue;
            }
            String[] lines = read(f).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (OUTSIDE.matcher(lines[i]).find()) {
                    outside.add(f + ":" + (i + 1) + ": " + lines[i].strip());
                }
            }
        }
        assertThat(outside).isEmpty();
    }

    @Test
    void everyPackageSaysWhatItIsAndWhatItMayUse() throws IOException {
        List<String> without = new ArrayList<>();
        try (Stream<Path> dirs = Files.walk(Path.of("src/main/java"))) {
            for (Path d : dirs.filter(Files::isDirectory).toList()) {
                boolean hasClasses;
                try (Stream<Path> files = Files.list(d)) {
                    hasClasses = files.anyMatch(f -> f.toString().endsWith(".java"));
                }
                Path info = d.resolve("package-info.java");
                String text = Files.exists(info) ? read(info).toLowerCase(java.util.Locale.ROOT) : "";
                if (hasClasses && (!text.contains("may use") || !text.contains("must not"))) {
                    without.add(d.toString());
                }
            }
        }
        assertThat(without).as("packages without a package-info saying what they may and must not use").isEmpty();
    }

    /** Backticked names in a document that are files: under a folder of the project, or ending in a file kind. */
    private static final Pattern PATHLIKE = Pattern.compile("`((?:src|docs|samples|bench|fxml|styles|packaging|\\.ci)"
            + "/[A-Za-z0-9_./-]*|[A-Za-z0-9_-]+\\.(?:java|md|sh|json|xml|fxml|css))`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#]+)\\)");

    static List<String> missingPaths(Path doc) throws IOException {
        String text = read(doc);
        Set<String> names = new TreeSet<>();
        try (Stream<Path> all = Files.walk(Path.of("."))) {
            all.filter(Files::isRegularFile).forEach(f -> names.add(f.getFileName().toString()));
        }
        List<String> missing = new ArrayList<>();
        Matcher m = PATHLIKE.matcher(text);
        while (m.find()) {
            String name = m.group(1);
            boolean ok = name.contains("/") ? Files.exists(Path.of(name)) || Files.exists(doc.getParent().resolve(name))
                    : names.contains(name);
            if (!ok && !name.startsWith("/") && !name.contains("{")) {
                missing.add(name);
            }
        }
        Matcher l = LINK.matcher(text);
        while (l.find()) {
            String target = l.group(1);
            if (!target.contains("://") && !Files.exists(doc.getParent().resolve(target))) {
                missing.add(target);
            }
        }
        return missing;
    }

    @Test
    void everyPathTheArchitectureNamesExists() throws IOException {
        assertThat(read(Path.of("docs/ARCHITECTURE.md"))).contains("## Layers", "## Who owns which state",
                "## A request, step by step", "## A weight drag", "## How the window talks to an engine", "## Checklists");
        assertThat(missingPaths(Path.of("docs/ARCHITECTURE.md"))).isEmpty();
        assertThat(missingPaths(Path.of("docs/REFERENCE.md"))).isEmpty();
    }

    @Test
    void thePathCheckSeesAMissingFile(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path doc = dir.resolve("doc.md");
        Files.writeString(doc, "See `src/main/java/dev/fulcrum/engine/Pool.java` and `src/main/java/Gone.java`, "
                + "`NoSuchClass.java` and [a link](missing.md).");
        assertThat(missingPaths(doc)).containsExactly("src/main/java/Gone.java", "NoSuchClass.java", "missing.md");
    }
}
