import io.undertow.Undertow;
import io.undertow.server.handlers.proxy.LoadBalancingProxyClient;
import io.undertow.server.handlers.proxy.ProxyHandler;
import java.net.URI;

/** Undertow's stock reverse proxy (LoadBalancingProxyClient), for comparison only. */
public class StockUndertowProxy {
    public static void main(String[] a) throws Exception {
        LoadBalancingProxyClient client = new LoadBalancingProxyClient().setConnectionsPerThread(64);
        for (int i = 1; i < a.length; i++) client.addHost(new URI(a[i]));
        Undertow.builder().addHttpListener(Integer.parseInt(a[0]), "127.0.0.1")
            .setIoThreads(Runtime.getRuntime().availableProcessors())
            .setHandler(ProxyHandler.builder().setProxyClient(client).setMaxRequestTime(30000).build())
            .build().start();
        System.out.println("stock ready");
    }
}
