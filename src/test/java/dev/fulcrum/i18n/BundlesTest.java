package dev.fulcrum.i18n;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The three bundles hold the same keys, every text is a valid pattern with the same arguments in each language, and
 * every key the window names (a {@code %key} in FXML, a {@code Texts.t("key"} in the code) is in them.
 */
class BundlesTest {
    static final List<String> SUFFIXES = List.of("", "_zh_CN", "_pl");

    static Properties bundle(String suffix) throws IOException {
        Properties p = new Properties();
        try (InputStream in = BundlesTest.class.getResourceAsStream("/i18n/messages" + suffix + ".properties");
             Reader r = new java.io.InputStreamReader(in, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return p;
    }

    @Test
    void everyBundleHasEveryKeyAndNoOther() throws IOException {
        Set<String> english = bundle("").stringPropertyNames();
        for (String suffix : SUFFIXES.subList(1, 3)) {
            Set<String> other = bundle(suffix).stringPropertyNames();
            Set<String> missing = new TreeSet<>(english);
            missing.removeAll(other);
            Set<String> extra = new TreeSet<>(other);
            extra.removeAll(english);
            assertThat(missing).as("keys missing from messages%s.properties", suffix).isEmpty();
            assertThat(extra).as("keys in messages%s.properties but not in English", suffix).isEmpty();
        }
    }

    @Test
    void everyTextIsTranslatedAndKeepsItsArguments() throws IOException {
        Properties en = bundle("");
        List<String> problems = new ArrayList<>();
        for (String suffix : SUFFIXES) {
            Properties p = bundle(suffix);
            for (String key : p.stringPropertyNames()) {
                String text = p.getProperty(key);
                if (text.isBlank()) {
                    problems.add(suffix + " " + key + ": empty");
                    continue;
                }
                Set<Integer> args = arguments(text);
                if (!args.isEmpty()) {
                    try {
                        new MessageFormat(text);
                    } catch (IllegalArgumentException e) {
                        problems.add(suffix + " " + key + ": not a pattern: " + e.getMessage());
                    }
                    if (text.replace("''", "").contains("'")) {
                        problems.add(suffix + " " + key + ": a lone ' in a text with arguments (write '')");
                    }
                }
                if (en.getProperty(key) != null && !args.equals(arguments(en.getProperty(key)))) {
                    problems.add(suffix + " " + key + ": arguments " + args + " where English has "
                            + arguments(en.getProperty(key)));
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void chineseAndPolishAreWrittenInTheirOwnScripts() throws IOException {
        // a key copied over untranslated is English in a Chinese window: most Chinese texts hold a CJK character
        Properties zh = bundle("_zh_CN");
        long withHan = zh.stringPropertyNames().stream()
                .filter(k -> zh.getProperty(k).codePoints().anyMatch(c -> Character.UnicodeScript.of(c)
                        == Character.UnicodeScript.HAN)).count();
        assertThat(withHan).as("Chinese texts with Han characters").isGreaterThan(zh.size() * 8L / 10);
    }

    static final Pattern FXML_KEY = Pattern.compile("=\"%([A-Za-z0-9_.-]+)\"");
    static final Pattern CODE_KEY = Pattern.compile("Texts\\.t\\(\\s*\"([A-Za-z0-9_.-]+)\"");

    @Test
    void everyKeyTheWindowNamesExists() throws IOException {
        Set<String> english = bundle("").stringPropertyNames();
        Set<String> named = new TreeSet<>();
        try (Stream<Path> files = Stream.concat(Files.walk(Path.of("fxml")), Files.walk(Path.of("src/main/java")))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String s = Files.readString(f);
                Matcher m = (f.toString().endsWith(".fxml") ? FXML_KEY : CODE_KEY).matcher(s);
                while (m.find()) {
                    named.add(m.group(1));
                }
            }
        }
        named.removeAll(english);
        assertThat(named).as("keys named in fxml/ or src/main/java but in no bundle").isEmpty();
    }

    static Set<Integer> arguments(String text) {
        Set<Integer> out = new TreeSet<>();
        Matcher m = Pattern.compile("\\{(\\d+)").matcher(text);
        while (m.find()) {
            out.add(Integer.parseInt(m.group(1)));
        }
        return out;
    }
}
