import io.undertow.Undertow;
import io.undertow.util.Headers;

/**
 * The ceiling of the server stack Fulcrum is built on: a bare Undertow server answering every request
 * itself, with no backend and no proxying, on the same I/O thread count. For bench/proxy-vs-nginx.sh only.
 */
public class UndertowHello {
    public static void main(String[] a) {
        Undertow.builder().addHttpListener(Integer.parseInt(a[0]), "127.0.0.1")
                .setIoThreads(Runtime.getRuntime().availableProcessors())
                .setHandler(ex -> {
                    ex.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
                    ex.getResponseSender().send("hello from undertow\n");
                })
                .build().start();
        System.out.println("hello ready");
    }
}
