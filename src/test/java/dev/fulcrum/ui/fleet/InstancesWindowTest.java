package dev.fulcrum.ui.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.admin.fleet.EtcdFleetClient;
import dev.fulcrum.admin.fleet.FleetInstance;
import dev.fulcrum.etcd.EtcdAddress;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.testkit.EtcdCluster;
import dev.fulcrum.testkit.EtcdFleetApps;
import dev.fulcrum.ui.CutText;
import dev.fulcrum.ui.MainController;
import dev.fulcrum.ui.MainWindow;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.WindowHarness;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The window attached to an etcd fleet of real Fulcrums: the Instances tab lists them, up and then gone, with the
 * config revision each applied and which refused the latest; the banner says when the config in etcd is refused and
 * when etcd stops answering; in English and in Polish (nothing cut at 1280 x 800) and Chinese.
 */
@Timeout(180)
class InstancesWindowTest {
    private static final Duration WITHIN = Duration.ofSeconds(15);

    @RegisterExtension
    final WindowHarness fx = new WindowHarness();

    @Test
    void theInstancesTabAndTheBannerInEnglish(FxRobot robot) throws Exception {
        run(Locale.ENGLISH, "Instances", "up", "gone", "refused the latest", "was refused",
                "etcd has not answered since");
    }

    @Test
    void theInstancesTabAndTheBannerInPolish(FxRobot robot) throws Exception {
        run(Locale.forLanguageTag("pl"), "Instancje", "działa", "zniknęła", "odrzuciła najnowszą",
                "została odrzucona", "etcd nie odpowiada od");
    }

    @Test
    void theInstancesTabAndTheBannerInChinese(FxRobot robot) throws Exception {
        run(Locale.SIMPLIFIED_CHINESE, "实例", "在线", "已离线", "拒绝了最新配置", "被拒绝", "起无应答");
    }

    @Test
    void aWindowOnOneInstanceSaysItsConfigWasRefused(FxRobot robot) {
        try (EtcdCluster etcd = EtcdCluster.single(); EtcdFleetApps f = EtcdFleetApps.start(etcd, "/one", 1)) {
            fx.attach(f.adminUrl(0), dev.fulcrum.time.Ticker.system());
            Label banner = (Label) fx.waitFor("#configBanner");
            assertThat(fx.onFx(banner::isVisible)).as("nothing to say while the config is applied").isFalse();

            long bad = f.etcd().put("/one/config", "{\"backends\": [{\"id\": \"a\", \"url\": \"ftp://x\"}]}");
            await().atMost(WITHIN).until(() -> fx.onFx(() -> banner.isVisible()
                    && banner.getText().contains("(revision " + bad + ") was refused")
                    && banner.getText().contains("backends[0].url")));
            assertThat(fx.onFx(banner::getText)).endsWith("The proxies keep serving on their last good config.");
        }
    }

    private void run(Locale language, String tabTitle, String upWord, String goneWord, String refusedWord,
                     String bannerRefused, String bannerUnreachable) throws Exception {
        try (EtcdCluster etcd = EtcdCluster.single(); EtcdFleetApps f = EtcdFleetApps.start(etcd, "/shop", 3)) {
            Texts.use(language);
            String url = f.address();
            EtcdFleetClient client = EtcdFleetClient.attach(url, EtcdAddress.parse(url), etcd.options());
            MainWindow window = fx.show(new UiSession(client, client.describe()));
            Tab tab = fx.onFx(() -> window.controller().tabs().getTabs().stream()
                    .filter(t -> "Instances".equals(MainController.viewName(t))).findFirst().orElseThrow());
            assertThat(fx.onFx(tab::getText)).isEqualTo(tabTitle);
            assertThat(fx.onFx(() -> ((javafx.stage.Stage) window.scene().getWindow()).getTitle())).contains(url);
            fx.onFx(() -> window.controller().select("Instances"));
            @SuppressWarnings("unchecked")
            TableView<FleetInstance> table = (TableView<FleetInstance>) fx.waitFor("#instancesTable");
            await().atMost(WITHIN).until(() -> fx.onFx(() -> table.getItems().size() == 3
                    && cells(table, "instanceConfig").stream().allMatch(c -> c.equals(Long.toString(f.configRevision())))));
            assertThat(fx.onFx(() -> cells(table, "instanceState"))).containsOnly(upWord);
            assertThat(fx.onFx(() -> cells(table, "instanceId"))).containsExactlyElementsOf(f.ids());
            assertThat(fx.onFx(() -> cells(table, "instanceProxy"))).contains(f.proxyUrl(0));
            assertThat(fx.onFx(() -> cells(table, "instanceConfig")))
                    .containsOnly(Long.toString(f.configRevision()));

            // one instance is killed: listed as gone
            List<String> ids = f.ids();
            String killed = ids.get(2);
            f.kill(killed);
            await().atMost(WITHIN).until(() -> fx.onFx(() -> cells(table, "instanceState").get(2).equals(goneWord)));
            assertThat(fx.onFx(() -> cells(table, "instanceId"))).containsExactlyElementsOf(ids);

            // a config written by hand that is not valid: the instances refuse it, the banner says which and why
            long bad = f.etcd().put("/shop/config", "{\"backends\": [{\"id\": \"a\", \"url\": \"ftp://x\"}]}");
            await().atMost(WITHIN).until(() -> fx.onFx(() -> cells(table, "instanceConfig").get(0).contains(refusedWord)
                    && cells(table, "instanceConfig").get(1).contains(refusedWord)));
            Label banner = (Label) fx.waitFor("#configBanner");
            await().atMost(WITHIN).until(() -> fx.onFx(() -> banner.isVisible()
                    && banner.getText().contains(Long.toString(bad)) && banner.getText().contains(bannerRefused)
                    && banner.getText().contains("backends[0].url")));
            List<String> cut = fx.onFx(() -> {
                Parent root = window.scene().getRoot();
                root.applyCss();
                root.layout();
                return CutText.cut(root, language + " Instances");
            });
            assertThat(cut).as("texts cut at 1280x800 in %s", language).isEmpty();

            // etcd gone: the banner says since when
            etcd.stopAll();
            await().atMost(WITHIN).until(() -> fx.onFx(() -> banner.getText().contains(bannerUnreachable)));
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }

    /** The texts of column {@code id}, row by row. FX thread. */
    private static List<String> cells(TableView<FleetInstance> table, String id) {
        @SuppressWarnings("unchecked")
        TableColumn<FleetInstance, String> c = (TableColumn<FleetInstance, String>) table.getColumns().stream()
                .filter(x -> id.equals(x.getId())).findFirst().orElseThrow();
        return table.getItems().stream().map(c::getCellData).toList();
    }
}
