package com.example.rwlock;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Read-write locks whose read holders no JVM prints (issue 33). Scenes:
 *
 * <pre>
 * upgrade  settings-refresher reads the settings under the read lock and, finding them stale,
 *          asks for the write lock without releasing the read lock (an upgrade, which
 *          ReentrantReadWriteLock never grants); three settings-writer-N threads queue for the
 *          write lock behind it.
 * leaked   index-loader takes the read lock and returns without unlocking (its thread ends);
 *          three index-writer-N threads wait for the write lock for ever.
 * healthy  four catalog-reader-N threads hold the read lock 20 ms at a time, catalog-writer takes
 *          the write lock every 50 ms for 5 ms: all progress.
 * </pre>
 *
 * Prints "ready" once its threads are started.
 */
public final class RwLockApp {
  static final class Settings {
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    final Map<String, String> values = new HashMap<>();
    long version;

    void refresh() {
      lock.readLock().lock();
      try {
        if (values.isEmpty()) {
          reload(); // upgrade: the read lock is still held
        }
      } finally {
        lock.readLock().unlock();
      }
    }

    void reload() {
      lock.writeLock().lock();
      try {
        values.put("k", "v");
        version++;
      } finally {
        lock.writeLock().unlock();
      }
    }

    void set(String k, String v) {
      lock.writeLock().lock();
      try {
        values.put(k, v);
        version++;
      } finally {
        lock.writeLock().unlock();
      }
    }
  }

  static final class Index {
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    int size;

    void load() {
      lock.readLock().lock();
      size = 1; // returns without unlock
    }

    void add() {
      lock.writeLock().lock();
      try {
        size++;
      } finally {
        lock.writeLock().unlock();
      }
    }
  }

  static final class Catalog {
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    int rows;

    int read() throws InterruptedException {
      lock.readLock().lock();
      try {
        Thread.sleep(20);
        return rows;
      } finally {
        lock.readLock().unlock();
      }
    }

    void write() throws InterruptedException {
      lock.writeLock().lock();
      try {
        Thread.sleep(5);
        rows++;
      } finally {
        lock.writeLock().unlock();
      }
    }
  }

  static void start(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.start();
  }

  static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "upgrade": {
        Settings s = new Settings();
        start("settings-refresher", s::refresh);
        pause(200);
        for (int i = 0; i < 3; i++) {
          int n = i;
          start("settings-writer-" + n, () -> s.set("w" + n, "x"));
        }
        break;
      }
      case "leaked": {
        Index x = new Index();
        Thread loader = new Thread(x::load, "index-loader");
        loader.start();
        loader.join();
        for (int i = 0; i < 3; i++) {
          start("index-writer-" + i, x::add);
        }
        break;
      }
      case "healthy": {
        Catalog c = new Catalog();
        for (int i = 0; i < 4; i++) {
          start("catalog-reader-" + i, () -> {
            while (true) {
              try {
                c.read();
                Thread.sleep(5);
              } catch (InterruptedException e) {
                return;
              }
            }
          });
        }
        start("catalog-writer", () -> {
          while (true) {
            try {
              c.write();
              Thread.sleep(50);
            } catch (InterruptedException e) {
              return;
            }
          }
        });
        break;
      }
      default:
        throw new IllegalArgumentException(args[0]);
    }
    pause(300);
    System.out.println("ready");
    Thread.sleep(Long.MAX_VALUE); // main waits; the dumps are taken from outside
  }
}
