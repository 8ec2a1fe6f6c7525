import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The floor of a reverse proxy in Java on this machine, for comparison only: JDK NIO, one selector
 * thread per core, each owning its client connections and a keep-alive pool of backend connections,
 * round robin, requests forwarded byte for byte. It does only what `wrk` against `return 200` needs
 * (GET without a body, answers with Content-Length, no pipelining, writes that the socket takes
 * whole): no parsing worth the name, no validation, no headers added, no timeouts, no metrics, no
 * logging. Whatever a real proxy costs on top of this is the price of being one.
 *
 *   java -cp target/fulcrum.jar bench/BareNioProxy.java PORT BACKEND_PORT...
 */
public class BareNioProxy {
    public static void main(String[] a) throws Exception {
        int[] backends = new int[a.length - 1];
        for (int i = 1; i < a.length; i++) backends[i - 1] = Integer.parseInt(a[i]);
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress("127.0.0.1", Integer.parseInt(a[0])), 1024);
        int n = Runtime.getRuntime().availableProcessors();
        List<Loop> loops = new ArrayList<>();
        for (int i = 0; i < n; i++) loops.add(new Loop(backends));
        for (Loop l : loops) new Thread(l, "loop").start();
        System.out.println("bare ready");
        for (int next = 0; ; next++) { // accept here, hand each connection to a loop in turn
            SocketChannel c = server.accept();
            c.configureBlocking(false);
            c.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
            Loop l = loops.get(next % n);
            l.incoming.add(c);
            l.selector.wakeup();
        }
    }

    /** One client connection and, while a request is out, the backend connection serving it. */
    static final class Client {
        final SocketChannel channel;
        final ByteBuffer in = ByteBuffer.allocateDirect(16384);
        Backend backend;
        Client(SocketChannel channel) { this.channel = channel; }
    }

    static final class Backend {
        final SocketChannel channel;
        final int index;
        final ByteBuffer in = ByteBuffer.allocateDirect(16384);
        Client client;
        Backend(SocketChannel channel, int index) { this.channel = channel; this.index = index; }
    }

    static final class Loop implements Runnable {
        final Selector selector;
        final Queue<SocketChannel> incoming = new ConcurrentLinkedQueue<>();
        final int[] ports;
        final List<ArrayDeque<Backend>> idle = new ArrayList<>();
        int turn;

        Loop(int[] ports) throws IOException {
            this.selector = Selector.open();
            this.ports = ports;
            for (int i = 0; i < ports.length; i++) idle.add(new ArrayDeque<>());
        }

        public void run() {
            try {
                while (true) {
                    selector.select();
                    for (SocketChannel c; (c = incoming.poll()) != null; ) c.register(selector, SelectionKey.OP_READ, new Client(c));
                    Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                    while (it.hasNext()) {
                        SelectionKey k = it.next();
                        it.remove();
                        try {
                            if (k.attachment() instanceof Client c) clientReadable(c);
                            else backendReadable((Backend) k.attachment());
                        } catch (IOException e) {
                            k.cancel();
                            k.channel().close();
                        }
                    }
                }
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        }

        void clientReadable(Client c) throws IOException {
            if (c.channel.read(c.in) < 0) { c.channel.close(); return; }
            if (c.backend != null || !headComplete(c.in)) return;
            int i = turn++ % ports.length;
            Backend b = idle.get(i).poll();
            if (b == null) {
                SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", ports[i]));
                s.configureBlocking(false);
                s.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
                b = new Backend(s, i);
                s.register(selector, SelectionKey.OP_READ, b);
            }
            b.client = c;
            c.backend = b;
            c.in.flip();
            while (c.in.hasRemaining()) b.channel.write(c.in);
            c.in.clear();
        }

        void backendReadable(Backend b) throws IOException {
            if (b.channel.read(b.in) < 0) throw new IOException("backend closed");
            int end = messageEnd(b.in);
            if (end < 0) return;
            Client c = b.client;
            b.in.flip();
            while (b.in.hasRemaining()) c.channel.write(b.in);
            b.in.clear();
            b.client = null;
            c.backend = null;
            idle.get(b.index).push(b);
        }

        /** Whether the buffer ends with a blank line (a request head without a body). */
        static boolean headComplete(ByteBuffer in) {
            int p = in.position();
            return p >= 4 && in.get(p - 4) == '\r' && in.get(p - 3) == '\n' && in.get(p - 2) == '\r' && in.get(p - 1) == '\n';
        }

        /** Where the answer in the buffer ends (head and Content-Length body), or -1 if not all here. */
        static int messageEnd(ByteBuffer in) {
            int p = in.position();
            for (int i = 3; i < p; i++) {
                if (in.get(i - 3) == '\r' && in.get(i - 2) == '\n' && in.get(i - 1) == '\r' && in.get(i) == '\n') {
                    byte[] head = new byte[i + 1];
                    in.get(0, head);
                    String h = new String(head, StandardCharsets.ISO_8859_1).toLowerCase();
                    int at = h.indexOf("content-length:");
                    int from = at + 15, to = h.indexOf('\r', from);
                    int end = i + 1 + Integer.parseInt(h.substring(from, to).trim());
                    return p >= end ? end : -1;
                }
            }
            return -1;
        }
    }
}
