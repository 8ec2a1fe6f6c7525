package dev.fulcrum.health;

import dev.fulcrum.time.Cancellable;
import dev.fulcrum.time.Scheduler;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asynchronous GETs with a hard deadline, shared by the health checker and the metrics poller.
 *
 * <p>The JDK client's own request timeout covers only the wait for the response headers, so a backend that
 * sends headers and then stalls, or a connect that hangs, would outlive it. Each GET therefore races a deadline
 * on the owner's {@link Scheduler} instead and, when that wins, cancels the exchange (which closes its
 * connection): a hung backend costs at most {@code timeoutMs} and never holds a thread. The deadline is the only
 * timeout, so it runs on the clock a test moves: advancing a {@code ManualClock} past it fails the GET then, on
 * the advancing thread, and never earlier.
 */
final class HttpGetter {
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1) // no h2c upgrade dance with plain-HTTP backends
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    private final String userAgent;
    private final Scheduler scheduler;

    HttpGetter(String userAgent, Scheduler scheduler) {
        this.userAgent = userAgent;
        this.scheduler = scheduler;
    }

    /** Completes with the response, or exceptionally: the exchange failed, or a {@link TimeoutException}. */
    <T> CompletableFuture<HttpResponse<T>> get(URI uri, long timeoutMs, HttpResponse.BodyHandler<T> body) {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .header("User-Agent", userAgent)
                .GET()
                .build();
        CompletableFuture<HttpResponse<T>> sent = client.sendAsync(request, body);
        CompletableFuture<HttpResponse<T>> result = new CompletableFuture<>();
        Cancellable deadline = scheduler.schedule(() -> result.completeExceptionally(new TimeoutException()),
                timeoutMs, TimeUnit.MILLISECONDS);
        sent.whenComplete((r, e) -> {
            if (e != null) {
                result.completeExceptionally(e);
            } else {
                result.complete(r);
            }
        });
        result.whenComplete((r, e) -> {
            deadline.cancel(); // an answered GET leaves no timer behind
            if (e != null) {
                sent.cancel(true);
            }
        });
        return result;
    }

    /** {@code http://h:p} (or {@code http://h:p/}) plus {@code /path}. */
    static URI resolve(URI base, String path) {
        String b = base.toString();
        if (b.endsWith("/")) {
            b = b.substring(0, b.length() - 1);
        }
        return URI.create(b + path);
    }

    /** A short, human reason for a failed GET. */
    static String describe(Throwable e, long timeoutMs) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
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
