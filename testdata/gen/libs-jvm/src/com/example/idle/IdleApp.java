package com.example.idle;

import com.example.util.Threads;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.rmi.registry.LocateRegistry;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

/**
 * IdleApp is a service at rest, made of the machinery that waits for work in its own loop:
 * a Quartz scheduler (3 workers, one job due in an hour), a JMX connector over RMI on
 * 127.0.0.1 with a client connected to it (the server's connection thread waits for the next
 * call), a java.net.http client (its selector manager), a scheduled executor with a task due
 * in an hour. Started with -agentlib:jdwp it has the debugger's threads too.
 *
 * With "stuck" one Quartz job runs now and reads from a socket that never answers (the
 * accept side is in this JVM and never writes): that worker is busy in a socket read, not
 * idle, while the rest stays at rest.
 */
public final class IdleApp {
    public static void main(String[] args) throws Exception {
        boolean stuck = args.length > 0 && args[0].equals("stuck");

        Properties q = new Properties();
        q.setProperty("org.quartz.scheduler.instanceName", "IdleScheduler");
        q.setProperty("org.quartz.threadPool.threadCount", "3");
        q.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        q.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        Scheduler scheduler = new StdSchedulerFactory(q).getScheduler();
        scheduler.start();
        scheduler.scheduleJob(JobBuilder.newJob(Nothing.class).withIdentity("hourly").build(),
                TriggerBuilder.newTrigger().startAt(new java.util.Date(System.currentTimeMillis() + 3_600_000))
                        .withSchedule(SimpleScheduleBuilder.repeatHourlyForever()).build());
        if (stuck) {
            ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            java.util.List<Socket> accepted = new java.util.ArrayList<>(); // kept: a collected socket closes
            Threads.start("silent-peer", () -> {
                try {
                    while (true) {
                        accepted.add(silent.accept()); // never answers
                    }
                } catch (Exception e) {
                }
            });
            ReadForever.port = silent.getLocalPort();
            scheduler.scheduleJob(JobBuilder.newJob(ReadForever.class).withIdentity("report").build(),
                    TriggerBuilder.newTrigger().startNow().build());
        }

        int port;
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        System.setProperty("java.rmi.server.hostname", "127.0.0.1");
        LocateRegistry.createRegistry(port);
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
        JMXConnectorServer jmx = JMXConnectorServerFactory.newJMXConnectorServer(url, null, ManagementFactory.getPlatformMBeanServer());
        jmx.start();
        JMXConnector client = JMXConnectorFactory.connect(url);
        MBeanServerConnection conn = client.getMBeanServerConnection();
        conn.getMBeanCount(); // one call: the connection is open and idle

        HttpClient http = HttpClient.newHttpClient();

        ScheduledExecutorService timers = Executors.newScheduledThreadPool(2, Threads.named("timer-", true));
        timers.schedule(() -> {}, 1, TimeUnit.HOURS);

        System.out.println("ready " + (http != null) + " " + conn.getDefaultDomain());
        Threads.awaitShutdown();
    }

    /** Nothing is a job that does nothing. */
    public static final class Nothing implements Job {
        public void execute(JobExecutionContext c) {}
    }

    /** ReadForever reads from a peer that never writes, with no timeout. */
    public static final class ReadForever implements Job {
        static volatile int port;

        public void execute(JobExecutionContext c) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                InputStream in = s.getInputStream();
                in.read();
            } catch (Exception e) {
            }
        }
    }
}
