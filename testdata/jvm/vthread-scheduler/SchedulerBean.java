import java.lang.management.ManagementFactory;
import jdk.management.VirtualThreadSchedulerMXBean;
public class SchedulerBean { public static void main(String[] a) throws Exception {
  for (int i=0;i<20;i++) Thread.ofVirtual().start(() -> { long x=0; while(true){x++; if (x==-1) break;} });
  Thread.sleep(500);
  System.out.println(ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class));
  System.exit(0);
}}
