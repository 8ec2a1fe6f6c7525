package dev.fulcrum.i18n;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No text a person reads is written into the window's FXML or its controllers: a {@code text}, {@code promptText},
 * {@code title} or {@code headerText} in FXML is a {@code %key}, and a label, button, tooltip, tab, dialog or chart
 * title in src/main/java/dev/fulcrum/ui is not given a string literal of words. What may stay is listed below with why:
 * the brand, examples of what to type (a URL, a header name, a log format), and symbols.
 */
class NoLiteralTextTest {
    static final Pattern FXML_TEXT =
            Pattern.compile("\\b(text|promptText|title|headerText)=\"([^\"]*)\"");
    static final Pattern CODE_TEXT = Pattern.compile("(setText|setPromptText|setTitle|setHeaderText|setContentText"
            + "|setLabel|setName|setPlaceholder|setAccessibleText|setTooltip|new (?:Label|Button|Tooltip|Tab|CheckBox"
            + "|MenuItem|Menu|ToggleButton|RadioButton|Text|Hyperlink|TitledPane|ButtonType|Alert|TextInputDialog))"
            + "\\(\\s*\"([^\"]*)\"(\\.equals)?");

    /** Literals that are no sentence of the window: the brand, things to type, symbols. */
    static final Set<String> ALLOWED = Set.of(
            "Fulcrum", // the brand, in the toolbar and the title bar, in every language
            "Fulcrum — ", // the title bar: the brand, then the engine in the window's language
            "Mg", // a measuring string for the font's height, never shown
            "Retry", "Quit", // the token dialog's button types: their buttons' texts are set from the bundle
            "cv", // the coefficient of variation's symbol, as the column reads
            "ms", // the unit, as every language of the window writes it
            "http://127.0.0.1:9001", "id:weight:latencyMs, …", "round-robin,least-requests", "combined", "X-User");

    @Test
    void fxmlNamesEveryTextByItsKey() throws IOException {
        List<String> literal = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("fxml"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".fxml")).toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = FXML_TEXT.matcher(lines.get(i));
                    while (m.find()) {
                        String v = m.group(2);
                        if (!v.startsWith("%") && !v.startsWith("$") && hasWords(v) && !ALLOWED.contains(v)) {
                            literal.add(f + ":" + (i + 1) + ": " + m.group(1) + "=\"" + v + "\"");
                        }
                    }
                }
            }
        }
        assertThat(literal).as("texts written into FXML instead of a %key").isEmpty();
    }

    @Test
    void controllersTakeEveryTextFromTheBundles() throws IOException {
        List<String> literal = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/fulcrum/ui"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = CODE_TEXT.matcher(lines.get(i));
                    while (m.find()) {
                        String v = m.group(2);
                        if (m.group(3) == null && hasWords(v) && !ALLOWED.contains(v)) {
                            literal.add(f + ":" + (i + 1) + ": " + m.group(1) + "(\"" + v + "\"");
                        }
                    }
                }
            }
        }
        assertThat(literal).as("texts written into the window's code instead of Texts.t(key)").isEmpty();
    }

    @Test
    void theScanFindsALiteralWhereThereIsOne() {
        Matcher code = CODE_TEXT.matcher("        drain.setTooltip(new Tooltip(\"Drain this backend\"));");
        assertThat(code.find()).isTrue();
        assertThat(code.group(2)).isEqualTo("Drain this backend");
        Matcher fxml = FXML_TEXT.matcher("<Button fx:id=\"play\" text=\"Play\"/>");
        assertThat(fxml.find()).isTrue();
        assertThat(fxml.group(2)).isEqualTo("Play");
    }

    /** Two letters in a row: a word, not a symbol, a number or punctuation. */
    static boolean hasWords(String s) {
        return Pattern.compile("\\p{L}{2}").matcher(s).find();
    }
}
