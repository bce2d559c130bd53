package dev.sluice.clickhouse.client;

import dev.sluice.clickhouse.net.GuardedSocket;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/** JDK TLS as the configuration asks: for native sockets and for HTTPS. */
public final class TlsSockets {
    private TlsSockets() {}

    /**
     * TLS as the configuration asks, layered over a connected TCP socket with its handshake done;
     * the context is built once, here, for every socket the layer opens.
     */
    public static GuardedSocket.Layer layer(ConnectionConfig config) throws IOException {
        SSLSocketFactory factory = context(config).getSocketFactory();
        return tcp -> {
            SSLSocket tls =
                    (SSLSocket) factory.createSocket(tcp, config.host(), config.port(), true);
            SSLParameters params = tls.getSSLParameters();
            if (!config.sslInsecure()) {
                params.setEndpointIdentificationAlgorithm("HTTPS"); // check the host name
            }
            tls.setSSLParameters(params);
            tls.startHandshake();
            return tls;
        };
    }

    /** The TLS context the configuration asks for (trust store, PEM roots, or insecure). */
    public static SSLContext context(ConnectionConfig config) throws IOException {
        try {
            TrustManager[] trust = null;
            if (config.sslInsecure()) {
                trust = new TrustManager[] {new TrustEverything()};
            } else if (config.sslRootCert() != null) {
                trust = fromPem(config.sslRootCert());
            } else if (config.trustStore() != null) {
                trust = fromStore(config.trustStore(), config.trustStorePassword().reveal());
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, trust, new SecureRandom());
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException("TLS setup failed: " + e.getMessage(), e);
        }
    }

    private static TrustManager[] fromPem(Path pem) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        Collection<? extends Certificate> certs;
        try (InputStream in = Files.newInputStream(pem)) {
            certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
        }
        if (certs.isEmpty()) {
            throw new IOException("ssl_root_cert " + pem + " holds no certificate");
        }
        int i = 0;
        for (Certificate c : certs) {
            ks.setCertificateEntry("ca-" + i++, c);
        }
        return trustManagers(ks);
    }

    private static TrustManager[] fromStore(Path store, String password)
            throws IOException, GeneralSecurityException {
        String name = store.getFileName().toString().toLowerCase(Locale.ROOT);
        KeyStore ks = KeyStore.getInstance(name.endsWith(".jks") ? "JKS" : "PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, password.isEmpty() ? null : password.toCharArray());
        }
        return trustManagers(ks);
    }

    private static TrustManager[] trustManagers(KeyStore ks) throws GeneralSecurityException {
        TrustManagerFactory tmf =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        return tmf.getTrustManagers();
    }

    /** The explicit {@code ssl_insecure} switch: any certificate, any host name. */
    private static final class TrustEverything implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
