package dev.fulcrum.ui.workshop.why;

import dev.fulcrum.engine.DecisionTrace;
import dev.fulcrum.engine.strategy.Placement;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.SimpleRequest;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.ui.UiSession;
import dev.fulcrum.ui.workshop.WorkshopContext;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * "Why this backend": a request described in a form (client IP, method, path, one header, one cookie, one
 * query parameter), and "Step", which asks the live pool where it would go ({@link DecisionTrace#explain}) and
 * shows every step: the key and its hash, where the hash lands (ring point, Maglev slot, weight line), the
 * bounded-loads cap, the members filtered out with their reasons, the candidates with weights and in-flight,
 * power-of-two's draws, the pick, backup and panic.
 *
 * <p>In-process only: it needs the pool itself ({@link WorkshopContext#pools()}); attached to a remote engine
 * the view says so. Stepping moves nothing: round robin and smooth WRR are explained from where the live strategy
 * is, so each Step shows where the next real request would go.
 */
public final class WhyController {
    private final UiSession session;
    private final WorkshopContext ctx;
    private final ReadOnlyObjectWrapper<DecisionTrace> trace = new ReadOnlyObjectWrapper<>(this, "trace");
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper(this, "problem");

    @FXML private TextField whyClientIp;
    @FXML private ComboBox<String> whyMethod;
    @FXML private TextField whyPath;
    @FXML private TextField whyHeaderName;
    @FXML private TextField whyHeaderValue;
    @FXML private TextField whyCookieName;
    @FXML private TextField whyCookieValue;
    @FXML private TextField whyQueryName;
    @FXML private TextField whyQueryValue;
    @FXML private Button whyStep;
    @FXML private Label whyUnavailable;
    @FXML private Label whyProblem;
    @FXML private Label whyPool;
    @FXML private Label whyStrategy;
    @FXML private Label whyKey;
    @FXML private Label whyHash;
    @FXML private Label whyPlacement;
    @FXML private Label whyCap;
    @FXML private Label whyDraws;
    @FXML private Label whyPicked;
    @FXML private Label whyFlags;
    @FXML private Label whySummary;
    @FXML private VBox whyFiltered;
    @FXML private TableView<DecisionTrace.Candidate> whyCandidates;
    @FXML private VBox whyResult;

    public WhyController(UiSession session, WorkshopContext ctx) {
        this.session = session;
        this.ctx = ctx;
    }

    @FXML
    private void initialize() {
        whyMethod.getItems().setAll("GET", "POST", "PUT", "DELETE");
        whyMethod.setValue("GET");
        boolean available = ctx.pools() != null;
        whyUnavailable.setVisible(!available);
        whyUnavailable.setManaged(!available);
        whyUnavailable.setText(Texts.t("why.unavailable"));
        whyStep.setDisable(!available);
        whyResult.setVisible(false);
        whyStep.setOnAction(e -> step());
        column(Texts.t("why.column.backend"), c -> c.backup() ? Texts.t("why.backup", c.backend()) : c.backend(), 140);
        column(Texts.t("why.column.weight"), c -> Integer.toString(c.weight()), 70);
        column(Texts.t("why.column.effective"),
                c -> String.format(Locale.ROOT, "%.2f", c.effectiveWeight() / 100.0), 80);
        column(Texts.t("why.column.inflight"),
                c -> c.inFlight() + (c.maxInFlight() == null ? "" : " / " + c.maxInFlight()), 80);
        column(Texts.t("why.column.breaker"), c -> Texts.word("breaker", c.breaker().name()), 100);
        column(Texts.t("why.column.admitting"),
                c -> Texts.t(c.admitting() ? "why.admitting.yes" : "why.admitting.no"), 130);
        column("EWMA", c -> c.ewmaMs() == null ? "–" : String.format(Locale.ROOT, "%.1f ms", c.ewmaMs()), 90);
        whyCandidates.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        whyCandidates.setPlaceholder(new Label(Texts.t("why.nocandidates")));
    }

    private void column(String title, java.util.function.Function<DecisionTrace.Candidate, String> text, double width) {
        TableColumn<DecisionTrace.Candidate, String> c = new TableColumn<>(title);
        c.setCellValueFactory(d -> new ReadOnlyStringWrapper(text.apply(d.getValue())));
        c.setPrefWidth(width);
        c.setSortable(false);
        whyCandidates.getColumns().add(c);
    }

    /** The request the form describes. */
    public SimpleRequest request() {
        String target = whyPath.getText().isBlank() ? "/" : whyPath.getText().trim();
        Map<String, String> headers = pair(whyHeaderName, whyHeaderValue);
        Map<String, String> cookies = pair(whyCookieName, whyCookieValue);
        Map<String, String> query = pair(whyQueryName, whyQueryValue);
        int q = target.indexOf('?');
        if (q >= 0) {
            for (String p : target.substring(q + 1).split("&")) {
                int eq = p.indexOf('=');
                String name = decode(eq < 0 ? p : p.substring(0, eq));
                if (!name.isEmpty()) {
                    query.putIfAbsent(name, eq < 0 ? "" : decode(p.substring(eq + 1)));
                }
            }
            target = target.substring(0, q);
        }
        return new SimpleRequest(dev.fulcrum.net.IpText.canonical(whyClientIp.getText().trim()), whyMethod.getValue(), path(target), headers, cookies, query);
    }

    /**
     * The path as the proxy routes and hashes it: percent-decoded (an encoded slash stays encoded, as Undertow
     * leaves it) and with slash runs merged; the query goes to the query parameters.
     */
    static String path(String raw) {
        String keepSlashes = raw.replace("%2F", "%252F").replace("%2f", "%252f");
        String decoded;
        try {
            decoded = java.net.URLDecoder.decode(keepSlashes.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException badEscape) {
            decoded = raw; // the proxy refuses such a request; shown as typed
        }
        return dev.fulcrum.engine.Router.mergeSlashes(decoded);
    }

    private static String decode(String s) {
        try {
            return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException badEscape) {
            return s;
        }
    }

    private static Map<String, String> pair(TextField name, TextField value) {
        Map<String, String> m = new HashMap<>();
        if (!name.getText().isBlank()) {
            m.put(name.getText().trim(), value.getText());
        }
        return m;
    }

    /** Explains where the form's request would go in the selected pool (on the session's worker). */
    public void step() {
        if (ctx.pools() == null) {
            return;
        }
        String poolName = session.pool();
        SimpleRequest request = request();
        session.call(Texts.t("why.call"), () -> {
            Pool pool = ctx.pools().apply(poolName);
            if (pool == null) {
                throw new IllegalArgumentException(Texts.t("why.error.nopool", poolName));
            }
            String sticky = ctx.sticky() == null ? null : ctx.sticky().apply(pool, request);
            return DecisionTrace.explain(pool, request, RandomSource.threadLocal(), sticky);
        }, this::show, msg -> {
            problem.set(msg);
            whyProblem.setText(msg);
        });
    }

    private void show(DecisionTrace t) {
        problem.set(null);
        whyProblem.setText("");
        trace.set(t);
        whyResult.setVisible(true);
        whyPool.setText(t.pool());
        whyStrategy.setText(t.strategy());
        whyKey.setText(t.hashKey() == null ? Texts.t("why.nohash", t.strategy())
                : t.hashKey() + " → \"" + t.key() + "\"");
        whyHash.setText(t.keyHash() == null ? "–" : String.format("0x%016x", t.keyHash()));
        whyPlacement.setText(placement(t.placement()));
        whyCap.setText(t.boundedLoadCap() == null ? "–" : Texts.t("why.cap", t.boundedLoadCap().toString(),
                t.placement() == null ? Texts.t("why.cap.owner") : t.placement().owner()));
        whyDraws.setText(t.draws().stream().reduce((a, b) -> Texts.t("why.draws.then", a, b)).orElse("–"));
        whyPicked.setText(t.picked() == null ? Texts.t("why.picked.nobody") : t.picked());
        whyFlags.setText(Texts.t(t.fromBackup() ? "why.tier.backup" : "why.tier.primary")
                + (t.panic() ? " · " + Texts.t("why.tier.panic") : ""));
        whySummary.setText(summary(t));
        whyFiltered.getChildren().clear();
        if (t.filtered().isEmpty()) {
            whyFiltered.getChildren().add(muted(Texts.t("why.nothingfiltered")));
        }
        for (DecisionTrace.Filtered f : t.filtered()) {
            Label l = new Label(f.backend() + " — " + (f.reasons().isEmpty() ? Texts.t("why.notacandidate")
                    : f.reasons().stream().map(x -> Texts.word("why.reason", x.name()))
                            .collect(Collectors.joining(", "))));
            l.setId("whyFiltered-" + f.backend());
            l.getStyleClass().add("filtered-backend");
            whyFiltered.getChildren().add(l);
        }
        whyCandidates.getItems().setAll(t.candidates());
        whyCandidates.setPrefHeight(Math.min(8, Math.max(1, t.candidates().size())) * 24 + 32);
        whyCandidates.setMinHeight(Region.USE_PREF_SIZE);
    }

    /**
     * The decision in a few sentences, in the window's language: the engine's own {@link DecisionTrace#summary()} is
     * English (the admin API's), so the window says the same from the trace's fields. A request its sticky cookie
     * sends to a backend that can take it goes there without the strategy; the steps below still show what the
     * strategy would do.
     */
    static String summary(DecisionTrace t) {
        String sticky = t.stickyCookie();
        boolean anyPrimaryAdmits = t.candidates().stream().anyMatch(c -> !c.backup() && c.admitting());
        boolean stickyTakes = sticky != null && t.candidates().stream().anyMatch(c -> c.backend().equals(sticky)
                && c.admitting() && (!c.backup() || !anyPrimaryAdmits));
        if (stickyTakes) {
            return Texts.t("why.summary.stickyhit", sticky);
        }
        List<String> parts = new java.util.ArrayList<>();
        Placement p = t.placement();
        if (t.key() != null) {
            String landing = p == null ? "" : switch (p.kind()) {
                case "ring" -> Texts.t("why.summary.ring", hex(p.position()), Long.toString(p.index()),
                        Long.toString(p.size()), p.owner());
                case "maglev" -> Texts.t("why.summary.maglev", Long.toString(p.index()), Long.toString(p.size()),
                        p.owner());
                default -> Texts.t("why.summary.weightline", Long.toString(p.position()), Long.toString(p.size()),
                        p.owner());
            };
            parts.add(Texts.t("why.summary.key", t.key(), hex(t.keyHash())) + landing);
        }
        if (!t.filtered().isEmpty()) {
            parts.add(Texts.t("why.summary.filtered", t.filtered().stream()
                    .map(f -> Texts.t("why.summary.filteredone", f.backend(), f.reasons().stream()
                            .map(x -> Texts.word("why.reason", x.name())).collect(Collectors.joining(", "))))
                    .collect(Collectors.joining(", "))));
        }
        int n = t.candidates().size();
        parts.add(Texts.t(n == 1 ? "why.summary.candidate" : "why.summary.candidates", Integer.toString(n))
                + (t.panic() ? " " + Texts.t("why.summary.panic") : ""));
        if (t.boundedLoadCap() != null) {
            parts.add(Texts.t("why.summary.cap", Texts.t("why.cap", t.boundedLoadCap().toString(),
                    p == null ? Texts.t("why.cap.owner") : p.owner())));
        }
        if (!t.draws().isEmpty()) {
            parts.add(Texts.t("why.summary.drew",
                    t.draws().stream().reduce((a, b) -> Texts.t("why.summary.and", a, b)).orElseThrow()));
        }
        if (!t.scores().isEmpty()) {
            parts.add(Texts.t("why.summary.scored", t.scores().stream().map(x -> x.backend() + " " + score(x.score())
                    + (x.fallback() == null ? "" : " (" + fallback(x.fallback()) + ")")).collect(Collectors.joining(", "))));
        }
        for (String f : t.fallbacks()) {
            parts.add(Texts.t("why.summary.fallback", f));
        }
        if (t.picked() == null) {
            parts.add(Texts.t("why.summary.nobody"));
        } else if (t.fromBackup()) {
            parts.add(Texts.t("why.summary.pickedbackup", t.picked()));
        } else if (p != null && !t.picked().equals(p.owner())) {
            parts.add(Texts.t(t.boundedLoadCap() != null ? "why.summary.pickedovercap" : "why.summary.pickednotowner",
                    t.picked(), p.owner()));
        } else {
            parts.add(Texts.t("why.summary.picked", t.picked()));
        }
        String said = Texts.t("why.summary", t.strategy(),
                parts.stream().reduce((a, b) -> Texts.t("why.summary.then", a, b)).orElseThrow());
        return sticky == null ? said : Texts.t("why.summary.stickymiss", sticky, said);
    }

    /** A score as the engine's summary writes it: up to three decimals, no trailing zeros. */
    private static String score(double score) {
        String s = String.format(Locale.ROOT, "%.3f", score).replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /** Why a stand-in score was used (the engine's fallback names: stale, missing, cold-start), in words. */
    private static String fallback(String name) {
        return switch (name) {
            case "stale" -> Texts.t("why.fallback.stale");
            case "missing" -> Texts.t("why.fallback.missing");
            case "cold-start" -> Texts.t("why.fallback.coldstart");
            default -> Texts.t("why.fallback.other", name);
        };
    }

    private static String hex(Long h) {
        return h == null ? "-" : String.format(Locale.ROOT, "0x%016x", h);
    }

    private static String placement(Placement p) {
        if (p == null) {
            return "–";
        }
        String index = Long.toString(p.index());
        String size = Long.toString(p.size());
        String position = Long.toString(p.position());
        return switch (p.kind()) {
            case "ring" -> Texts.t("why.placement.ring", index, size, String.format("0x%016x", p.position()), p.owner());
            case "maglev" -> Texts.t("why.placement.maglev", position, size, p.owner());
            case "weight-line" -> Texts.t("why.placement.weightline", position, size, p.owner());
            default -> Texts.t("why.placement.other", p.kind(), index, size, p.owner());
        };
    }

    private static Label muted(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("muted");
        return l;
    }

    /** The latest explained decision (FX thread). */
    public ReadOnlyObjectProperty<DecisionTrace> traceProperty() {
        return trace.getReadOnlyProperty();
    }

    /** The latest refusal (unknown pool), or null. */
    public javafx.beans.property.ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    List<String> filteredTexts() {
        return whyFiltered.getChildren().stream().map(n -> ((Label) n).getText()).toList();
    }
}
