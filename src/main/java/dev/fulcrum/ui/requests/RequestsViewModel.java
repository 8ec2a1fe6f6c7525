package dev.fulcrum.ui.requests;

import dev.fulcrum.i18n.Texts;
import dev.fulcrum.requests.RequestSample;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Requests tab's list, plain Java: the newest {@link #MAX_ROWS} requests the source delivered, newest on top, under
 * the WebSockets open now; filtered by text, status class, backend and pool; pausable. Used on the FX thread only.
 *
 * <p>Paused, the rows stop moving: what arrives is held (the newest {@link #MAX_ROWS}) and counted, the summary says
 * {@code paused, 1,234 new}, and resuming puts the held requests on top. Filtering never drops anything: a filter
 * change shows the kept requests that pass it.
 *
 * <p>Example: 6,000 requests arrive; the newest 5,000 are kept and the summary reads {@code 5,000 requests (the newest
 * 5,000 of 6,000)}; filtered to 5xx with 12 passing, {@code 12 of 5,000 requests (the newest 5,000 of 6,000)}.
 */
public final class RequestsViewModel {
    /** Requests kept: a person scrolls back minutes, not hours (a guess); the HAR export takes what is kept. */
    public static final int MAX_ROWS = 5_000;
    // the filters' "all" choices are values, not texts: the boxes show them through choiceText
    public static final String ALL_BACKENDS = "all backends";
    public static final String ALL_POOLS = "all pools";
    public static final String ALL_ROUTES = "all routes";
    public static final String ALL_ARMS = "all arms";
    public static final String ALL_CLASSES = "all classes";

    /** The mirrored filter's choices: a mirrored copy is never one of the clients' requests. */
    public enum Mirrored {
        ALL("requests.filter.with_mirrored"), CLIENT("requests.filter.client_only"),
        MIRRORED("requests.filter.mirrored_only");

        private final String key;

        Mirrored(String key) {
            this.key = key;
        }

        boolean matches(RequestSample r) {
            boolean copy = r.routing() != null && r.routing().mirror();
            return this == ALL || (this == MIRRORED) == copy;
        }

        @Override
        public String toString() {
            return Texts.t(key);
        }
    }

    /**
     * How a route, arm, class, backend or pool filter's choice reads: its "all" choice in the window's language,
     * {@code route 0} as {@code 路由 0}; a name as it is.
     */
    public static String choiceText(String choice) {
        if (choice == null) {
            return "";
        }
        return switch (choice) {
            case ALL_BACKENDS -> Texts.t("requests.filter.all_backends");
            case ALL_POOLS -> Texts.t("requests.filter.all_pools");
            case ALL_ROUTES -> Texts.t("requests.filter.all_routes");
            case ALL_ARMS -> Texts.t("requests.filter.all_arms");
            case ALL_CLASSES -> Texts.t("requests.filter.all_classes");
            default -> choice.matches("route \\d+") ? Texts.t("requests.filter.route", choice.substring(6)) : choice;
        };
    }

    /** The route filter's choice for route {@code index}: {@code route 0}. */
    public static String routeChoice(int index) {
        return "route " + index;
    }

    /** The status filter's choices. */
    public enum StatusClass {
        ALL("requests.filter.all_statuses", 0, 999),
        SWITCHED("requests.filter.websocket", 101, 101),
        SUCCESS("2xx", 200, 299),
        REDIRECT("3xx", 300, 399),
        CLIENT_ERROR("4xx", 400, 499),
        CLIENT_LEFT("requests.filter.client_left", 499, 499),
        SERVER_ERROR("5xx", 500, 599);

        private final String label;
        private final int from;
        private final int to;

        StatusClass(String label, int from, int to) {
            this.label = label;
            this.from = from;
            this.to = to;
        }

        public boolean matches(int status) {
            return status >= from && status <= to;
        }

        /** A status class is shown as it is ({@code 2xx}); the others through their key. */
        @Override
        public String toString() {
            return label.startsWith("requests.") ? Texts.t(label) : label;
        }
    }

    /** One row: a request, or a WebSocket still open ({@code open}), as its record would read if it closed now. */
    public record Row(RequestSample request, boolean open) {
    }

    private final ArrayDeque<RequestSample> kept = new ArrayDeque<>();
    private final Set<String> keptIds = new HashSet<>();
    private final ArrayDeque<RequestSample> held = new ArrayDeque<>();
    private List<RequestSample> open = List.of();
    private List<RequestSample> openWhilePaused;
    /** {@link #rows} begins with this many open WebSockets. */
    private int openShown;
    /** Requests let go past the bound (kept or held), for "the newest 5,000 of 6,000". */
    private long evicted;
    private long unsampled;
    private long newWhilePaused;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObservableList<Row> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final ObservableList<String> backends = FXCollections.observableArrayList(ALL_BACKENDS);
    private final ObservableList<String> pools = FXCollections.observableArrayList(ALL_POOLS);
    private final StringProperty text = new SimpleStringProperty(this, "text", "");
    private final ObjectProperty<StatusClass> status = new SimpleObjectProperty<>(this, "status", StatusClass.ALL);
    private final StringProperty backend = new SimpleStringProperty(this, "backend", ALL_BACKENDS);
    private final StringProperty pool = new SimpleStringProperty(this, "pool", ALL_POOLS);
    private final ObservableList<String> routes = FXCollections.observableArrayList(ALL_ROUTES);
    private final ObservableList<String> arms = FXCollections.observableArrayList(ALL_ARMS);
    private final ObservableList<String> classes = FXCollections.observableArrayList(ALL_CLASSES);
    private final StringProperty route = new SimpleStringProperty(this, "route", ALL_ROUTES);
    private final StringProperty arm = new SimpleStringProperty(this, "arm", ALL_ARMS);
    private final StringProperty routeClass = new SimpleStringProperty(this, "routeClass", ALL_CLASSES);
    private final ObjectProperty<Mirrored> mirrored = new SimpleObjectProperty<>(this, "mirrored", Mirrored.ALL);
    /** Whether a routed request (a route, an arm, a class, a mirrored copy) has been seen: the routing filters show. */
    private final BooleanProperty routed = new SimpleBooleanProperty(this, "routed", false);
    private final BooleanProperty paused = new SimpleBooleanProperty(this, "paused", false);
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(this, "summary",
            Texts.t("requests.summary.none"));

    public RequestsViewModel() {
        text.addListener((o, a, b) -> refilter());
        status.addListener((o, a, b) -> refilter());
        backend.addListener((o, a, b) -> refilter());
        pool.addListener((o, a, b) -> refilter());
        route.addListener((o, a, b) -> refilter());
        arm.addListener((o, a, b) -> refilter());
        routeClass.addListener((o, a, b) -> refilter());
        mirrored.addListener((o, a, b) -> refilter());
        paused.addListener((o, a, p) -> {
            if (!p) {
                resume();
            }
            summarise();
        });
    }

    /**
     * Requests that arrived (in any order) and how many the source could not deliver since the last call: on top,
     * newest first, or held while paused.
     */
    public void add(List<RequestSample> batch, long dropped) {
        unsampled += dropped;
        if (batch.isEmpty()) {
            summarise();
            return;
        }
        List<RequestSample> newest = newestFirst(batch);
        for (RequestSample r : newest) {
            know(r);
        }
        if (paused.get()) {
            newWhilePaused += newest.size();
            for (int i = newest.size() - 1; i >= 0; i--) {
                held.addFirst(newest.get(i));
            }
            while (held.size() > MAX_ROWS) {
                held.removeLast();
                evicted++;
            }
        } else {
            insertOnTop(newest);
        }
        summarise();
    }

    /**
     * The requests completed before the view opened, newest first: below what is there (they are older), except those
     * already listed, as long as there is room.
     */
    public void seed(List<RequestSample> newestFirst) {
        for (RequestSample r : newestFirst) {
            if (kept.size() >= MAX_ROWS) {
                break;
            }
            if (keptIds.add(r.id())) {
                know(r);
                kept.addLast(r);
                if (matches(r)) {
                    rows.add(new Row(r, false));
                }
            }
        }
        summarise();
    }

    /** The WebSockets open now (newest first), shown above the requests; held while paused. */
    public void setOpen(List<RequestSample> now) {
        if (paused.get()) {
            openWhilePaused = now;
            return;
        }
        open = List.copyOf(now);
        List<Row> shown = new ArrayList<>();
        for (RequestSample r : open) {
            know(r);
            if (matches(r)) {
                shown.add(new Row(r, true));
            }
        }
        rows.remove(0, openShown);
        rows.addAll(0, shown);
        openShown = shown.size();
        summarise();
    }

    /** Backends and pools the engine has, for the filters' choices beside those seen in requests. */
    public void knownNames(Collection<String> backendIds, Collection<String> poolNames) {
        backendIds.forEach(b -> insertSorted(backends, b));
        poolNames.forEach(p -> insertSorted(pools, p));
    }

    /** Puts requests not listed yet on top (newest first), then lets the oldest go past {@link #MAX_ROWS}. */
    private void insertOnTop(List<RequestSample> newest) {
        List<RequestSample> fresh = new ArrayList<>(newest.size());
        for (RequestSample r : newest) {
            if (keptIds.add(r.id())) {
                fresh.add(r);
            }
        }
        List<Row> shown = new ArrayList<>();
        for (int i = fresh.size() - 1; i >= 0; i--) {
            kept.addFirst(fresh.get(i));
        }
        for (RequestSample r : fresh) {
            if (matches(r)) {
                shown.add(new Row(r, false));
            }
        }
        rows.addAll(openShown, shown);
        int trimmed = 0;
        while (kept.size() > MAX_ROWS) {
            RequestSample gone = kept.removeLast();
            keptIds.remove(gone.id());
            evicted++;
            if (matches(gone)) {
                trimmed++; // the oldest kept are the last rows
            }
        }
        if (trimmed > 0) {
            rows.remove(rows.size() - trimmed, rows.size());
        }
    }

    private void resume() {
        if (!held.isEmpty()) {
            insertOnTop(new ArrayList<>(held));
            held.clear();
        }
        newWhilePaused = 0;
        if (openWhilePaused != null) {
            List<RequestSample> o = openWhilePaused;
            openWhilePaused = null;
            setOpen(o);
        }
    }

    private void refilter() {
        List<Row> shown = new ArrayList<>();
        int openCount = 0;
        for (RequestSample r : open) {
            if (matches(r)) {
                shown.add(new Row(r, true));
                openCount++;
            }
        }
        for (RequestSample r : kept) {
            if (matches(r)) {
                shown.add(new Row(r, false));
            }
        }
        openShown = openCount;
        rows.setAll(shown);
        summarise();
    }

    /** Whether a request passes every filter. */
    boolean matches(RequestSample r) {
        StatusClass s = status.get();
        if (s != null && !s.matches(r.status())) {
            return false;
        }
        String b = backend.get();
        if (b != null && !ALL_BACKENDS.equals(b) && !b.equals(r.backend())
                && r.attempts().stream().noneMatch(a -> b.equals(a.backend()))) {
            return false;
        }
        String p = pool.get();
        if (p != null && !ALL_POOLS.equals(p) && !p.equals(r.pool())) {
            return false;
        }
        if (!routingMatches(r)) {
            return false;
        }
        String t = text.get() == null ? "" : text.get().trim().toLowerCase(Locale.ROOT);
        return t.isEmpty() || searchable(r).contains(t);
    }

    /** The route, arm, class and mirrored filters; each at its "all" choice (or empty) passes everything. */
    private boolean routingMatches(RequestSample r) {
        RequestSample.Routing g = r.routing() == null ? RequestSample.Routing.NONE : r.routing();
        String rt = route.get();
        if (rt != null && !rt.isEmpty() && !ALL_ROUTES.equals(rt)
                && (g.route() == null || !rt.equals(routeChoice(g.route())))) {
            return false;
        }
        String a = arm.get();
        if (a != null && !a.isEmpty() && !ALL_ARMS.equals(a) && !a.equals(g.arm())) {
            return false;
        }
        String c = routeClass.get();
        if (c != null && !c.isEmpty() && !ALL_CLASSES.equals(c) && !c.equals(g.routeClass())) {
            return false;
        }
        Mirrored m = mirrored.get();
        return m == null || m.matches(r);
    }

    private boolean routingFiltered() {
        return chosen(route.get(), ALL_ROUTES) || chosen(arm.get(), ALL_ARMS) || chosen(routeClass.get(), ALL_CLASSES)
                || (mirrored.get() != null && mirrored.get() != Mirrored.ALL);
    }

    /** Whether a filter's value narrows: neither empty nor its "all" choice. */
    private static boolean chosen(String value, String all) {
        return value != null && !value.isEmpty() && !all.equals(value);
    }

    private static String searchable(RequestSample r) {
        return (r.method() + " " + RequestText.target(r) + " " + r.status() + " " + r.pool() + " "
                + RequestText.attempts(r) + " " + r.client() + " " + (r.key() == null ? "" : r.key()))
                .toLowerCase(Locale.ROOT);
    }

    private void know(RequestSample r) {
        RequestSample.Routing g = r.routing();
        if (g != null && (g.route() != null || g.mirror())) {
            routed.set(true);
            if (g.route() != null) {
                insertSorted(routes, routeChoice(g.route()));
            }
            if (g.arm() != null) {
                insertSorted(arms, g.arm());
            }
            if (g.routeClass() != null) {
                insertSorted(classes, g.routeClass());
            }
        }
        if (r.pool() != null) {
            insertSorted(pools, r.pool());
        }
        if (r.backend() != null) {
            insertSorted(backends, r.backend());
        }
        for (RequestSample.Attempt a : r.attempts()) {
            if (a.backend() != null) {
                insertSorted(backends, a.backend());
            }
        }
    }

    /** Adds {@code name} in order after the list's first entry (the "all" choice), unless it is there. */
    private static void insertSorted(ObservableList<String> list, String name) {
        int i = Collections.binarySearch(list.subList(1, list.size()), name);
        if (i < 0) {
            list.add(1 + (-i - 1), name);
        }
    }

    /**
     * The batch newest first by when each request ended. A sample's start is whole milliseconds, so requests ending
     * within one millisecond tie; a source delivers each I/O thread's requests oldest first, so the batch is sorted
     * oldest first (a stable sort keeps a tie in delivery order) and then reversed.
     */
    private static List<RequestSample> newestFirst(List<RequestSample> batch) {
        List<RequestSample> out = new ArrayList<>(batch);
        out.sort(Comparator.comparingDouble((RequestSample r) -> r.startMillis() + r.latencyMs()));
        Collections.reverse(out);
        return out;
    }

    private void summarise() {
        int shown = rows.size() - openShown;
        boolean filtered = status.get() != StatusClass.ALL || !ALL_BACKENDS.equals(backend.get())
                || !ALL_POOLS.equals(pool.get()) || (text.get() != null && !text.get().isBlank()) || routingFiltered();
        StringBuilder b = new StringBuilder();
        if (kept.isEmpty() && open.isEmpty()) {
            b.append(Texts.t("requests.summary.none"));
        } else {
            boolean one = kept.size() == 1;
            b.append(filtered ? Texts.t(one ? "requests.summary.filtered.one" : "requests.summary.filtered",
                    count(shown), count(kept.size()))
                    : Texts.t(one ? "requests.summary.count.one" : "requests.summary.count", count(kept.size())));
            if (evicted > 0) {
                b.append(Texts.t("requests.summary.newest", count(kept.size()), count(kept.size() + evicted)));
            }
        }
        if (openShown > 0 || !open.isEmpty()) {
            b.append(" · ").append(filtered ? Texts.t("requests.summary.open.filtered", count(openShown),
                    count(open.size())) : Texts.t("requests.summary.open", count(open.size())));
        }
        if (unsampled > 0) {
            b.append(" · ").append(Texts.t("requests.summary.not_sampled", count(unsampled)));
        }
        if (paused.get()) {
            b.append(" · ").append(Texts.t("requests.summary.paused", count(newWhilePaused)));
        }
        summary.set(b.toString());
    }

    /** Grouped as the window's language groups thousands: 5,000 in English, 5 000 in Polish. */
    private static String count(long n) {
        return String.format(Texts.locale(), "%,d", n);
    }

    /** What the table shows: the open WebSockets that pass the filters, then the requests that do, newest first. */
    public ObservableList<Row> rows() {
        return readOnlyRows;
    }

    /** The requests the table shows (open WebSockets as they stand), newest first: what "export the list" writes. */
    public List<RequestSample> shown() {
        return rows.stream().map(Row::request).toList();
    }

    /** {@link #ALL_BACKENDS}, then every backend seen or known, sorted. */
    public ObservableList<String> backendChoices() {
        return backends;
    }

    /** {@link #ALL_POOLS}, then every pool seen or known, sorted. */
    public ObservableList<String> poolChoices() {
        return pools;
    }

    public ObservableList<String> routeChoices() {
        return routes;
    }

    public ObservableList<String> armChoices() {
        return arms;
    }

    public ObservableList<String> classChoices() {
        return classes;
    }

    public StringProperty routeProperty() {
        return route;
    }

    public StringProperty armProperty() {
        return arm;
    }

    public StringProperty routeClassProperty() {
        return routeClass;
    }

    public ObjectProperty<Mirrored> mirroredProperty() {
        return mirrored;
    }

    /** True once a routed request was seen: the route, arm, class and mirrored filters show from then on. */
    public javafx.beans.value.ObservableBooleanValue routedProperty() {
        return routed;
    }

    public StringProperty textProperty() {
        return text;
    }

    public ObjectProperty<StatusClass> statusProperty() {
        return status;
    }

    public StringProperty backendProperty() {
        return backend;
    }

    public StringProperty poolProperty() {
        return pool;
    }

    public BooleanProperty pausedProperty() {
        return paused;
    }

    /** E.g. {@code 312 of 5,000 requests · 2 open · paused, 1,234 new}. */
    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** Requests that arrived while paused, not shown yet. */
    public long newWhilePaused() {
        return newWhilePaused;
    }
}
