import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

// Prints this JVM's threads from ThreadMXBean in the header families other
// tools write (parse/jvm_tool_headers.go), as their sources print them:
//   hash-inline: "NAME" #ID STATE on LOCK owned by "OWNER" #OID, frames, "- locked"
//   hash-state:  "NAME" #ID state=STATE, then "waiting on LOCK owned by "OWNER" #OID"
//   geode:       Apache Geode's ExecutorServiceRule.dumpThreads (apache/geode#3114):
//                "NAME" tid=0xID [owned by "OWNER" tid=0xOID], "- locked synchronizer",
//                "java.lang.Thread.State:", frames with "- waiting to lock <0x..>" / "- locked <0x..>"
// Modes: deadlock (two pool workers each holding the monitor the other wants),
// healthy (the same pool's two workers idle, waiting for tasks).
public class ToolHeaders {
  public static void main(String[] args) throws Exception {
    String family = args[0], mode = args[1];
    ExecutorService pool = Executors.newFixedThreadPool(2);
    if (mode.equals("deadlock")) {
      Object a = new Object(), b = new Object();
      CountDownLatch both = new CountDownLatch(2);
      pool.execute(() -> { synchronized (a) { both.countDown(); await(both); synchronized (b) { } } });
      pool.execute(() -> { synchronized (b) { both.countDown(); await(both); synchronized (a) { } } });
    } else {
      pool.execute(() -> { });
      pool.execute(() -> { });
    }
    Thread.sleep(500);
    for (ThreadInfo ti : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
      if (!ti.getThreadName().startsWith("pool-")) continue; // the pool's threads: the JVM's own are HotSpot's to print
      System.out.println(write(family, ti));
    }
    System.exit(0);
  }

  static String write(String family, ThreadInfo ti) {
    StringBuilder sb = new StringBuilder();
    String id = Long.toString(ti.getThreadId()), oid = Long.toString(ti.getLockOwnerId());
    switch (family) {
      case "hash-inline":
        sb.append('"').append(ti.getThreadName()).append("\" #").append(id).append(' ').append(ti.getThreadState());
        if (ti.getLockName() != null) sb.append(" on ").append(ti.getLockName());
        if (ti.getLockOwnerName() != null) sb.append(" owned by \"").append(ti.getLockOwnerName()).append("\" #").append(oid);
        sb.append('\n');
        frames(sb, ti, "\tat ", "\t- locked ", false);
        break;
      case "hash-state":
        sb.append('"').append(ti.getThreadName()).append("\" #").append(id).append(" state=").append(ti.getThreadState()).append('\n');
        if (ti.getLockInfo() != null) {
          sb.append("    waiting on ").append(ti.getLockInfo());
          if (ti.getLockOwnerName() != null) sb.append(" owned by \"").append(ti.getLockOwnerName()).append("\" #").append(oid);
          sb.append('\n');
        }
        frames(sb, ti, "    at ", "    - locked ", false);
        break;
      case "geode":
        sb.append('"').append(ti.getThreadName()).append("\" tid=0x").append(Long.toHexString(ti.getThreadId()));
        if (ti.getLockOwnerName() != null) sb.append(" owned by \"").append(ti.getLockOwnerName()).append("\" tid=0x").append(Long.toHexString(ti.getLockOwnerId()));
        sb.append('\n');
        for (LockInfo s : ti.getLockedSynchronizers()) {
          sb.append("   - locked synchronizer <0x").append(Integer.toHexString(s.getIdentityHashCode())).append("> (a ").append(s.getClassName()).append(")\n");
        }
        sb.append("   java.lang.Thread.State: ").append(ti.getThreadState()).append('\n');
        frames(sb, ti, "\tat ", "\t- locked ", true);
        break;
      default:
        throw new IllegalArgumentException(family);
    }
    return sb.toString();
  }

  static void frames(StringBuilder sb, ThreadInfo ti, String at, String locked, boolean jstackStyle) {
    StackTraceElement[] st = ti.getStackTrace();
    for (int i = 0; i < st.length; i++) {
      sb.append(at).append(st[i]).append('\n');
      if (i == 0 && jstackStyle && ti.getLockInfo() != null && ti.getThreadState() == Thread.State.BLOCKED) {
        sb.append("\t- waiting to lock <0x").append(Integer.toHexString(ti.getLockInfo().getIdentityHashCode())).append("> (a ").append(ti.getLockInfo().getClassName()).append(")\n");
      }
      for (MonitorInfo m : ti.getLockedMonitors()) {
        if (m.getLockedStackDepth() == i) {
          if (jstackStyle) sb.append(locked).append("<0x").append(Integer.toHexString(m.getIdentityHashCode())).append("> (a ").append(m.getClassName()).append(")\n");
          else sb.append(locked).append(m).append('\n');
        }
      }
    }
  }

  static void await(CountDownLatch l) {
    try { l.await(); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
  }
}
