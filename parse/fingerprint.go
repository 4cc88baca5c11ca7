package parse

import (
	"hash/maphash"
	"math"
)

// Fingerprint is a hash of what d says about its process: its format, its
// time, and every thread's id, name, state, wait, CPU, stack and lock
// lines. Two dumps with equal fingerprints (under one seed) hold the same
// threads in the same places: a copy of one dump, the same dump read out
// of two log files, or a re-download. Where the dump came from (Source),
// the prefix it was read through, what was skipped and the runtime's
// version line are left out, so a dump and its pasted copy agree.
//
// Cost: one pass over the threads; each distinct frame (frames are
// interned per parse) is hashed once. Callers compute it only for dumps
// that a cheap key (time, format, thread count) cannot tell apart.
func (d *Dump) Fingerprint(seed maphash.Seed) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	frames := map[*Frame]uint64{}
	frame := func(f *Frame) uint64 {
		if v, ok := frames[f]; ok {
			return v
		}
		var fh maphash.Hash
		fh.SetSeed(seed)
		fh.WriteString(f.Func)
		fh.WriteByte(0)
		fh.WriteString(f.File)
		fh.WriteByte(0)
		fh.WriteString(f.Module)
		fh.WriteByte(0)
		fh.WriteString(f.Note)
		v := fh.Sum64() ^ uint64(f.Line)*0x9E3779B97F4A7C15
		frames[f] = v
		return v
	}
	num := func(v int64) {
		var b [8]byte
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		h.Write(b[:])
	}
	str := func(s string) {
		h.WriteString(s)
		h.WriteByte(0)
	}
	str(string(d.Format))
	str(d.Kind)
	str(d.Headline)
	if !d.Time.IsZero() {
		num(d.Time.UnixNano())
	} else {
		num(math.MinInt64)
	}
	num(int64(len(d.Threads)))
	for _, t := range d.Threads {
		num(t.ID)
		str(t.State)
		num(int64(t.Weight))
		num(int64(t.WaitMinutes))
		str(t.WaitAddr)
		if t.NoStack {
			h.WriteByte(1)
		}
		num(int64(len(t.Frames)))
		for _, f := range t.Frames {
			num(int64(frame(f)))
		}
		if c := t.CreatedBy; c != nil {
			str(c.Func)
			num(int64(c.Line))
			num(c.Parent)
		}
		if len(t.Labels) > 0 { // in any map order
			num(int64(len(t.Labels)))
			num(int64(labelSum(seed, t.Labels)))
		}
		if j := t.JVM; j != nil {
			str(j.Name)
			str(j.NativeID)
			str(j.TID)
			str(j.StateDetail)
			num(int64(j.CPU))
			num(int64(j.Elapsed))
			num(j.Allocated)
			str(j.Carrier)
			num(j.MountedVirtual)
			for _, l := range j.Locks {
				str(string(l.Kind))
				str(l.Address)
				str(l.Class)
				num(int64(l.Frame))
				str(l.Owner)
			}
		}
	}
	return h.Sum64()
}

// labelSum hashes a label set whatever its map order.
func labelSum(seed maphash.Seed, labels map[string]string) uint64 {
	var sum uint64
	for k, v := range labels {
		var lh maphash.Hash
		lh.SetSeed(seed)
		lh.WriteString(k)
		lh.WriteByte(0)
		lh.WriteString(v)
		sum += lh.Sum64()
	}
	return sum
}
