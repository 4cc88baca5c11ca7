package parse

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteCanonical writes dumps in a stable, line-oriented text form: every
// field of the model that is set, one thread per block. It is what golden
// tests compare and what `dumpdiff parse --format text` prints.
func WriteCanonical(w io.Writer, dumps []*Dump) error {
	bw := bufio.NewWriter(w)
	for _, d := range dumps {
		fmt.Fprintf(bw, "dump %s format=%s threads=%d skipped=%d", d.Source, d.Format, d.ThreadCount(), len(d.Skipped))
		if !d.Time.IsZero() {
			fmt.Fprintf(bw, " time=%s", d.Time.Format("2006-01-02T15:04:05.999999999Z07:00"))
		}
		if d.Version != "" {
			fmt.Fprintf(bw, " version=%q", d.Version)
		}
		if d.ProcessID != 0 {
			fmt.Fprintf(bw, " pid=%d", d.ProcessID)
		}
		if d.Kind != "" {
			fmt.Fprintf(bw, " kind=%s", d.Kind)
		}
		if d.Prefix != "" {
			fmt.Fprintf(bw, " prefix=%q", d.Prefix)
		}
		if len(d.Joined) > 0 {
			fmt.Fprintf(bw, " joined=%d", len(d.Joined))
		}
		bw.WriteString("\n")
		if d.Headline != "" {
			fmt.Fprintf(bw, "  headline %q\n", d.Headline)
		}
		for _, t := range d.RunningTests {
			fmt.Fprintf(bw, "  running test %q\n", t)
		}
		if d.Excerpt != "" {
			fmt.Fprintf(bw, "  excerpt %q\n", d.Excerpt)
		}
		for _, t := range d.Threads {
			writeThread(bw, t)
		}
		for _, dl := range d.Deadlocks {
			fmt.Fprintf(bw, "  deadlock line=%d kind=%q\n", dl.Line, dl.Kind)
			for _, e := range dl.Cycle {
				fmt.Fprintf(bw, "    %q waiting=%q holder=%q\n", e.Thread, e.Waiting, e.Holder)
			}
		}
		for _, s := range d.Skipped {
			fmt.Fprintf(bw, "  skipped %d %q: %s\n", s.Line, s.Text, s.Reason)
		}
		for _, s := range d.Joined {
			fmt.Fprintf(bw, "  joined %d %q: %s\n", s.Line, s.Text, s.Reason)
		}
		for _, s := range d.Partial {
			fmt.Fprintf(bw, "  partial %d %q: %s\n", s.Line, s.Text, s.Reason)
		}
	}
	return bw.Flush()
}

func writeThread(w *bufio.Writer, t *Thread) {
	var b strings.Builder
	x := t.Extra()
	j := t.JVM // JVM fields print in their places; none for a goroutine
	if j == nil {
		j = &JVM{}
	}
	fmt.Fprintf(&b, "  thread")
	if t.ID != 0 {
		fmt.Fprintf(&b, " id=%d", t.ID)
	}
	if t.Name() != "" {
		fmt.Fprintf(&b, " name=%q", t.Name())
	}
	if t.Weight != 1 {
		fmt.Fprintf(&b, " weight=%d", t.Weight)
	}
	if j.NativeID != "" {
		fmt.Fprintf(&b, " nid=%s", j.NativeID)
	}
	if j.TID != "" {
		fmt.Fprintf(&b, " tid=%s", j.TID)
	}
	if j.Daemon {
		b.WriteString(" daemon")
	}
	if j.Virtual {
		b.WriteString(" virtual")
	}
	if j.Priority != 0 {
		fmt.Fprintf(&b, " prio=%d", j.Priority)
	}
	if j.OSPriority != 0 {
		fmt.Fprintf(&b, " os_prio=%d", j.OSPriority)
	}
	if t.State != "" {
		fmt.Fprintf(&b, " state=%q", t.State)
	}
	if j.StateDetail != "" {
		fmt.Fprintf(&b, " detail=%q", j.StateDetail)
	}
	if t.WaitMinutes != 0 {
		fmt.Fprintf(&b, " minutes=%d", t.WaitMinutes)
	}
	if j.CPU != 0 {
		fmt.Fprintf(&b, " cpu=%s", j.CPU)
	}
	if j.Elapsed != 0 {
		fmt.Fprintf(&b, " elapsed=%s", j.Elapsed)
	}
	if j.Allocated != 0 {
		fmt.Fprintf(&b, " allocated=%d", j.Allocated)
	}
	for _, f := range t.Flags() {
		fmt.Fprintf(&b, " flag=%q", f)
	}
	if x.Bubble != 0 {
		fmt.Fprintf(&b, " bubble=%d", x.Bubble)
	}
	if j.Carrier != "" {
		fmt.Fprintf(&b, " carrier=%q", j.Carrier)
	}
	if j.MountedVirtual != 0 {
		fmt.Fprintf(&b, " mounted=%d", j.MountedVirtual)
	}
	if j.Container != "" {
		fmt.Fprintf(&b, " container=%q", j.Container)
	}
	if t.NoStack {
		b.WriteString(" nostack")
	}
	if t.Line != 0 {
		fmt.Fprintf(&b, " line=%d", t.Line)
	}
	w.WriteString(b.String())
	w.WriteString("\n")
	if len(t.Labels) > 0 {
		keys := make([]string, 0, len(t.Labels))
		for k := range t.Labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		w.WriteString("    labels")
		for _, k := range keys {
			fmt.Fprintf(w, " %q=%q", k, t.Labels[k])
		}
		w.WriteString("\n")
	}
	for i, f := range t.Frames {
		writeFrame(w, "    ", f)
		for _, l := range t.Locks() {
			if l.Frame == i {
				writeLock(w, l)
			}
		}
	}
	if x.FramesElided {
		fmt.Fprintf(w, "    ...elided %d\n", x.ElidedCount)
	}
	for _, l := range t.Locks() {
		if l.Frame < 0 || l.Frame >= len(t.Frames) {
			writeLock(w, l)
		}
	}
	if c := t.CreatedBy; c != nil {
		fmt.Fprintf(w, "    created by %s %s:%d parent=%d\n", c.Func, c.File, c.Line, c.Parent)
	}
	for _, a := range x.Ancestors {
		fmt.Fprintf(w, "    ancestor %d\n", a.ID)
		for _, f := range a.Frames {
			writeFrame(w, "      ", f)
		}
	}
}

func writeFrame(w *bufio.Writer, indent string, f *Frame) {
	fmt.Fprintf(w, "%sat %s", indent, f.Func)
	if f.File != "" {
		fmt.Fprintf(w, " %s:%d", f.File, f.Line)
	}
	if f.Module != "" {
		fmt.Fprintf(w, " module=%s", f.Module)
	}
	if f.Note != "" {
		fmt.Fprintf(w, " (%s)", f.Note)
	}
	w.WriteString("\n")
}

func writeLock(w *bufio.Writer, l Lock) {
	fmt.Fprintf(w, "      - %s <%s> (%s)", l.Kind, l.Address, l.Class)
	if l.Owner != "" {
		fmt.Fprintf(w, " owner=%q", l.Owner)
	}
	if l.OwnerID != 0 {
		fmt.Fprintf(w, " owner_id=%d", l.OwnerID)
	}
	if l.From != "" {
		fmt.Fprintf(w, " from=%q", l.From)
	}
	w.WriteString("\n")
}
