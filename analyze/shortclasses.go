package analyze

import (
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Frames printed without their packages (parse.Dump.ShortClasses:
// Eclipse's Copy Stack prints "Thread.sleep(long) line: not available")
// meet tables anchored on full names ("java.lang.Thread.sleep"). Before the
// build, such a dump's frames are given the package the tables know for
// their class and method, so that every row, every culprit's "is this the
// JDK's?" and every role reads them as they read a jstack.
//
// What keeps a short name from matching another package's class of the
// same simple name:
//   - only a dump whose format prints no package is qualified; a frame that
//     prints one (any other format) is compared whole, as before, so
//     com.acme.Thread.sleep never reads as java.lang.Thread.sleep;
//   - the key is the class and the method ("Thread.sleep",
//     "AbstractQueuedSynchronizer$ConditionObject.await"), never the class
//     alone: a user's class named like a JDK one, in a packageless paste,
//     is qualified only where it also has the method the table names;
//   - a key two tables' names share with different packages is qualified
//     only when the very same rows list both (one to the tables: Tomcat's
//     repackaged ThreadPoolExecutor.getTask and the JDK's) or both are the
//     JDK's (java., javax., jdk., sun., com.sun.: one class the JDK moved,
//     sun.misc.Unsafe.park and jdk.internal.misc.Unsafe.park) — to the
//     first listed; any other shared key is left short: which one ran
//     cannot be told, and a short frame matches no anchor.
//
// Cost: the index is built once an analysis that has such a dump; the
// frames of other dumps are not visited.

// shortIndex maps a short "Class.method" to the full name it is read as;
// "" for a key left short (ambiguous). A key ending in "*" is a method
// prefix ("Thread.sleepNanos*": JDK 25's sleepNanos and sleepNanos0), tried
// when the whole key is not found.
type shortIndex map[string]string

// full is the name fn (a short frame) is read as; "" when none.
func (idx shortIndex) full(fn string) string {
	if full, ok := idx[fn]; ok {
		return full
	}
	for m := len(fn) - 1; m > 0 && fn[m] != '.'; m-- {
		if full := idx[fn[:m]+"*"]; full != "" {
			return full[:len(full)-1] + fn[m:]
		}
	}
	return ""
}

// shortKey is full's class (its nested classes kept) and method without
// the package: "java.lang.Thread.sleep" → "Thread.sleep",
// "java.lang.Thread.sleepNanos*" → "Thread.sleepNanos*"; false for a name
// with no package, or with a wildcard anywhere but after a method's first
// letters (a package or class prefix names no one frame).
func shortKey(full string) (string, bool) {
	if strings.ContainsAny(full, "( ") || strings.HasSuffix(full, ".") || strings.IndexByte(full, '*') >= 0 && strings.IndexByte(full, '*') != len(full)-1 {
		return "", false
	}
	m := strings.LastIndexByte(full, '.')
	if m <= 0 {
		return "", false
	}
	c := strings.LastIndexByte(full[:m], '.')
	if c <= 0 || full[m+1] >= 'A' && full[m+1] <= 'Z' {
		return "", false // no package, or a class (a prefix of Within), not a method
	}
	return full[c+1:], true
}

// jdkName reports whether a full name is the JDK's own.
func jdkName(full string) bool {
	return anyPrefix(full, []string{"java.", "javax.", "jdk.", "sun.", "com.sun."})
}

// newShortIndex indexes the full names the JVM rows of table and the
// roles anchor on. Two full names of one key are one to the tables when
// the very same rows list them (Tomcat's repackaged ThreadPoolExecutor's
// getTask and the JDK's, both pool-idle's): either is as good, the first
// listed is taken.
func newShortIndex(table []Signature, roles *Roles) shortIndex {
	rows := map[string][]int{} // full name → the rows (and lists) that name it, in order
	var order []string
	add := func(full string, row int) {
		if _, ok := shortKey(full); !ok {
			return
		}
		r, seen := rows[full]
		if !seen {
			order = append(order, full)
		}
		if len(r) == 0 || r[len(r)-1] != row {
			rows[full] = append(r, row)
		}
	}
	for i := range table {
		s := &table[i]
		if s.Runtime != parse.RuntimeJVM {
			continue
		}
		for _, a := range s.Anchors {
			add(a, i)
		}
		for _, a := range s.Unless {
			add(a, i)
		}
		for _, a := range s.Within {
			add(a, i)
		}
	}
	for k, list := range [][]string{jvmParkFrames, roles.CPUNatives, roles.NotSpinning, taskFrames} {
		for _, a := range list {
			add(a, -1-k)
		}
	}
	idx := shortIndex{}
	first := map[string]string{}
	for _, full := range order {
		k, _ := shortKey(full)
		prev, seen := first[k]
		switch {
		case !seen:
			first[k], idx[k] = full, full
		case idx[k] == "":
		case slices.Equal(rows[prev], rows[full]), jdkName(prev) && jdkName(full):
			// One to the tables, or one JDK class moved: the first listed.
		default:
			idx[k] = "" // two owners: left short
		}
	}
	return idx
}

// qualifyShortClasses returns in with each dump that prints no package
// replaced by a copy whose frames carry the package the index knows for
// them; frames it does not know (the application's) are kept as printed.
// The dumps given are not modified.
func qualifyShortClasses(in []Input, table []Signature, roles *Roles) []Input {
	var idx shortIndex
	var out []Input
	for i, x := range in {
		if x.Dump == nil || !x.Dump.ShortClasses {
			continue
		}
		if idx == nil {
			idx = newShortIndex(table, roles)
			out = append([]Input(nil), in...)
		}
		out[i].Dump = qualifiedDump(x.Dump, idx)
	}
	if out == nil {
		return in
	}
	return out
}

// qualifiedDump is a shallow copy of d whose threads' frames are
// qualified by idx (a frame, shared by many threads, is qualified once).
func qualifiedDump(d *parse.Dump, idx shortIndex) *parse.Dump {
	c := *d
	c.Threads = make([]*parse.Thread, len(d.Threads))
	done := map[*parse.Frame]*parse.Frame{}
	for i, t := range d.Threads {
		tc := *t
		tc.Frames = make([]*parse.Frame, len(t.Frames))
		for j, f := range t.Frames {
			q, ok := done[f]
			if !ok {
				q = f
				if full := idx.full(f.Func); full != "" {
					fc := *f
					fc.Func = full
					q = &fc
				}
				done[f] = q
			}
			tc.Frames[j] = q
		}
		c.Threads[i] = &tc
	}
	return &c
}
