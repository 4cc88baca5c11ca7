package analyze

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// A JVM's lifetime threads are started when the JVM starts and end when it
// exits: one OS thread each for the whole life of the process. Two moments
// in which such threads are other OS threads (their nids) are two processes,
// or one JVM restarted between them: the moments compare what is not one
// process, and what "stayed" or "never recovered" means nothing across
// them. A pid or a runtime version printed by both and not the same says
// it too. (Go dumps print nothing that names the process: goroutine ids
// start over alike in every process.)
// Not a [roles] key: threads every HotSpot JVM starts once, a JDK fact.
var jvmLifetimeThreads = []string{"Reference Handler", "Finalizer", "Signal Dispatcher"}

// versionToken is a runtime version's number as every format prints it:
// "25.0.3+9-LTS", "17.0.15+6-Debian", "25.91-b14" (HotSpot 8's VM).
var versionToken = regexp.MustCompile(`\d+(?:[.+]\d+)+(?:-[A-Za-z0-9.]+)?`)

// processWarnings says each two consecutive moments of one target that
// are not of one process, and why.
func processWarnings(ms []Moment) []string {
	var out []string
	for i := 1; i < len(ms); i++ {
		a, b := ms[i-1], ms[i]
		if a.Dump == nil || b.Dump == nil || a.Target != b.Target ||
			a.Dump.Format.Runtime() != parse.RuntimeJVM || b.Dump.Format.Runtime() != parse.RuntimeJVM {
			continue
		}
		if why := notOneJVM(a.Dump, b.Dump); len(why) > 0 {
			out = append(out, fmt.Sprintf("%s and %s are not one process: %s; the moments compare different processes "+
				"(or the JVM restarted between them): give the dumps of one process, or read each alone", a.Label, b.Label, strings.Join(why, "; ")))
		}
	}
	return out
}

// notOneJVM is why a and b cannot be dumps of one running JVM; nil when
// nothing printed in both says so.
func notOneJVM(a, b *parse.Dump) []string {
	var why []string
	if a.ProcessID != 0 && b.ProcessID != 0 && a.ProcessID != b.ProcessID {
		why = append(why, fmt.Sprintf("pid %d, then %d", a.ProcessID, b.ProcessID))
	}
	// Each format prints the version its way ("OpenJDK 64-Bit Server VM
	// (25.0.3+9-LTS mixed mode, sharing)" in a text dump, "25.0.3+9-LTS"
	// in a JSON one): the version numbers are compared.
	if va, vb := versionToken.FindString(a.Version), versionToken.FindString(b.Version); va != "" && vb != "" && va != vb {
		why = append(why, fmt.Sprintf("runtime %s, then %s", va, vb))
	}
	// Every lifetime thread printed in both another OS thread, two at
	// least: one alone could be an application's thread named alike
	// where the JVM's own was left out of a paste.
	na, nb := lifetimeNIDs(a), lifetimeNIDs(b)
	compared, differ, first := 0, 0, ""
	for _, name := range jvmLifetimeThreads {
		x, okA := na[name]
		y, okB := nb[name]
		if !okA || !okB {
			continue
		}
		compared++
		if x != y {
			differ++
			if first == "" {
				first = fmt.Sprintf("its %q thread is another OS thread (nid %#x, then %#x)", name, x, y)
			}
		}
	}
	if compared >= 2 && differ == compared {
		why = append(why, first)
	}
	return why
}

// lifetimeNIDs are the native ids of d's lifetime threads that appear
// once with a nid printed (a name seen twice is no lifetime thread of one
// JVM: a file of two processes, or an application's thread named alike).
func lifetimeNIDs(d *parse.Dump) map[string]uint64 {
	out := map[string]uint64{}
	seen := map[string]int{}
	for _, t := range d.Threads {
		if t.JVM == nil || t.JVM.Virtual {
			continue
		}
		name := t.JVM.Name
		if !slices.Contains(jvmLifetimeThreads, name) {
			continue
		}
		seen[name]++
		if n, ok := nativeID(t.JVM.NativeID); ok {
			out[name] = n
		}
	}
	for name, c := range seen {
		if c > 1 {
			delete(out, name)
		}
	}
	return out
}

// nativeID reads a nid as printed: hex with 0x (HotSpot), or decimal.
func nativeID(s string) (uint64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		n, err := strconv.ParseUint(h, 16, 64)
		return n, err == nil && n != 0
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil && n != 0
}
