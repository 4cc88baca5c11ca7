package analyze

import (
	"fmt"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// virtualHelpers are threads a JVM starts once it runs virtual threads:
// the unblocker that unblocks virtual threads after a monitor wait (JDK
// 24+, JEP 491), and the unparker that wakes timed parks and sleeps (JDK
// 21-23). A JVM that never ran a virtual thread has neither.
// Not a [roles] key: threads the JDK starts for virtual threads, a JDK
// fact.
var virtualHelpers = []string{"VirtualThread-unblocker", "VirtualThread-unparker"}

// showsVirtual reports whether a dump format lists virtual threads:
// Thread.dump_to_file (JSON and plain) does; jstack, jcmd Thread.print
// and Actuator's ThreadMXBean list platform threads only.
func showsVirtual(f parse.Format) bool {
	return f == parse.FormatJVMJSON || f == parse.FormatJVMPlain
}

// virtualThreadWarning says when a JVM runs virtual threads that its
// dumps cannot show: a carrier thread carrying one ("Carrying virtual
// thread #N"), or a helper thread only a JVM running them has. Every
// request on a virtual thread (Spring Boot 3.2+ with
// spring.threads.virtual.enabled) is then missing from the counts, and an
// incident among them is invisible. Empty when no moment shows it.
func virtualThreadWarning(labels []string, in []Input) string {
	var moments []string
	carriers, helper := 0, ""
	for i, x := range in {
		if x.Dump == nil || x.Dump.Format.Runtime() != parse.RuntimeJVM || showsVirtual(x.Dump.Format) {
			continue
		}
		seen := false
		for _, t := range x.Dump.Threads {
			j := t.Java()
			if j.MountedVirtual > 0 {
				carriers++
				seen = true
			}
			for _, h := range virtualHelpers {
				if t.Name() == h {
					helper, seen = h, true
				}
			}
		}
		if seen {
			moments = append(moments, labels[i])
		}
	}
	if len(moments) == 0 {
		return ""
	}
	var why []string
	if carriers > 0 {
		why = append(why, fmt.Sprintf("%d carrier threads each carry one", carriers))
	}
	if helper != "" {
		why = append(why, "its "+helper+" thread runs")
	}
	return fmt.Sprintf("%s: this JVM runs virtual threads (%s), and a jstack, Thread.print or Actuator dump lists platform threads only: "+
		"the virtual threads are not in these counts. To see them take a JSON dump: "+
		"jcmd PID Thread.dump_to_file -format=json FILE (JDK 21+; dumpdiff capture --pid PID does)",
		strings.Join(moments, ", "), strings.Join(why, "; "))
}
