package plugin;

/** A second plugin class, loaded by the same loader as Report. */
public class Audit {
	public static final long LOADED = System.nanoTime();
}
