package dev.fulcrum.health;

import dev.fulcrum.net.BackendAddresses;
import dev.fulcrum.net.IpText;
import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Asynchronous GETs with a hard deadline, shared by the health checker and the metrics poller.
 *
 * <p>The JDK client's own request timeout covers only the wait for the response headers, so a backend that
 * sends headers and then stalls, or a connect that hangs, would outlive it. Each GET therefore races a deadline
 * on the owner's {@link Scheduler} instead and, when that wins, cancels the exchange (which closes its
 * connection): a hung backend costs at most {@code timeoutMs} and never holds a thread. The deadline is the only
 * timeout, so it runs on the clock a test moves: advancing a {@code ManualClock} past it fails the GET then, on
 * the advancing thread, and never earlier.
 *
 * <p>A backend on {@code localhost} is asked at each of its addresses in turn ({@link BackendAddresses}: both loopback
 * addresses, whatever the hosts file says), the next one when a connection is refused, all within the one deadline;
 * the address that answered is asked first from then on. So a check reaches the same dev server on {@code ::1} alone
 * as the proxy's requests do. The GET then names the address it went to ({@code Host: [::1]:5173}): Java's client
 * sets that header from the URI. Any other host is left to the JDK's lookup, which gives the address
 * {@link BackendAddresses} does, off the caller's thread.
 */
final class HttpGetter {
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1) // no h2c upgrade dance with plain-HTTP backends
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    private final String userAgent;
    private final Scheduler scheduler;
    /** Per {@code localhost} host and port: the loopback address that answered last. */
    private final Map<String, InetAddress> answered = new ConcurrentHashMap<>();

    HttpGetter(String userAgent, Scheduler scheduler) {
        this.userAgent = userAgent;
        this.scheduler = scheduler;
    }

    /** Completes with the response, or exceptionally: the exchange failed, or a {@link TimeoutException}. */
    <T> CompletableFuture<HttpResponse<T>> get(URI uri, long timeoutMs, HttpResponse.BodyHandler<T> body) {
        CompletableFuture<HttpResponse<T>> result = new CompletableFuture<>();
        AtomicReference<CompletableFuture<HttpResponse<T>>> sent = new AtomicReference<>();
        Cancellable deadline = scheduler.schedule(() -> result.completeExceptionally(new TimeoutException()),
                timeoutMs, TimeUnit.MILLISECONDS);
        result.whenComplete((r, e) -> {
            deadline.cancel(); // an answered GET leaves no timer behind
            CompletableFuture<HttpResponse<T>> s = sent.get();
            if (e != null && s != null) {
                s.cancel(true);
            }
        });
        send(uri, targets(uri), 0, null, body, result, sent);
        return result;
    }

    /** Sends the GET to {@code targets.get(i)}; a refused connection moves on to the next target. */
    private <T> void send(URI uri, List<InetAddress> targets, int i, Throwable firstFailure,
                          HttpResponse.BodyHandler<T> body, CompletableFuture<HttpResponse<T>> result,
                          AtomicReference<CompletableFuture<HttpResponse<T>>> sent) {
        HttpRequest request = HttpRequest.newBuilder(targets.isEmpty() ? uri : at(uri, targets.get(i)))
                .header("User-Agent", userAgent)
                .GET()
                .build();
        CompletableFuture<HttpResponse<T>> s = client.sendAsync(request, body);
        sent.set(s);
        if (result.isDone()) {
            s.cancel(true); // the deadline passed while the previous target was asked
            return;
        }
        s.whenComplete((r, e) -> {
            if (e == null) {
                if (!targets.isEmpty()) {
                    answered.put(key(uri), targets.get(i));
                }
                result.complete(r);
            } else if (i + 1 < targets.size() && cause(e) instanceof ConnectException && !result.isDone()) {
                send(uri, targets, i + 1, firstFailure == null ? e : firstFailure, body, result, sent);
            } else {
                result.completeExceptionally(firstFailure == null ? e : firstFailure);
            }
        });
    }

    /** The addresses to ask, the one that answered last first; empty: the URI as it is. */
    private List<InetAddress> targets(URI uri) {
        if (!BackendAddresses.isLocalhost(uri.getHost())) {
            return List.of();
        }
        return BackendAddresses.preferring(answered.get(key(uri)), BackendAddresses.of(uri.getHost()));
    }

    private static String key(URI uri) {
        return uri.getHost().toLowerCase(Locale.ROOT) + ":" + uri.getPort();
    }

    /** {@code uri} with its host replaced by the literal {@code address}; path and query stay as they are. */
    static URI at(URI uri, InetAddress address) {
        String host = address instanceof Inet6Address ? "[" + IpText.of(address) + "]" : address.getHostAddress();
        String rest = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            rest += "?" + uri.getRawQuery();
        }
        return URI.create(uri.getScheme() + "://" + host + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + rest);
    }

    /** {@code http://h:p} (or {@code http://h:p/}) plus {@code /path}. */
    static URI resolve(URI base, String path) {
        String b = base.toString();
        if (b.endsWith("/")) {
            b = b.substring(0, b.length() - 1);
        }
        return URI.create(b + path);
    }

    /** {@code e} without the wrappers a future puts around it. */
    private static Throwable cause(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** A short, human reason for a failed GET. */
    static String describe(Throwable e, long timeoutMs) {
        Throwable t = cause(e);
        if (t instanceof TimeoutException || t instanceof HttpTimeoutException || t instanceof CancellationException) {
            return "timeout after " + timeoutMs + " ms";
        }
        if (t instanceof ConnectException) {
            return "connection refused";
        }
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + m;
    }
}
