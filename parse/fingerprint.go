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
// Cost: one pass over the threads, every field mixed into one 64-bit
// value with two multiplications (no hash.Hash writes: a field's worth
// of maphash.Write cost more than the rest); a string is hashed once
// (maphash.String), each distinct frame once (frames are interned per
// parse), each distinct stack once (a Go dump's goroutines of one stack
// share one slice: goroutine_build.go's trie). Three moments of 100,001
// goroutines (cachegrind, dumpdiff k1 k2 k3): 3.30G instructions in all
// with maphash.Hash writes, 2.40G now (the three fingerprints ~0.1G);
// TestFingerprintProperty holds what it must tell apart. Callers compute
// it only for dumps that a cheap key (time, format, thread count) cannot
// tell apart.
func (d *Dump) Fingerprint(seed maphash.Seed) uint64 {
	f := fingerprinter{seed: seed, acc: maphash.String(seed, "dumpdiff fingerprint"),
		frames: map[*Frame]uint64{}, stacks: map[stackKey]uint64{}}
	f.str(string(d.Format))
	f.str(d.Kind)
	f.str(d.Headline)
	if !d.Time.IsZero() {
		f.num(d.Time.UnixNano())
	} else {
		f.num(math.MinInt64)
	}
	f.num(int64(len(d.Threads)))
	for _, t := range d.Threads {
		f.num(t.ID)
		f.str(t.State)
		f.num(int64(t.Weight))
		f.num(int64(t.WaitMinutes))
		f.str(t.WaitAddr)
		if t.NoStack {
			f.num(1)
		}
		f.num(int64(len(t.Frames)))
		f.num(int64(f.stack(t.Frames)))
		if c := t.CreatedBy; c != nil {
			f.str(c.Func)
			f.num(int64(c.Line))
			f.num(c.Parent)
		}
		if len(t.Labels) > 0 { // in any map order
			f.num(int64(len(t.Labels)))
			f.num(int64(labelSum(seed, t.Labels)))
		}
		if j := t.JVM; j != nil {
			f.str(j.Name)
			f.str(j.NativeID)
			f.str(j.TID)
			f.str(j.StateDetail)
			f.num(int64(j.CPU))
			f.num(int64(j.Elapsed))
			f.num(j.Allocated)
			f.str(j.Carrier)
			f.num(j.MountedVirtual)
			for _, l := range j.Locks {
				f.str(string(l.Kind))
				f.str(l.Address)
				f.str(l.Class)
				f.num(int64(l.Frame))
				f.str(l.Owner)
			}
		}
	}
	return f.acc
}

// fingerprinter is Fingerprint's running value and memos. The last
// stack and the last strings hashed are kept beside the maps: goroutines
// of one pool come one after another, in one state (a map look-up costs
// as much as the hash of a short string).
type fingerprinter struct {
	seed    maphash.Seed
	acc     uint64
	frames  map[*Frame]uint64
	stacks  map[stackKey]uint64
	lastKey stackKey
	lastV   uint64
	strs    [4]struct {
		s string
		v uint64
	}
}

// stackKey names a frame slice: its first element and its length.
type stackKey struct {
	first **Frame
	n     int
}

// mix folds v into x: a multiply-xorshift round of splitmix64's finalizer
// over x ^ v, so that the order of the fields counts.
func mix(x, v uint64) uint64 {
	x ^= v
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

func (f *fingerprinter) num(v int64) { f.acc = mix(f.acc, uint64(v)) }

func (f *fingerprinter) str(s string) {
	if s == "" {
		f.acc = mix(f.acc, 0x9E3779B97F4A7C15) // one constant for every empty string
		return
	}
	k := len(s) & 3
	if c := &f.strs[k]; c.s == s {
		f.acc = mix(f.acc, c.v)
		return
	}
	v := maphash.String(f.seed, s)
	f.strs[k].s, f.strs[k].v = s, v
	f.acc = mix(f.acc, v)
}

// frame is a frame's hash, computed once a frame.
func (f *fingerprinter) frame(fr *Frame) uint64 {
	if v, ok := f.frames[fr]; ok {
		return v
	}
	v := maphash.String(f.seed, fr.Func)
	v = mix(v, maphash.String(f.seed, fr.File))
	v = mix(v, maphash.String(f.seed, fr.Module))
	v = mix(v, maphash.String(f.seed, fr.Note))
	v = mix(v, uint64(fr.Line))
	f.frames[fr] = v
	return v
}

// stack is a stack's hash, computed once a shared slice.
func (f *fingerprinter) stack(frames []*Frame) uint64 {
	if len(frames) == 0 {
		return 0
	}
	k := stackKey{&frames[0], len(frames)}
	if k == f.lastKey {
		return f.lastV
	}
	if v, ok := f.stacks[k]; ok {
		f.lastKey, f.lastV = k, v
		return v
	}
	v := uint64(len(frames))
	for _, fr := range frames {
		v = mix(v, f.frame(fr))
	}
	f.stacks[k] = v
	f.lastKey, f.lastV = k, v
	return v
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
