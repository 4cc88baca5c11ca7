package analyze

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// poolName returns the pool of a thread and whether it is internal to the
// runtime (kept out of verdicts).
func poolName(rt parse.Runtime, t *parse.Thread, opt Options) (string, bool) {
	if rt == parse.RuntimeGo {
		return goPool(t, opt)
	}
	if jvmInternal(t, opt.roleTable().JVMInternal) {
		return "jvm-internal", true
	}
	j := t.Java()
	if j.Container != "" && j.Container != "<root>" {
		return containerPool(j.Container), false
	}
	if j.Virtual && t.Name() == "" {
		return "virtual threads", false
	}
	if p, ok := renamedCommonWorker(t, opt); ok {
		return p, false
	}
	if p, ok := opt.jvmPools[t.Name()]; ok {
		return p, false
	}
	return jvmPoolPattern(t.Name()), false
}

// forkJoinWorkerFrames are the bottom frames of a ForkJoinPool's worker.
// Not a [roles] key: the JDK's ForkJoinPool, a JDK fact.
var forkJoinWorkerFrames = []string{"java.util.concurrent.ForkJoinWorkerThread.run",
	"java.util.concurrent.ForkJoinWorkerThread$InnocuousForkJoinWorkerThread.run"}

// commonPoolTasks are the tasks the JVM's common pool runs unless told
// otherwise: CompletableFuture's *Async without an executor, a parallel
// stream's.
// Not a [roles] key: what the JDK runs on its common pool by default, a
// JDK fact (a team's shared pool is common-pool).
var commonPoolTasks = []string{"java.util.concurrent.CompletableFuture$Async", "java.util.stream."}

// renamedCommonWorker pools a common-pool worker that its task renamed
// ("import-job-7") as the common pool it still is: a ForkJoinPool's worker
// (its bottom frame) under a name no ForkJoinPool gives, running a task
// the common pool runs by default, in a process that shows no worker of a
// pool of its own ("ForkJoinPool-1-worker-1"), which may run such tasks
// too. The frames print no pool (JDK 17 and 25 alike): a renamed worker at
// rest, or one of a process with its own pools, keeps its name.
func renamedCommonWorker(t *parse.Thread, opt Options) (string, bool) {
	n := len(t.Frames)
	if n == 0 || !anyPrefix(t.Frames[n-1].Func, forkJoinWorkerFrames) || strings.HasPrefix(t.Name(), "ForkJoinPool") ||
		opt.ownForkJoin || !anyFramePrefix(t, commonPoolTasks) {
		return "", false
	}
	return jvmCommonPool, true
}

// ownForkJoin reports whether one of names is a worker of a ForkJoinPool
// of the program's own ("ForkJoinPool-2-worker-1"), not the common pool.
func ownForkJoin(names map[string]string) bool {
	for name := range names {
		if rest, ok := strings.CutPrefix(name, "ForkJoinPool-"); ok && rest != "" && isDigit(rest[0]) {
			return true
		}
	}
	return false
}

// containerPool is a thread container's pool: its name with the identity
// hashes abstracted ("java.util.concurrent.ThreadPerTaskExecutor@3cefafdb"
// → "java.util.concurrent.ThreadPerTaskExecutor@*", "ForkJoinPool-1/
// jdk.internal.vm.SharedThreadContainer@29f6000c" → "...Container@*"). The
// hash is new in every process and every run, so without this the same
// executor is another pool in each process of a program; the container's
// kind is kept. Two executors of one kind in one process share the pool.
func containerPool(name string) string {
	if !strings.Contains(name, "@") {
		return name
	}
	var b strings.Builder
	for {
		at := strings.IndexByte(name, '@')
		if at < 0 {
			b.WriteString(name)
			return b.String()
		}
		end := at + 1
		for end < len(name) && isHexDigit(name[end]) {
			end++
		}
		b.WriteString(name[:at+1])
		if end > at+1 && (end == len(name) || name[end] == '/' || name[end] == ' ') {
			b.WriteByte('*') // an identity hash: Integer.toHexString(hashCode())
		} else {
			b.WriteString(name[at+1 : end])
		}
		name = name[end:]
	}
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
}

// jvmPoolPattern replaces the trailing counter of a thread name with "*":
// "http-nio-8080-exec-17" → "http-nio-8080-exec-*", "GC Thread#3" →
// "GC Thread#*". A name without a trailing counter is its own pool.
func jvmPoolPattern(name string) string {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == len(name) || i == 0 {
		return name
	}
	return name[:i] + "*"
}

// jvmInternal reports whether t is one of the JVM's own threads (names, a
// table of roles) doing the runtime's work. A runtime thread that runs
// the application's code is the application's work, whatever its name:
// the Finalizer in a finalize() that blocks (every finalizable object
// waits behind it), a Cleaner's action, a Swing handler on AWT's event
// thread. A thread a signatures file names (an agent's own) is internal
// whatever its frames: they are the agent's code.
func jvmInternal(t *parse.Thread, names []string) bool {
	if nameIn(t.Name(), names) {
		return !nameIn(t.Name(), jvmInternalNames) || !runsApplication(t)
	}
	// Non-Java threads print no stack: they belong to the VM.
	return t.NoStack && t.State == "" && len(t.Frames) == 0
}

// runtimePackages are the frames of a JVM's own code, of every vendor:
// the JDK's, OpenJ9's and IBM's, JRockit's; and of the IDE launcher
// IntelliJ puts in every JVM it starts (idea_rt: its Ctrl-Break monitor).
var runtimePackages = append([]string{"openj9.", "com.ibm.oti.", "com.ibm.jit.", "com.ibm.misc.", "com.ibm.lang.",
	"com.ibm.tools.attach.", "com.ibm.jvm.", "jrockit.", "bea.jrockit.", "com.jrockit.", "com.intellij.rt."}, jdkPackages...)

// runsApplication reports whether one of t's frames is outside the
// runtime's own packages.
func runsApplication(t *parse.Thread) bool {
	for _, f := range t.Frames {
		if !anyPrefix(f.Func, runtimePackages) {
			return true
		}
	}
	return false
}

// goPool names a goroutine's pool: a pprof label when asked for and
// present, else the creator function, else the bottom frame.
func goPool(t *parse.Thread, opt Options) (string, bool) {
	if key, ok := strings.CutPrefix(opt.PoolBy, "label:"); ok {
		if v, ok := t.Labels[key]; ok {
			return key + "=" + v, false
		}
	}
	fn := ""
	if t.CreatedBy != nil && t.CreatedBy.Func != "" && !opt.byEntry {
		fn = t.CreatedBy.Func
	} else if n := len(t.Frames); n > 0 {
		// No creator, or one known by its goroutine id alone (CockroachDB's
		// debug=3 proto, a debug=1 profile): the entry frame; where that is
		// the runtime's and the goroutine runs code of its own above it
		// (`go pprof.Do(ctx, labels, f)` enters at runtime/pprof.Do), the
		// outermost frame that is not the runtime's: that goroutine is the
		// program's work, not the runtime's.
		fn = t.Frames[n-1].Func
		if runtimeFunc(fn) {
			for i := n - 2; i >= 0; i-- {
				if f := t.Frames[i].Func; !runtimeFunc(f) {
					fn = f
					break
				}
			}
		}
	}
	fn = normalizeGeneric(fn)
	switch {
	case t.CreatedBy == nil && t.ID == 1:
		// Goroutine 1 is the main goroutine, whatever its stack shows at
		// the bottom (elided, a test binary's testing.(*M).Run...).
		return "main", false
	case fn == "":
		return "unknown", false
	case (t.CreatedBy == nil || opt.byEntry) && (fn == "main.main" || fn == "runtime.main"):
		return "main", false // the main goroutine itself; its children are the main.main pool
	case runtimeFunc(fn):
		return "runtime", true
	case strings.HasPrefix(fn, "net/http.(*Server).Serve"):
		return "net/http server connections", false
	case strings.HasPrefix(fn, "net/http.(*Transport).dialConn"), strings.HasPrefix(fn, "net/http.(*persistConn)"):
		return "net/http client connections", false
	case strings.HasPrefix(fn, "net/http.(*conn).serve"), strings.HasPrefix(fn, "net/http.(*connReader)"):
		return "net/http server connections", false
	}
	return fn, false
}

// runtimeFunc reports whether fn is the Go runtime's own (its packages,
// the internal ones, os/signal's loop).
func runtimeFunc(fn string) bool {
	return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "internal/") ||
		strings.HasPrefix(fn, "os/signal.") || strings.HasPrefix(fn, "runtime/")
}

// normalizeGeneric writes a generic Go function's type arguments as
// "[...]", the way debug=2 prints them, so that one function is one name
// in every encoding: the proto prints "main.worker[go.shape.string]",
// debug=2 "main.worker[...]". Non-generic names are returned as they are,
// without allocating.
func normalizeGeneric(fn string) string {
	i := strings.IndexByte(fn, '[')
	if i < 0 {
		return fn
	}
	var sb strings.Builder
	for i >= 0 {
		sb.WriteString(fn[:i])
		sb.WriteString("[...]")
		depth, j := 0, i
		for ; j < len(fn); j++ {
			if fn[j] == '[' {
				depth++
			} else if fn[j] == ']' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		if j >= len(fn) {
			return fn // unbalanced: leave it alone
		}
		fn = fn[j+1:]
		i = strings.IndexByte(fn, '[')
	}
	sb.WriteString(fn)
	return sb.String()
}
