import io.undertow.Undertow;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.protocol.http.HttpServerConnection;
import io.undertow.util.Headers;
import io.undertow.util.SameThreadExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import org.xnio.ChannelListener;
import org.xnio.IoFuture;
import org.xnio.IoUtils;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.StreamConnection;
import org.xnio.XnioIoThread;
import org.xnio.conduits.ConduitStreamSourceChannel;

/**
 * The floor of a reverse proxy built on an Undertow listener, for comparison only: Undertow's HTTP/1.1 server side as
 * Fulcrum uses it (same I/O threads, same socket options, dispatch on the I/O thread, reads left on while a request
 * waits so that no epoll_ctl is made per request), and
 * behind it the least a proxy can do: a keep-alive backend connection per I/O thread taken from a stack, the request
 * line and a Host written, the answer's status line and Content-Length read, the body written back through the
 * exchange. No routing, no header forwarding or rewriting, no validation, timeouts, retries, health, breakers,
 * metrics or log. It serves what `wrk` against `return 200` needs (GET, a whole answer with Content-Length in one
 * read) and nothing else. Whatever Fulcrum costs above this is the price of its features; whatever this costs above
 * bench/BareNioProxy.java is the price of the Undertow listener.
 *
 *   java -cp target/fulcrum.jar bench/UndertowBareProxy.java PORT BACKEND_PORT...
 */
public class UndertowBareProxy {
    static InetSocketAddress[] backends;
    /** Lower case, and ':' | 0x20 is ':' too. */
    static final byte[] CONTENT_LENGTH = "content-length:".getBytes(StandardCharsets.US_ASCII);

    public static void main(String[] a) {
        backends = new InetSocketAddress[a.length - 1];
        for (int i = 1; i < a.length; i++) {
            backends[i - 1] = new InetSocketAddress("127.0.0.1", Integer.parseInt(a[i]));
        }
        Undertow.builder().addHttpListener(Integer.parseInt(a[0]), "127.0.0.1")
                .setIoThreads(Math.max(2, Runtime.getRuntime().availableProcessors()))
                .setSocketOption(Options.TCP_NODELAY, true)
                .setSocketOption(Options.BACKLOG, 4096)
                .setHandler(ex -> ex.dispatch(SameThreadExecutor.INSTANCE, () -> forward(ex)))
                .build().start();
        System.out.println("undertow-bare ready");
    }

    /** Per I/O thread: idle connections per backend, and the round-robin turn. */
    static final class PerThread {
        final ArrayDeque<Conn>[] idle;
        int turn;

        @SuppressWarnings("unchecked")
        PerThread() {
            idle = new ArrayDeque[backends.length];
            for (int i = 0; i < idle.length; i++) {
                idle[i] = new ArrayDeque<>();
            }
        }
    }

    static final ThreadLocal<PerThread> LOCAL = ThreadLocal.withInitial(PerThread::new);

    static void forward(HttpServerExchange ex) {
        keepReadsOn(ex);
        PerThread t = LOCAL.get();
        int b = t.turn++ % backends.length;
        Conn c = t.idle[b].pollLast();
        if (c != null) {
            c.send(ex);
            return;
        }
        XnioIoThread io = ex.getIoThread();
        IoFuture<StreamConnection> f = io.openStreamConnection(backends[b], null, OptionMap.create(Options.TCP_NODELAY, true));
        f.addNotifier(new IoFuture.HandlingNotifier<StreamConnection, Void>() {
            @Override
            public void handleDone(StreamConnection s, Void v) {
                new Conn(s, t.idle[b]).send(ex);
            }

            @Override
            public void handleFailed(IOException e, Void v) {
                ex.setStatusCode(502);
                ex.endExchange();
            }
        }, null);
    }

    /**
     * As Fulcrum does (ClientWatch): Undertow suspends the client connection's reads while a request runs and resumes
     * them after, an epoll_ctl each way; turned back on before the selector runs, both calls cancel out. A client
     * that sends meanwhile is suspended then (Undertow's lazy way), and Undertow's own listener comes back at the end.
     */
    static void keepReadsOn(HttpServerExchange ex) {
        HttpServerConnection hc = (HttpServerConnection) ex.getConnection();
        ConduitStreamSourceChannel ch = hc.getChannel().getSourceChannel();
        ChannelListener<? super ConduitStreamSourceChannel> undertows = ch.getReadListener();
        ch.setReadListener(SUSPEND);
        hc.getOriginalSourceConduit().resumeReads();
        ex.addExchangeCompleteListener((e, next) -> {
            ch.setReadListener(undertows);
            next.proceed();
        });
    }

    static final ChannelListener<ConduitStreamSourceChannel> SUSPEND = ConduitStreamSourceChannel::suspendReads;

    static final class Conn {
        final StreamConnection s;
        final ArrayDeque<Conn> home;
        final ByteBuffer out = ByteBuffer.allocateDirect(4096);
        final ByteBuffer in = ByteBuffer.allocateDirect(16384);
        HttpServerExchange ex;

        Conn(StreamConnection s, ArrayDeque<Conn> home) {
            this.s = s;
            this.home = home;
            s.getSourceChannel().setReadListener(ch -> readable());
            s.getSourceChannel().resumeReads();
        }

        void send(HttpServerExchange exchange) {
            ex = exchange;
            out.clear();
            ascii(exchange.getRequestMethod().toString());
            out.put((byte) ' ');
            ascii(exchange.getRequestURI());
            ascii(" HTTP/1.1\r\nHost: ");
            ascii(exchange.getRequestHeaders().getFirst(Headers.HOST));
            ascii("\r\n\r\n");
            out.flip();
            try {
                s.getSinkChannel().write(out);
            } catch (IOException e) {
                fail();
            }
        }

        void ascii(String v) {
            for (int i = 0; i < v.length(); i++) {
                out.put((byte) v.charAt(i));
            }
        }

        void readable() {
            try {
                int n = s.getSourceChannel().read(in);
                if (n < 0) {
                    fail();
                    return;
                }
            } catch (IOException e) {
                fail();
                return;
            }
            if (ex == null) {
                return;
            }
            int end = headEnd();
            if (end < 0) {
                return;
            }
            int status = (in.get(9) - '0') * 100 + (in.get(10) - '0') * 10 + (in.get(11) - '0');
            long length = contentLength(end);
            if (length < 0 || in.position() < end + length) {
                return; // not what this floor serves: wrk's answers come whole
            }
            HttpServerExchange done = ex;
            ex = null;
            done.setStatusCode(status);
            done.getResponseHeaders().put(Headers.CONTENT_LENGTH, length);
            ByteBuffer body = in.duplicate();
            body.limit(end + (int) length).position(end);
            try {
                done.getResponseChannel().write(body);
            } catch (IOException e) {
                IoUtils.safeClose(done.getConnection());
            }
            in.clear();
            home.addLast(this);
            done.endExchange();
        }

        int headEnd() {
            for (int i = 3; i < in.position(); i++) {
                if (in.get(i) == '\n' && in.get(i - 1) == '\r' && in.get(i - 2) == '\n' && in.get(i - 3) == '\r') {
                    return i + 1;
                }
            }
            return -1;
        }

        /** The Content-Length value, found by a byte scan of the head (no String made), or -1. */
        long contentLength(int end) {
            byte[] name = CONTENT_LENGTH;
            for (int i = 2; i + name.length < end; i++) {
                if (in.get(i - 1) != '\n') {
                    continue;
                }
                int k = 0;
                while (k < name.length && (in.get(i + k) | 0x20) == name[k]) {
                    k++;
                }
                if (k == name.length) {
                    long v = 0;
                    for (int j = i + k; j < end; j++) {
                        byte c = in.get(j);
                        if (c >= '0' && c <= '9') {
                            v = v * 10 + (c - '0');
                        } else if (c == '\r') {
                            return v;
                        }
                    }
                }
            }
            return -1;
        }

        void fail() {
            IoUtils.safeClose(s);
            home.remove(this);
            if (ex != null) {
                HttpServerExchange e = ex;
                ex = null;
                e.setStatusCode(502);
                e.endExchange();
            }
        }
    }
}
