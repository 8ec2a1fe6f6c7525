package dev.fulcrum.ui.backends;

import static dev.fulcrum.testkit.RunningFulcrum.demo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.config.BreakerConfig;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.engine.strategy.StrategyDescriptor;
import dev.fulcrum.engine.strategy.StrategyOption;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.ui.CutText;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.WindowHarness;
import dev.fulcrum.ui.strategy.StrategyForm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ResourceBundle;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The pool's views (Backends, Ring, Breakers, Strategy) in Chinese and in Polish: their headers, status words and
 * strategy sentences come from the bundles, and at 1280 x 800 no text of theirs is cut. English, the descriptors'
 * own language, is what the bundles hold for the built-in strategies.
 */
@Timeout(120)
class PoolViewsLanguageTest {
    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @Test
    void theViewsSpeakChineseAndNothingIsCut(FxRobot robot) {
        inLanguage(Locale.SIMPLIFIED_CHINESE, robot, "处理中", "正常", "闭合", "移除一个后端");
    }

    @Test
    void theViewsSpeakPolishAndNothingIsCut(FxRobot robot) {
        inLanguage(Locale.forLanguageTag("pl"), robot, "W toku", "DZIAŁA", "ZAMKNIĘTY", "Usuń backend");
    }

    @Test
    void theEnglishBundleWordsEachBuiltInStrategyAsItsDescriptorDoes() {
        // the engine's descriptors are the English (the admin API and the command line print them); the bundle copies
        // them for the window, and a copy that drifted would make the English window say something else
        ResourceBundle en = Texts.bundle(); // English: the tests run in it
        List<String> drifted = new ArrayList<>();
        for (String type : StrategySpec.TYPES) {
            StrategyDescriptor d = Strategies.descriptor(type);
            same(en, "strategy." + type + ".title", d.title(), drifted);
            same(en, "strategy." + type + ".sentence", d.sentence(), drifted);
            for (StrategyOption o : d.options()) {
                same(en, "strategy." + type + "." + o.name() + ".label", o.label(), drifted);
                same(en, "strategy." + type + "." + o.name() + ".help", o.hint(), drifted);
                if (o.phrase() != null) {
                    String phrase = en.getString("strategy." + type + "." + o.name() + ".phrase");
                    if (!phrase.replace("{0}", "V").equals(String.format(Locale.ROOT, o.phrase(), "V"))) {
                        drifted.add(type + "." + o.name() + ".phrase: " + phrase + " / " + o.phrase());
                    }
                }
            }
        }
        assertThat(drifted).isEmpty();
    }

    @Test
    void aStrategyTheBundlesDoNotKnowIsShownInItsDescriptorsWords() {
        Texts.use(Locale.SIMPLIFIED_CHINESE);
        try {
            // the bundle's Chinese for a built-in strategy, and the descriptor's English for a key no bundle has
            assertThat(StrategyForm.NAMES.get(StrategySpec.CONSISTENT_HASH)).isEqualTo("一致性哈希");
            assertThat(StrategyForm.describe(Map.of("type", StrategySpec.CONSISTENT_HASH, "key", "path",
                    "virtualNodes", 160))).isEqualTo("一致性哈希（按路径），每个后端 160 个虚拟节点");
            StrategyOption plugin = StrategyOption.integer("slots", 4, v -> null, "Slots", "how many slots",
                    "%s slots");
            assertThat(StrategyForm.label("plugin-strategy", plugin)).isEqualTo("Slots");
            assertThat(StrategyForm.help("plugin-strategy", plugin)).isEqualTo("how many slots");
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }

    @Test
    void theAddDialogsChecksSpeakPolishAndKeepTheFieldsConfigNames() {
        Texts.use(Locale.forLanguageTag("pl"));
        try {
            // the field as the config names it and an ASCII colon (the dialog reads the field from them), the words
            // around the value in Polish
            assertThat(BackendForm.problems("a", "", "lots", java.util.Set.of("a"))).containsExactly(
                    "id: już istnieje (podano: a)",
                    "url: wymagany, np. http://127.0.0.1:9001 (podano: nic)",
                    "weight: musi być liczbą całkowitą od 0 do 1000 (podano: lots)");
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }

    private static void same(ResourceBundle en, String key, String descriptor, List<String> drifted) {
        if (!en.containsKey(key) || !en.getString(key).equals(descriptor)) {
            drifted.add(key + ": " + (en.containsKey(key) ? en.getString(key) : "missing") + " / " + descriptor);
        }
    }

    /**
     * Opens the window in {@code language} on a hashing pool of three demo backends, and checks each of the four
     * views: the texts given appear (the In flight column's header, a backend's state, a breaker's state, the what-if's
     * first choice), the strategy's sentence is the bundle's, and nothing is cut, for every strategy the form offers.
     */
    private void inLanguage(Locale language, FxRobot robot, String inFlight, String up, String closed, String remove) {
        Texts.use(language);
        try {
            BreakerConfig breaker = new BreakerConfig(true, 5, 5, 50, 2000, 100, 60_000, 1);
            RunningFulcrum fulcrum = RunningFulcrum.wholeApp(RunningFulcrum.demoConfig(
                    StrategySpec.of(StrategySpec.CONSISTENT_HASH), breaker,
                    List.of(demo("demo-a", 1, 0, 0), demo("demo-b", 2, 0, 0), demo("demo-c", 1, 0, 0)))).start();
            MainWindow window = fx.open(fulcrum);
            List<String> cut = new ArrayList<>();

            // Backends: the column header and the state word in the language
            fx.waitFor("#row-demo-a");
            TableView<?> table = fx.lookup("#backendsTable", TableView.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> upCells(table)).size() == 3);
            assertThat(fx.onFx(() -> table.getColumns().stream().map(c -> c.getText()).toList())).contains(inFlight);
            assertThat(fx.onFx(() -> upCells(table))).containsOnly(up);
            cut.addAll(cutOn(window, "Backends"));

            // Ring: the ring drawn, its legend, and the what-if's choices in words
            fx.onFx(() -> window.controller().select("Ring"));
            fx.waitFor("#legend-demo-b");
            assertThat(fx.onFx(() -> robot.lookup("#whatIfMode").queryAs(ChoiceBox.class).getConverter()
                    .toString(robot.lookup("#whatIfMode").queryAs(ChoiceBox.class).getValue()))).isEqualTo(remove);
            assertThat(fx.text("#legendTitle"))
                    .isEqualTo(Texts.t("ring.share.ring"));
            cut.addAll(cutOn(window, "Ring"));

            // Breakers: a card's state word
            fx.onFx(() -> window.controller().select("Breakers"));
            fx.waitFor("#breakerState-demo-a");
            fx.until(() ->
                    closed.equals(robot.lookup("#breakerState-demo-a").queryAs(Label.class).getText()));
            cut.addAll(cutOn(window, "Breakers"));

            // Strategy: the pool's strategy described, its sentence, and every strategy's form whole
            fx.onFx(() -> window.controller().select("Strategy"));
            Label explanation = (Label) fx.waitFor("#explanation");
            fx.until(() -> !explanation.getText().isEmpty());
            assertThat(fx.onFx(explanation::getText)).isEqualTo(Texts.t("strategy.consistent-hash.sentence"))
                    .isNotEqualTo(Strategies.descriptor(StrategySpec.CONSISTENT_HASH).sentence());
            assertThat(fx.text("#currentLabel"))
                    .contains(Texts.t("strategy.consistent-hash.title"));
            @SuppressWarnings("unchecked")
            ComboBox<String> types = fx.lookup("#strategyType", ComboBox.class);
            for (String type : StrategySpec.TYPES) {
                fx.onFx(() -> types.setValue(type));
                assertThat(fx.onFx(explanation::getText)).as(type).isEqualTo(Texts.t("strategy." + type + ".sentence"));
                cut.addAll(cutOn(window, "Strategy (" + type + ")"));
            }
            assertThat(cut).as("texts cut in " + language).isEmpty();
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }

    /** The texts of the state cells the table colours as UP. */
    private static List<String> upCells(TableView<?> table) {
        return table.lookupAll(".state-UP").stream().filter(n -> n instanceof TableCell<?, ?>)
                .map(n -> ((TableCell<?, ?>) n).getText()).toList();
    }

    private List<String> cutOn(MainWindow window, String tab) {
        return fx.onFx(() -> {
            window.scene().getRoot().applyCss();
            window.scene().getRoot().layout();
            return CutText.cut(window.scene().getRoot(), tab);
        });
    }
}
