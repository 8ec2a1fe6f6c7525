package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.testkit.RunningFulcrum;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.prefs.Preferences;
import javafx.scene.Parent;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import org.controlsfx.control.StatusBar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The window in Chinese and in Polish at 1280 x 800: its tabs and status bar in that language, and nothing cut on the
 * Live, Load, Health, Events and Demo faults tabs, whose longer texts (Polish runs about a third longer than English)
 * must still fit. And the toolbar's language box: picking Polski remembers it in the window's preferences.
 */
@Timeout(300)
class LanguageWindowTest {
    /** The views whose texts this window's frame and its core views carry, by their English names. */
    static final List<String> VIEWS = List.of("Live", "Load", "Health", "Events", "Demo faults");

    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @Test
    void inChineseTheTabsAndStatusBarAreChineseAndNothingIsCut(FxRobot robot) {
        Map<String, String> tabs = new LinkedHashMap<>();
        tabs.put("Live", "实时");
        tabs.put("Backends", "后端");
        tabs.put("Ring", "哈希环");
        tabs.put("Load", "负载");
        tabs.put("Breakers", "熔断器");
        tabs.put("Health", "健康检查");
        tabs.put("Strategy", "策略");
        tabs.put("Events", "事件");
        tabs.put("Demo faults", "故障演示");
        inLanguage(Locale.SIMPLIFIED_CHINESE, tabs, "代理 ", "次/秒", "错误 ");
    }

    @Test
    void inPolishTheTabsAndStatusBarArePolishAndNothingIsCut(FxRobot robot) {
        Map<String, String> tabs = new LinkedHashMap<>();
        tabs.put("Live", "Na żywo");
        tabs.put("Backends", "Backendy");
        tabs.put("Ring", "Pierścień");
        tabs.put("Load", "Obciążenie");
        tabs.put("Breakers", "Wyłączniki");
        tabs.put("Health", "Zdrowie");
        tabs.put("Strategy", "Strategia");
        tabs.put("Events", "Zdarzenia");
        tabs.put("Demo faults", "Awarie demo");
        inLanguage(Locale.forLanguageTag("pl"), tabs, "proxy ", "żąd./s", "błędy ");
    }

    @Test
    void pickingPolskiInTheLanguageBoxIsRemembered(FxRobot robot) {
        try {
            MainWindow window = fx.open(RunningFulcrum.demoApp());
            AtomicReference<Locale> rebuiltIn = new AtomicReference<>();
            fx.onFx(() -> window.onLanguageChange(rebuiltIn::set));
            @SuppressWarnings("unchecked")
            ComboBox<Locale> box = (ComboBox<Locale>) fx.waitFor("#languageBox");
            assertThat(fx.onFx(() -> box.getValue())).isEqualTo(Locale.ENGLISH);
            Locale polish = fx.onFx(() -> box.getItems().stream()
                    .filter(l -> Texts.nativeName(l).equals("Polski")).findFirst().orElseThrow());

            // the box's width and its menu's row height come from the stylesheet, so that JavaFX measures no item
            // before the menu opens: measuring 简体中文 reads 10 MB of the CJK font into a window in another language
            double[] sizes = fx.onFx(() -> new double[] {box.getPrefWidth(), ((javafx.scene.control.ListView<?>)
                    ((javafx.scene.control.skin.ComboBoxListViewSkin<?>) box.getSkin()).getPopupContent())
                    .getFixedCellSize()});
            assertThat(sizes[0]).as("the language box's width").isPositive();
            assertThat(sizes[1]).as("the height of the language menu's rows").isPositive();

            if (fx.onFx(() -> Fonts.chinese()) != null) { // a CJK font is installed (CI installs fonts-noto-cjk)
                // in an English window too, 简体中文 is drawn in a font that has its characters
                fx.onFx(box::show);
                String family = fx.onFx(() -> {
                    javafx.scene.control.skin.ComboBoxListViewSkin<?> skin =
                            (javafx.scene.control.skin.ComboBoxListViewSkin<?>) box.getSkin();
                    for (javafx.scene.Node n : skin.getPopupContent().lookupAll(".list-cell")) {
                        javafx.scene.control.ListCell<?> cell = (javafx.scene.control.ListCell<?>) n;
                        if ("简体中文".equals(cell.getText())) {
                            cell.applyCss();
                            return cell.getFont().getFamily();
                        }
                    }
                    return "no 简体中文 in the menu";
                });
                fx.onFx(box::hide);
                assertThat(family).as("the font 简体中文 is drawn in").isIn(Fonts.CHINESE);
            }
            fx.onFx(() -> box.getSelectionModel().select(polish));

            // the harness's window keeps its preferences in this node (WindowHarness.testPrefs)
            WindowPrefs remembered = new WindowPrefs(Preferences.userRoot().node("dev/fulcrum/test-window"));
            assertThat(remembered.language()).isNotNull();
            assertThat(remembered.language().getLanguage()).isEqualTo("pl");
            assertThat(rebuiltIn.get()).isEqualTo(polish);
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }

    /**
     * Opens the window in {@code language} on the demo engine with some traffic and a weight change (an event), then
     * checks the tab titles, the status bar's line and figures, and looks for cut texts on each of {@link #VIEWS}.
     */
    private void inLanguage(Locale language, Map<String, String> tabTitles, String proxyWord, String rateUnit,
                            String errorsWord) {
        try {
            Texts.use(language);
            RunningFulcrum fulcrum = RunningFulcrum.demoApp();
            MainWindow window = fx.open(fulcrum);
            for (int i = 0; i < 30; i++) {
                fulcrum.proxied("/items/" + i);
            }
            fulcrum.engine().setWeight("demo-a", 4);
            StatusBar bar = (StatusBar) fx.waitFor("#statusBar");
            Label rps = (Label) fx.waitFor("#totalRps");
            Label errors = (Label) fx.waitFor("#totalErrors");
            await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> bar.getText().startsWith(proxyWord)
                    && rps.getText().endsWith(rateUnit) && errors.getText().startsWith(errorsWord)));
            if (language.getLanguage().equals("zh") && fx.onFx(() -> javafx.scene.text.Font.getFamilies().stream()
                    .anyMatch(Fonts.CHINESE::contains))) {
                // JavaFX's own fallback for "System" has no CJK glyphs on Linux: Chinese would be drawn as boxes
                assertThat(fx.onFx(() -> rps.getFont().getFamily())).as("the Chinese window's font")
                        .isIn(Fonts.CHINESE);
                javafx.stage.Stage dialog = fx.onFx(() -> {
                    Label inDialog = new Label("确定");
                    javafx.stage.Stage d = new javafx.stage.Stage();
                    d.setScene(new javafx.scene.Scene(new javafx.scene.layout.StackPane(inDialog)));
                    d.show();
                    return d;
                });
                try {
                    assertThat(fx.onFx(() -> {
                        Label inDialog = (Label) ((javafx.scene.layout.StackPane) dialog.getScene().getRoot())
                                .getChildren().get(0);
                        inDialog.applyCss();
                        return inDialog.getFont().getFamily();
                    })).as("a dialog's font (a window of its own)").isIn(Fonts.CHINESE);
                } finally {
                    fx.onFx(dialog::hide);
                }
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> fx.onFx(() -> shownTabs(window).containsKey("Demo faults")
                    && !window.session().events().isEmpty()));

            Map<String, String> shown = fx.onFx(() -> shownTabs(window));
            for (Map.Entry<String, String> t : tabTitles.entrySet()) {
                assertThat(shown).as("the tab %s", t.getKey()).containsEntry(t.getKey(), t.getValue());
            }

            List<String> cut = new ArrayList<>();
            for (String view : VIEWS) {
                fx.onFx(() -> window.controller().select(view));
                cut.addAll(fx.onFx(() -> {
                    Parent root = window.scene().getRoot();
                    root.applyCss();
                    root.layout();
                    return CutText.cut(root, language + " " + view);
                }));
            }
            assertThat(cut).as("texts cut at 1280x800 in %s", language).isEmpty();
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }

    /** Each tab's English name (its user data) and the title it shows. */
    private static Map<String, String> shownTabs(MainWindow window) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Tab t : window.controller().tabs().getTabs()) {
            out.put(MainController.viewName(t), t.getText());
        }
        return out;
    }
}
