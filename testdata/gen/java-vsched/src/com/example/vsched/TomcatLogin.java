package com.example.vsched;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * An embedded Tomcat 10.1 (Debian's) whose requests run on virtual threads
 * (the connector's useVirtualThreads), listening on 127.0.0.1:PORT:
 *
 * <ul>
 *   <li>GET or POST /login checks a password the way OWASP advises, PBKDF2 with
 *       HMAC-SHA256 at 600,000 iterations (Passwords.check): tens to
 *       hundreds of milliseconds on a core, without a wait, so the virtual
 *       thread never leaves its carrier.
 *   <li>GET /quote waits 20 ms for a downstream reply (a sleep: the virtual
 *       thread unmounts) and answers.
 * </ul>
 *
 * Prints "ready" once it listens, and stops when its stdin closes. Run with
 * -Djdk.virtualThreadScheduler.parallelism=2 (gen.sh does).
 */
public class TomcatLogin {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(System.getProperty("java.io.tmpdir") + "/tomcat-login-" + ProcessHandle.current().pid());
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(port);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("useVirtualThreads", "true");
        tomcat.setConnector(connector);
        Context ctx = tomcat.addContext("", null);
        Tomcat.addServlet(ctx, "login", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                doPost(req, resp);
            }

            @Override
            protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                boolean ok = Passwords.check("correct horse battery staple".toCharArray());
                resp.getWriter().println(ok ? "welcome" : "denied");
            }
        });
        ctx.addServletMappingDecoded("/login", "login");
        Tomcat.addServlet(ctx, "quote", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                try {
                    Thread.sleep(20); // the downstream reply
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                resp.getWriter().println("EURUSD 1.08");
            }
        });
        ctx.addServletMappingDecoded("/quote", "quote");
        tomcat.start();
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() >= 0) {
            // until stdin closes
        }
        tomcat.stop();
        System.exit(0);
    }
}

/** Password checks: PBKDF2-HMAC-SHA256, 600,000 iterations. */
class Passwords {
    static final byte[] SALT = "dumpdiff-fixture-salt".getBytes();

    static boolean check(char[] password) {
        try {
            var spec = new PBEKeySpec(password, SALT, 600_000, 256);
            byte[] hash = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
            return hash.length == 32;
        } catch (Exception e) {
            return false;
        }
    }
}
