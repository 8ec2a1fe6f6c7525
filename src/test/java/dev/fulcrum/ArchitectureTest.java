package dev.fulcrum;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.app.EmbeddedFulcrum;
import dev.fulcrum.app.FulcrumApp;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.demo.DemoBackend;
import dev.fulcrum.discovery.Discovery;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.net.IpText;
import dev.fulcrum.health.HealthChecker;
import dev.fulcrum.lesson.LessonRunner;
import dev.fulcrum.proxy.ProxyServer;
import dev.fulcrum.replay.Recordings;
import dev.fulcrum.requests.RequestStream;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.time.Ticker;
import dev.fulcrum.trust.Pem;
import dev.fulcrum.ui.Gui;
import io.micrometer.core.instrument.MeterRegistry;
import io.undertow.Undertow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Lookup;
import org.xnio.Xnio;
import picocli.CommandLine;

/**
 * The direction of the layers (docs/ARCHITECTURE.md, "Layers"), held on the compiled classes: each package of
 * Fulcrum uses only the packages below it and only the libraries its job needs. The engine is pure Java; the proxy
 * never reaches the admin API; nothing but the window touches JavaFX; the window reaches the app through one type;
 * only the time package reads the system clock. Each rule is also shown to catch a class that breaks it.
 */
@DisplayName("Architecture")
class ArchitectureTest {
    static final String ROOT = "dev.fulcrum";

    /** Each layer, bottom up, with the layers and libraries it may use ({@code dev.fulcrum.} left out). */
    static final Map<String, Set<String>> MAY_USE = new LinkedHashMap<>();
    /** Each library, as a package pattern, with the layers that may use it. */
    static final Map<String, Set<String>> LIBRARY_USERS = new LinkedHashMap<>();

    static {
        MAY_USE.put("time", Set.of());
        MAY_USE.put("rules", Set.of());
        MAY_USE.put("threads", Set.of());
        MAY_USE.put("trust", Set.of());
        MAY_USE.put("requests", Set.of("time", "rules", "threads"));
        MAY_USE.put("net", Set.of());
        MAY_USE.put("i18n", Set.of());
        MAY_USE.put("spi", Set.of());
        MAY_USE.put("engine", Set.of("time", "rules", "spi"));
        MAY_USE.put("config", Set.of("engine", "rules", "time"));
        MAY_USE.put("replay", Set.of("engine", "rules", "time", "config"));
        MAY_USE.put("proxy", Set.of("engine", "rules", "time", "trust", "requests", "net", "threads"));
        MAY_USE.put("health", Set.of("engine", "rules", "time", "net"));
        MAY_USE.put("etcd", Set.of("time", "trust"));
        MAY_USE.put("discovery", Set.of("engine", "rules", "time", "config", "etcd"));
        MAY_USE.put("demo", Set.of("engine", "rules", "time"));
        MAY_USE.put("admin", Set.of("engine", "rules", "time", "config", "proxy", "requests", "net", "etcd"));
        MAY_USE.put("app", Set.of("engine", "rules", "time", "trust", "requests", "config", "proxy", "health",
                "discovery", "demo", "admin", "net", "replay", "spi", "etcd"));
        MAY_USE.put("lesson", Set.of("engine", "rules", "time", "config", "demo", "admin", "app", "replay", "i18n"));
        MAY_USE.put("ui", Set.of("engine", "rules", "time", "trust", "requests", "config", "demo", "admin", "app",
                "lesson", "net", "replay", "i18n"));

        LIBRARY_USERS.put("javafx..", Set.of("ui"));
        LIBRARY_USERS.put("org.controlsfx..", Set.of("ui"));
        LIBRARY_USERS.put("io.undertow..", Set.of("proxy", "admin", "demo"));
        LIBRARY_USERS.put("org.xnio..", Set.of("proxy", "admin", "demo"));
        LIBRARY_USERS.put("com.fasterxml..", Set.of("config", "admin", "demo", "health", "lesson", "replay", "etcd"));
        LIBRARY_USERS.put("picocli..", Set.of("app"));
        LIBRARY_USERS.put("org.bouncycastle..", Set.of("trust"));
        LIBRARY_USERS.put("org.xbill..", Set.of("discovery"));
        LIBRARY_USERS.put("io.micrometer..", Set.of("admin"));
        LIBRARY_USERS.put("io.prometheus..", Set.of("admin"));
    }

    /** A class of each layer and library: the targets of the stand-ins that break each rule. */
    static final Map<String, Class<?>> SAMPLE = Map.ofEntries(
            Map.entry("time", Ticker.class), Map.entry("rules", Limits.class),
            Map.entry("threads", dev.fulcrum.threads.PerThread.class), Map.entry("trust", Pem.class),
            Map.entry("requests", RequestStream.class), Map.entry("net", IpText.class),
            Map.entry("i18n", dev.fulcrum.i18n.Texts.class),
            Map.entry("spi", dev.fulcrum.spi.StrategyProvider.class),
            Map.entry("engine", Engine.class), Map.entry("config", FulcrumConfig.class),
            Map.entry("replay", Recordings.class),
            Map.entry("proxy", ProxyServer.class), Map.entry("health", HealthChecker.class),
            Map.entry("etcd", dev.fulcrum.etcd.EtcdClient.class), Map.entry("discovery", Discovery.class),
            Map.entry("demo", DemoBackend.class),
            Map.entry("admin", EngineClient.class), Map.entry("app", FulcrumApp.class),
            Map.entry("lesson", LessonRunner.class), Map.entry("ui", Gui.class),
            Map.entry("javafx..", javafx.scene.Node.class),
            Map.entry("org.controlsfx..", org.controlsfx.control.Notifications.class),
            Map.entry("io.undertow..", Undertow.class), Map.entry("org.xnio..", Xnio.class),
            Map.entry("com.fasterxml..", ObjectMapper.class), Map.entry("picocli..", CommandLine.class),
            Map.entry("org.bouncycastle..", org.bouncycastle.asn1.x500.X500Name.class),
            Map.entry("org.xbill..", Lookup.class), Map.entry("io.micrometer..", MeterRegistry.class),
            Map.entry("io.prometheus..", io.prometheus.metrics.model.registry.PrometheusRegistry.class));

    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages(ROOT);

    /** What {@code layer} must not use: every other layer not below it, the root package, and the libraries not its. */
    static List<String> forbidden(String layer) {
        List<String> out = new ArrayList<>();
        for (String other : MAY_USE.keySet()) {
            if (!other.equals(layer) && !MAY_USE.get(layer).contains(other)) {
                out.add(ROOT + "." + other + "..");
            }
        }
        out.add(ROOT);
        LIBRARY_USERS.forEach((lib, users) -> {
            if (!users.contains(layer)) {
                out.add(lib);
            }
        });
        return out;
    }

    /** The rule of {@code layer}, over classes of {@code subject} (the layer's own package, or a stand-in's). */
    static ArchRule rule(String layer, String subject) {
        return noClasses().that().resideInAPackage(subject)
                .should().dependOnClassesThat().resideInAnyPackage(forbidden(layer).toArray(String[]::new))
                .because(layer + " may use only " + (MAY_USE.get(layer).isEmpty() ? "java.*"
                        : new TreeSet<>(MAY_USE.get(layer))) + " of Fulcrum (docs/ARCHITECTURE.md)");
    }

    static ArchRule uiThroughOneEntryPoint(String subject) {
        return noClasses().that().resideInAPackage(subject)
                .should().dependOnClassesThat(resideInAPackage(ROOT + ".app..")
                        .and(not(equivalentTo(EmbeddedFulcrum.class))))
                .because("EmbeddedFulcrum is the window's one entry point into the app");
    }

    /**
     * The engine's rooms (docs/ARCHITECTURE.md and each room's package-info): which other rooms each may use. The
     * breaker stands alone; the strategies and the hashing structures share the candidates; the pool and its control
     * (the root package) build strategies but never use the simulator, which sits above them all.
     */
    static final Map<String, Set<String>> ENGINE_ROOMS = Map.of(
            "engine.breaker", Set.of(),
            "engine.hash", Set.of("engine", "engine.strategy"),
            "engine.strategy", Set.of("engine", "engine.hash", "engine.breaker", "engine.strategy.score"),
            // the formula language: plain Java; it sits inside engine.strategy's room, so it may name that room
            "engine.strategy.score", Set.of("engine.strategy"),
            "engine", Set.of("engine.strategy", "engine.hash", "engine.breaker", "engine.routing"),
            "engine.routing", Set.of("engine", "engine.strategy", "engine.hash"),
            "engine.sim", Set.of("engine", "engine.strategy", "engine.hash", "engine.breaker"));

    /** A room's own classes: the root package alone for {@code engine}, else the room and below. */
    private static String room(String name) {
        return ROOT + "." + name + (name.equals("engine") ? "" : "..");
    }

    @Test
    void eachEngineRoomUsesOnlyTheRoomsItsPackageInfoNames() {
        for (Map.Entry<String, Set<String>> e : ENGINE_ROOMS.entrySet()) {
            List<String> others = ENGINE_ROOMS.keySet().stream()
                    .filter(r -> !r.equals(e.getKey()) && !e.getValue().contains(r)).map(ArchitectureTest::room)
                    .toList();
            assertThat(MAIN.that(resideInAPackage(room(e.getKey())))).as(e.getKey()).isNotEmpty();
            noClasses().that().resideInAPackage(room(e.getKey()))
                    .should().dependOnClassesThat().resideInAnyPackage(others.toArray(String[]::new))
                    .because(e.getKey() + " may use only " + new TreeSet<>(e.getValue()) + " of the engine")
                    .check(MAIN);
        }
        assertThat(MAIN.stream().map(JavaClass::getPackageName).filter(p -> p.startsWith(ROOT + ".engine"))
                .map(p -> p.substring(ROOT.length() + 1)).distinct())
                .as("every engine package is a room").allMatch(ENGINE_ROOMS::containsKey);
    }

    @Test
    void noViewOfTheWindowUsesAnotherView() {
        Set<String> views = new TreeSet<>();
        for (JavaClass c : MAIN.that(resideInAPackage(ROOT + ".ui.."))) {
            String rest = c.getPackageName().substring((ROOT + ".ui").length());
            if (!rest.isEmpty()) {
                views.add(rest.substring(1).split("\\.")[0]);
            }
        }
        assertThat(views).contains("strategy", "events", "live", "ring");
        for (String view : views) {
            List<String> others = views.stream().filter(v -> !v.equals(view)).map(v -> ROOT + ".ui." + v + "..")
                    .toList();
            noClasses().that().resideInAPackage(ROOT + ".ui." + view + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(others.toArray(String[]::new))
                    .because("a view's package-info allows the ui's shared classes, never another view")
                    .check(MAIN);
        }
    }

    @Test
    void everyPackageBelongsToALayer() {
        Set<String> layers = new TreeSet<>();
        for (JavaClass c : MAIN) {
            String p = c.getPackageName();
            if (p.equals(ROOT)) {
                continue;
            }
            layers.add(p.substring(ROOT.length() + 1).split("\\.")[0]);
        }
        assertThat(MAY_USE.keySet()).containsExactlyInAnyOrderElementsOf(layers);
    }

    @Test
    void eachLayerUsesOnlyTheLayersBelowItAndItsOwnLibraries() {
        for (String layer : MAY_USE.keySet()) {
            assertThat(MAIN.that(resideInAPackage(ROOT + "." + layer + ".."))).as(layer).isNotEmpty();
            rule(layer, ROOT + "." + layer + "..").check(MAIN);
        }
    }

    @Test
    void theUiUsesTheAppThroughEmbeddedFulcrumOnly() {
        uiThroughOneEntryPoint(ROOT + ".ui..").check(MAIN);
    }

    @Test
    void theLessonsUseTheAppThroughEmbeddedFulcrumOnly() {
        uiThroughOneEntryPoint(ROOT + ".lesson..").check(MAIN);
    }

    @Test
    void onlyTheMainClassSitsAboveTheUiAndTheApp() {
        assertThat(MAIN.that(resideInAnyPackage(ROOT))).extracting(JavaClass::getName)
                .allMatch(n -> n.equals(ROOT + ".Main") || n.startsWith(ROOT + ".Main$")
                        || n.equals(ROOT + ".package-info"));
    }

    @Test
    void eachRuleCatchesAClassThatBreaksIt() {
        JavaClasses standIns = new ClassFileImporter().importClasses(BreaksEveryRule.class);
        List<String> missed = new ArrayList<>();
        for (String layer : MAY_USE.keySet()) {
            for (String target : forbidden(layer)) {
                if (target.equals(ROOT)) {
                    continue; // dev.fulcrum.Main: the stand-in lives in that very package
                }
                Class<?> sample = SAMPLE.get(target.replace(ROOT + ".", "").replace("..", ""));
                sample = sample != null ? sample : SAMPLE.get(target);
                EvaluationResult r = rule(layer, ROOT).evaluate(standIns);
                String name = sample.getName();
                if (!r.hasViolation() || r.getFailureReport().getDetails().stream().noneMatch(d -> d.contains(name))) {
                    missed.add(layer + " -> " + target);
                }
            }
        }
        assertThat(missed).as("forbidden uses a rule did not report").isEmpty();
    }

    @Test
    void theUiRuleCatchesAWayIntoTheAppOtherThanTheEntryPoint() {
        EvaluationResult r = uiThroughOneEntryPoint(ROOT).evaluate(new ClassFileImporter()
                .importClasses(BreaksEveryRule.class));
        assertThat(r.getFailureReport().getDetails()).anyMatch(d -> d.contains(FulcrumApp.class.getName()))
                .noneMatch(d -> d.contains(EmbeddedFulcrum.class.getName() + ">"));
    }

    /** A call of {@code System.nanoTime} or {@code System.currentTimeMillis}, or a reference to either. */
    static final DescribedPredicate<JavaAccess<?>> READS_THE_SYSTEM_CLOCK = JavaAccess.Predicates.target(
            AccessTarget.Predicates.declaredIn(System.class)
                    .and(HasName.Predicates.nameMatching("nanoTime|currentTimeMillis")))
            .as("read the system clock (System.nanoTime, System.currentTimeMillis)");

    /**
     * Time is injected (design rule 3): only the time package reads the system clock. Everything else is given a
     * Ticker, or, where it cannot take one (the proxy's request path), calls {@code time/SystemClock}.
     */
    static ArchRule onlyTimeReadsTheSystemClock(String subject) {
        return noClasses().that().resideInAPackage(subject).and().resideOutsideOfPackage(ROOT + ".time..")
                .should().accessTargetWhere(READS_THE_SYSTEM_CLOCK)
                .because("time is injected: a Ticker, or time/SystemClock on the proxy's request path "
                        + "(docs/ARCHITECTURE.md, design rule 3)");
    }

    @Test
    void onlyTheTimePackageReadsTheSystemClock() {
        onlyTimeReadsTheSystemClock(ROOT + "..").check(MAIN);
    }

    @Test
    void theClockRuleCatchesACallAndAReferenceToTheSystemClock() {
        EvaluationResult r = onlyTimeReadsTheSystemClock(ROOT + "..")
                .evaluate(new ClassFileImporter().importClasses(ReadsTheSystemClock.class));
        assertThat(r.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("System.nanoTime()") && d.contains("ReadsTheSystemClock.now()"))
                .anyMatch(d -> d.contains("System.currentTimeMillis()") && d.contains("ReadsTheSystemClock.now()"))
                .anyMatch(d -> d.contains("System.nanoTime()") && d.contains("ReadsTheSystemClock.clock()"));
    }

    /** Stands in for a class outside the time package that reads the system clock: by a call, and a reference. */
    @SuppressWarnings("unused")
    static final class ReadsTheSystemClock {
        long now() {
            return System.nanoTime() + System.currentTimeMillis();
        }

        java.util.function.LongSupplier clock() {
            return System::nanoTime;
        }
    }

    /** Stands in for a class that uses one class of every layer and library. */
    @SuppressWarnings("unused")
    static final class BreaksEveryRule {
        Object[] uses() {
            return new Object[] {Ticker.class, Limits.class, Pem.class, RequestStream.class, IpText.class,
                    dev.fulcrum.i18n.Texts.class, dev.fulcrum.threads.PerThread.class,
                    dev.fulcrum.spi.StrategyProvider.class, Engine.class,
                    FulcrumConfig.class, Recordings.class,
                    ProxyServer.class, HealthChecker.class, dev.fulcrum.etcd.EtcdClient.class, Discovery.class,
                    DemoBackend.class, EngineClient.class,
                    FulcrumApp.class, LessonRunner.class, Gui.class, javafx.scene.Node.class,
                    org.controlsfx.control.Notifications.class,
                    Undertow.class, Xnio.class, ObjectMapper.class, CommandLine.class,
                    org.bouncycastle.asn1.x500.X500Name.class, Lookup.class, MeterRegistry.class,
                    io.prometheus.metrics.model.registry.PrometheusRegistry.class};
        }

        EmbeddedFulcrum entry(EmbeddedFulcrum e) {
            return e;
        }
    }
}
