package dev.fulcrum.proxy;

import io.undertow.protocols.http2.HpackDecoder;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A bare HTTP/2 client for tests: h2 over TLS (ALPN) or h2c with prior knowledge. It sends exactly the header fields it
 * is given, even ones a real client would refuse to send (CR/LF in a value, split cookies, any :scheme).
 */
final class RawH2 implements AutoCloseable {
    static final class Stream {
        volatile int status = -1;
        final List<Integer> statuses = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<String[]> headers = new ArrayList<>();
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        volatile boolean ended;
        volatile int resetCode = -1;
        final CountDownLatch head = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);

        String header(String name) {
            synchronized (headers) {
                for (String[] h : headers) {
                    if (h[0].equalsIgnoreCase(name)) {
                        return h[1];
                    }
                }
            }
            return null;
        }

        boolean await(long ms) throws InterruptedException {
            return done.await(ms, TimeUnit.MILLISECONDS);
        }
    }

    final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    final Map<Integer, Stream> streams = new ConcurrentHashMap<>();
    private final HpackDecoder decoder = new HpackDecoder();
    private int nextStream = 1;
    volatile boolean goaway;
    volatile boolean closed;
    private final Thread reader;
    /** The {@code :scheme} {@link #get} sends: what the connection is, as a real client says it. */
    private final String scheme;

    RawH2(String host, int port, boolean tls) throws Exception {
        scheme = tls ? "https" : "http";
        if (tls) {
            SSLSocket s = (SSLSocket) PassThroughTest.trustAll().getSocketFactory().createSocket(host, port);
            SSLParameters p = s.getSSLParameters();
            p.setApplicationProtocols(new String[] {"h2"});
            s.setSSLParameters(p);
            s.startHandshake();
            if (!"h2".equals(s.getApplicationProtocol())) {
                throw new IOException("no h2 via ALPN: " + s.getApplicationProtocol());
            }
            socket = s;
        } else {
            socket = new Socket(host, port);
        }
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
        synchronized (this) {
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            // SETTINGS: INITIAL_WINDOW_SIZE = 2^31-1
            ByteBuffer s = ByteBuffer.allocate(6).putShort((short) 4).putInt(Integer.MAX_VALUE);
            frame(4, 0, 0, s.array());
            frame(8, 0, 0, ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE - 65535).array());
            out.flush();
        }
        reader = new Thread(this::readLoop, "raw-h2-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        int len = payload.length;
        out.write(new byte[] {(byte) (len >>> 16), (byte) (len >>> 8), (byte) len, (byte) type, (byte) flags,
            (byte) (stream >>> 24), (byte) (stream >>> 16), (byte) (stream >>> 8), (byte) stream});
        out.write(payload);
    }

    private static void hpackInt(ByteArrayOutputStream b, int first, int prefixBits, int v) {
        int max = (1 << prefixBits) - 1;
        if (v < max) {
            b.write(first | v);
            return;
        }
        b.write(first | max);
        v -= max;
        while (v >= 128) {
            b.write((v & 127) | 128);
            v >>>= 7;
        }
        b.write(v);
    }

    private static void literal(ByteArrayOutputStream b, String name, String value) {
        b.write(0x00); // literal without indexing, new name
        byte[] n = name.getBytes(StandardCharsets.ISO_8859_1);
        byte[] v = value.getBytes(StandardCharsets.ISO_8859_1);
        hpackInt(b, 0, 7, n.length);
        b.write(n, 0, n.length);
        hpackInt(b, 0, 7, v.length);
        b.write(v, 0, v.length);
    }

    /** Opens a stream with these headers in this order (pseudo headers included as given). */
    synchronized int request(List<String[]> headers, boolean endStream) throws IOException {
        int id = nextStream;
        nextStream += 2;
        streams.put(id, new Stream());
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String[] h : headers) {
            literal(b, h[0], h[1]);
        }
        frame(1, 0x4 | (endStream ? 0x1 : 0), id, b.toByteArray());
        out.flush();
        return id;
    }

    int get(String authority, String path) throws IOException {
        return request(List.of(new String[] {":method", "GET"}, new String[] {":scheme", scheme},
                new String[] {":authority", authority}, new String[] {":path", path}), true);
    }

    synchronized void data(int stream, byte[] data, boolean end) throws IOException {
        frame(0, end ? 1 : 0, stream, data);
        out.flush();
    }

    synchronized void rst(int stream) throws IOException {
        frame(3, 0, stream, ByteBuffer.allocate(4).putInt(8).array()); // CANCEL
        out.flush();
    }

    private void readLoop() {
        try {
            ByteArrayOutputStream block = null;
            int blockStream = 0;
            boolean blockEnd = false;
            for (;;) {
                int len = (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
                int type = in.readUnsignedByte();
                int flags = in.readUnsignedByte();
                int stream = in.readInt() & 0x7fffffff;
                byte[] p = new byte[len];
                in.readFully(p);
                Stream st = streams.get(stream);
                switch (type) {
                    case 0 -> {
                        if (st != null) {
                            int off = 0;
                            int plen = len;
                            if ((flags & 0x8) != 0) {
                                int pad = p[0] & 0xff;
                                off = 1;
                                plen = len - 1 - pad;
                            }
                            synchronized (st.body) {
                                st.body.write(p, off, plen);
                            }
                            if ((flags & 1) != 0) {
                                st.ended = true;
                                st.done.countDown();
                            }
                        }
                    }
                    case 1, 9 -> {
                        if (type == 1) {
                            block = new ByteArrayOutputStream();
                            blockStream = stream;
                            blockEnd = (flags & 1) != 0;
                            int off = 0;
                            int end = len;
                            if ((flags & 0x8) != 0) {
                                off = 1;
                                end -= p[0] & 0xff;
                            }
                            if ((flags & 0x20) != 0) {
                                off += 5;
                            }
                            block.write(p, off, end - off);
                        } else {
                            block.write(p, 0, len);
                        }
                        if ((flags & 0x4) != 0) {
                            Stream s = streams.get(blockStream);
                            List<String[]> got = new ArrayList<>();
                            decoder.setHeaderEmitter((name, value, neverIndex) -> got.add(new String[] {name.toString(), value}));
                            decoder.decode(ByteBuffer.wrap(block.toByteArray()), false);
                            if (s != null) {
                                synchronized (s.headers) {
                                    for (String[] h : got) {
                                        if (h[0].equals(":status")) {
                                            s.status = Integer.parseInt(h[1]);
                                            s.statuses.add(s.status);
                                        } else {
                                            s.headers.add(h);
                                        }
                                    }
                                }
                                s.head.countDown();
                                if (blockEnd) {
                                    s.ended = true;
                                    s.done.countDown();
                                }
                            }
                        }
                    }
                    case 3 -> {
                        if (st != null) {
                            st.resetCode = ByteBuffer.wrap(p).getInt();
                            st.head.countDown();
                            st.done.countDown();
                        }
                    }
                    case 4 -> {
                        if ((flags & 1) == 0) {
                            synchronized (this) {
                                frame(4, 1, 0, new byte[0]);
                                out.flush();
                            }
                        }
                    }
                    case 6 -> {
                        if ((flags & 1) == 0) {
                            synchronized (this) {
                                frame(6, 1, 0, p);
                                out.flush();
                            }
                        }
                    }
                    case 7 -> goaway = true;
                    default -> {
                    }
                }
            }
        } catch (Exception e) {
            closed = true;
            for (Stream s : streams.values()) {
                s.head.countDown();
                s.done.countDown();
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
