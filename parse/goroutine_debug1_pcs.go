package parse

import "strings"

// A debug=1 record prints every PC of its stack after "@" but a frame line
// only from the first frame outside the runtime: the runtime frames that
// say what the goroutine waits in (runtime.gopark ← runtime.selectgo,
// runtime.chanrecv1, runtime.semacquire1...) are hidden. Their PCs are
// still there, and a PC names one function of one binary: where a frame
// line of the same profile, or a proto or another debug=1 profile of the
// same binary, names the function at that PC, the hidden frames can be put
// back, as the proto prints them, and the signature table reads them there
// (never a guess from the name of a user frame).
//
//	3 @ 0x489b6e 0x41a5ae 0x41a0f2 0x6a69e5 0x491261    record: PCs are return addresses
//	#	0x6a69e4	main.worker+0x44	.../main.go:76      frame line: a call's PC, one less
//
// The proto's location addresses are a call's PC too (0x6a69e4 above).

// ResolveHiddenFrames returns d, a debug=1 dump, with the runtime frames
// its records hide put back where every hidden PC of a record is known:
// from d's own frame lines, then from others (dumps of the same moment or
// of other moments), each used only when it is the same binary as d: the
// PCs both name, at least one, name the same functions. d is not modified:
// a record given frames is a copy, and d itself is returned when no record
// is resolved or d is not a debug=1 dump. Cost: one map entry per distinct
// printed PC, once a dump; a few hundred records.
func ResolveHiddenFrames(d *Dump, others []*Dump) *Dump {
	if d == nil || d.Format != FormatGoDebug1 {
		return d
	}
	own := debug1PCTable(d)
	tables := []map[uint64][]*Frame{own}
	for _, o := range others {
		if o == nil || o == d {
			continue
		}
		var t map[uint64][]*Frame
		switch o.Format {
		case FormatGoProto:
			t = o.PCFrames
		case FormatGoDebug1:
			t = debug1PCTable(o)
		}
		if len(t) > 0 && sameBinary(own, t) {
			tables = append(tables, t)
		}
	}
	var out *Dump
	for i, t := range d.Threads {
		hidden := hiddenPCs(t)
		if len(hidden) == 0 {
			continue
		}
		var fs []*Frame
		for _, pc := range hidden {
			var got []*Frame
			for _, tab := range tables {
				if got = tab[pc-1]; got != nil {
					break
				}
			}
			if got == nil {
				fs = nil
				break
			}
			fs = append(fs, got...)
		}
		if fs == nil {
			continue
		}
		if out == nil {
			c := *d
			c.Threads = append([]*Thread(nil), d.Threads...)
			out = &c
		}
		nt := *t
		nt.Frames = append(fs, t.Frames...)
		out.Threads[i] = &nt
	}
	if out == nil {
		return d
	}
	return out
}

// HiddenRuntimeFrames is how many frames of a debug=1 record the profile
// hid above its first printed one (the runtime's: gopark under selectgo,
// chanrecv1...): the goroutine is in the runtime under that frame, parked
// in a channel operation or a select most often. 0 when none is hidden,
// the frames were put back (ResolveHiddenFrames), or t is no debug=1
// record.
func HiddenRuntimeFrames(t *Thread) int {
	if x := t.GoExtra; x != nil && len(x.FramePCs) > 0 && len(t.Frames) > len(x.FramePCs) {
		return 0 // resolved: a copy given the hidden frames
	}
	return len(hiddenPCs(t))
}

// hiddenPCs are the PCs of a record before its first printed frame: the
// runtime frames debug=1 does not print; nil when none is hidden or the
// record printed no PCs.
func hiddenPCs(t *Thread) []uint64 {
	x := t.GoExtra
	if x == nil || len(x.PCs) == 0 || len(x.FramePCs) == 0 {
		return nil
	}
	first := x.FramePCs[0]
	for k, pc := range x.PCs {
		if pc-1 == first {
			return x.PCs[:k]
		}
	}
	return nil
}

// debug1PCTable maps each printed frame line's PC to its frames (several
// at one PC when calls were inlined), first record first.
func debug1PCTable(d *Dump) map[uint64][]*Frame {
	tab := map[uint64][]*Frame{}
	for _, t := range d.Threads {
		x := t.GoExtra
		if x == nil || len(x.FramePCs) != len(t.Frames) {
			continue
		}
		seen := map[uint64]bool{}
		for i, pc := range x.FramePCs {
			if _, ok := tab[pc]; ok && !seen[pc] {
				continue // named by an earlier record
			}
			seen[pc] = true
			tab[pc] = append(tab[pc], t.Frames[i])
		}
	}
	return tab
}

// sameBinary: the PCs both tables name, at least one, name the same
// functions (generic type arguments aside: the proto prints
// "main.f[go.shape.int]", debug=1 "main.f[...]").
func sameBinary(a, b map[uint64][]*Frame) bool {
	agree := 0
	for pc, fa := range a {
		fb, ok := b[pc]
		if !ok || len(fa) == 0 || len(fb) == 0 {
			continue
		}
		if baseFunc(fa[0].Func) != baseFunc(fb[0].Func) {
			return false
		}
		agree++
	}
	return agree > 0
}

func baseFunc(fn string) string {
	if i := strings.IndexByte(fn, '['); i >= 0 {
		return fn[:i]
	}
	return fn
}
