package plugin;

/** A plugin class, compiled apart and served by the "repository" (not on the class path). */
public class Report {
	public static final long LOADED = System.nanoTime();
}
