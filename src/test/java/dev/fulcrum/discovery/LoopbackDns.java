package dev.fulcrum.discovery;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SRVRecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP, a port of its own): for any name it answers A and AAAA from
 * {@link #answers} and SRV from {@link #srv}, or the {@link #rcode} set.
 */
final class LoopbackDns implements AutoCloseable {
    /** One SRV record's data: priority, weight, port, target (absolute, with its trailing dot, or {@code .}). */
    record Srv(int priority, int weight, int port, String target) {
    }

    volatile List<InetAddress> answers = List.of();
    volatile List<Srv> srv = List.of();
    /** The answer code for every query (NXDOMAIN: the name does not exist). */
    volatile int rcode = Rcode.NOERROR;
    /** A query type answered SERVFAIL whatever {@link #rcode} says; 0 for none. */
    volatile int servfailType;
    volatile int queries;
    private final DatagramSocket socket;

    LoopbackDns() throws Exception {
        socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        Thread thread = new Thread(this::serve, "loopback-dns");
        thread.setDaemon(true);
        thread.start();
    }

    String address() {
        return "127.0.0.1:" + socket.getLocalPort();
    }

    private void serve() {
        byte[] buf = new byte[512];
        while (!socket.isClosed()) {
            try {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                socket.receive(p);
                queries++;
                Message q = new Message(java.util.Arrays.copyOf(p.getData(), p.getLength()));
                Record question = q.getQuestion();
                Message r = new Message(q.getHeader().getID());
                r.getHeader().setFlag(Flags.QR);
                r.getHeader().setFlag(Flags.AA);
                int code = question.getType() == servfailType ? Rcode.SERVFAIL : rcode;
                r.getHeader().setRcode(code);
                r.addRecord(question, Section.QUESTION);
                if (code == Rcode.NOERROR) {
                    for (InetAddress a : answers) {
                        if (question.getType() == Type.A && a.getAddress().length == 4) {
                            r.addRecord(new ARecord(question.getName(), DClass.IN, 0, a), Section.ANSWER);
                        } else if (question.getType() == Type.AAAA && a.getAddress().length == 16) {
                            r.addRecord(new AAAARecord(question.getName(), DClass.IN, 0, a), Section.ANSWER);
                        }
                    }
                    if (question.getType() == Type.SRV) {
                        for (Srv s : srv) {
                            r.addRecord(new SRVRecord(question.getName(), DClass.IN, 0, s.priority(), s.weight(),
                                    s.port(), Name.fromString(s.target())), Section.ANSWER);
                        }
                    }
                }
                byte[] out = r.toWire();
                socket.send(new DatagramPacket(out, out.length, p.getSocketAddress()));
            } catch (Exception e) {
                // closed, or a malformed query: ignore
            }
        }
    }

    @Override
    public void close() {
        socket.close();
    }
}
