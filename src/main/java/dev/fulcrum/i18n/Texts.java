package dev.fulcrum.i18n;

import java.text.MessageFormat;
import java.util.List;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * The window's language and its texts: {@code src/main/resources/i18n/messages*.properties} (UTF-8), English,
 * Simplified Chinese and Polish. One language for the whole window at a time, chosen before the window is built
 * (the system locale, or the one the operator picked and the window remembers), so the FX thread only reads it.
 *
 * <p>A text with arguments is a {@link MessageFormat} pattern: a literal single quote in it is written twice, and an
 * argument that is an identifier (a port, a count written as a name) is passed as a string so it is not grouped
 * ({@code 8080}, not {@code 8,080}). A text without arguments is used as written.
 *
 * <p>Wire formats, the admin API, the command line and logs stay English: only what a person reads in the window
 * (and a lesson's narration) comes from here.
 */
public final class Texts {
    private static final String BUNDLE = "i18n.messages";
    /** The languages the window speaks, in the order the language menu lists them. */
    public static final List<Locale> LANGUAGES =
            List.of(Locale.ENGLISH, Locale.SIMPLIFIED_CHINESE, Locale.forLanguageTag("pl"));
    private static final ResourceBundle.Control NO_FALLBACK =
            ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES);

    // English until the window picks its language: the command line and logs stay English
    private static volatile Locale locale = Locale.ENGLISH;
    private static volatile ResourceBundle bundle = load(locale);

    private Texts() {
    }

    /** The supported language closest to {@code wanted}: any Chinese is Simplified Chinese, else English. */
    public static Locale supported(Locale wanted) {
        if (wanted == null) {
            return Locale.ENGLISH;
        }
        return switch (wanted.getLanguage()) {
            case "zh" -> Locale.SIMPLIFIED_CHINESE;
            case "pl" -> LANGUAGES.get(2);
            default -> Locale.ENGLISH;
        };
    }

    /** Uses {@code wanted}'s language (or the closest one supported) from now on; before the window is built. */
    public static void use(Locale wanted) {
        Locale l = supported(wanted);
        bundle = load(l);
        locale = l;
    }

    public static Locale locale() {
        return locale;
    }

    /** {@code en}, {@code zh} or {@code pl}: the key of a lesson's text in this language. */
    public static String language() {
        return locale.getLanguage();
    }

    /** The bundle FXML files read their {@code %key} texts from. */
    public static ResourceBundle bundle() {
        return bundle;
    }

    /** The text of {@code key}; the key itself when a bundle lacks it (a test fails on every such key). */
    public static String t(String key) {
        try {
            return bundle.getString(key);
        } catch (MissingResourceException e) {
            return key;
        }
    }

    /** The text of {@code key} with {@code args} put in its {@code {0}}, {@code {1}}, ... */
    public static String t(String key, Object... args) {
        if (args.length == 0) {
            return t(key);
        }
        return new MessageFormat(t(key), locale).format(args);
    }

    /**
     * A status word as the window shows it: {@code word("state", "DRAINING")} is the text of {@code state.draining}
     * (排空中, opróżnianie). The value itself (the wire's, the engine's) never changes; one the bundle does not know
     * is shown as it is.
     */
    public static String word(String group, String value) {
        if (value == null) {
            return "";
        }
        String key = group + "." + value.toLowerCase(Locale.ROOT);
        String text = t(key);
        return text.equals(key) ? value : text;
    }

    /** How a language names itself, for the language menu: English, 简体中文, Polski. */
    public static String nativeName(Locale language) {
        return switch (supported(language).getLanguage()) {
            case "zh" -> "简体中文";
            case "pl" -> "Polski";
            default -> "English";
        };
    }

    private static ResourceBundle load(Locale l) {
        return ResourceBundle.getBundle(BUNDLE, l, Texts.class.getClassLoader(), NO_FALLBACK);
    }
}
