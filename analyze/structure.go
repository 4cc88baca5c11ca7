package analyze

import "github.com/dumpdiff/dumpdiff/parse"

// What a stack's structure says beyond its top frame: whether the thread
// runs a task a pool gave it. A pool's worker waits for work in its own
// loop (getTask, awaitWork, a queue's take, the signature table's rest
// rows); above its run loop (taskFrames) it runs a task, and whatever it
// waits in there is the task's wait.

// inPoolTask reports whether t runs a task of a pool: one of taskFrames is
// on its stack (ThreadPoolExecutor.runWorker, FutureTask.run, Jetty's
// runJob...).
// A virtual thread is no pool's worker: one per task, by design.
func inPoolTask(t *parse.Thread) bool {
	if t.JVM != nil && t.Virtual {
		return false
	}
	for i, f := range t.Frames {
		if anyPrefix(f.Func, taskFrames) && (!anyPrefix(f.Func, taskLoops) || outsideJDK(t.Frames[:i])) {
			return true
		}
	}
	return false
}

// outsideJDK reports whether one of frames is outside the JDK's packages:
// the application's or a library's code.
func outsideJDK(frames []*parse.Frame) bool {
	for _, f := range frames {
		if !anyPrefix(f.Func, jdkPackages) {
			return true
		}
	}
	return false
}

// jdkPackages are the JDK's own frames: a task's wait is named by the
// first frame outside them.
// Not a [roles] key: the JDK's packages, a JDK fact.
var jdkPackages = []string{"java.", "javax.", "jdk.", "sun.", "com.sun."}

// taskCaller is the function of t's first frame outside the JDK, the one
// whose wait an unnamed park or Object.wait is ("com.example.Callback.block");
// "" when there is none.
func taskCaller(t *parse.Thread) string {
	for _, f := range t.Frames {
		if !anyPrefix(f.Func, jdkPackages) {
			return f.Func
		}
	}
	return ""
}

// tasks is how many of g's threads at moment m run a pool's task.
func (g *Group) tasks(m int) int {
	if m < 0 || m >= len(g.inTask) {
		return 0
	}
	return g.inTask[m]
}

// pooledWork reports whether most of g's threads at moment m run a task
// a pool gave them: their wait holds one of the pool's threads, and a
// small pool is judged by its share (a fixed pool of 8 with 8 held is
// stuck), not by a count made for large pools.
func (g *Group) pooledWork(m int) bool {
	return g.Counts[m] > 0 && 2*g.tasks(m) > g.Counts[m]
}
