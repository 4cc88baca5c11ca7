// Package hprofgen writes HotSpot-shaped HPROF 1.0.2 heap dumps from a
// description of their threads: for parse's property, truncation and fuzz
// tests, and, with a heap of filler objects, for the reader's benchmark
// (make bench-hprof). It writes what heapDumper.cpp writes, in its order:
// symbols, classes, frames and traces, then segments of class dumps, thread
// roots and objects; a test helper, imported by no package outside tests
// and the benchmark's generator.
package hprofgen

import (
	"bufio"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"unicode/utf16"
)

// Layout is the JDK whose java.lang.Thread and String the dump holds.
type Layout int

const (
	JDK8  Layout = 8  // Thread.name a char[], threadStatus on Thread; String.value a char[]
	JDK17 Layout = 17 // Thread.name a String (value byte[], coder); threadStatus on Thread
	JDK25 Layout = 25 // daemon, priority, threadStatus on Thread.holder (Thread$FieldHolder)
)

// Thread is one live thread of the dump.
type Thread struct {
	Name     string
	TID      int64
	Daemon   bool
	Priority int32
	Status   int32 // JVMTI state bits, as Thread.threadStatus holds them
	UTF16    bool  // the name's String has the UTF16 coder (JDK 9+)
	Frames   []Frame
	Blocker  bool // parked on a ReentrantLock$NonfairSync the next thread owns
}

// Frame is one stack frame.
type Frame struct {
	Class, Method, File string
	Line                int32 // -3 native
}

// Spec describes a dump.
type Spec struct {
	Layout  Layout
	IDSize  int // 4 or 8
	Millis  int64
	Threads []Thread
	// NamesFirst writes the threads' names (Strings and arrays) before
	// the thread objects, so that a reader needs a second pass.
	NamesFirst bool
	// FillerBytes adds about this many bytes of other objects (instances
	// and arrays of a class threads never name), in segments of 4 MiB.
	FillerBytes int64
	Seed        uint64
}

// writer writes big-endian numbers and ids.
type writer struct {
	w  *bufio.Writer
	id int
	n  int64
}

func (w *writer) u1(v byte) { w.w.WriteByte(v); w.n++ }
func (w *writer) u4(v uint32) {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], v)
	w.w.Write(b[:])
	w.n += 4
}
func (w *writer) u8(v uint64) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	w.w.Write(b[:])
	w.n += 8
}
func (w *writer) ident(v uint64) {
	if w.id == 4 {
		w.u4(uint32(v))
	} else {
		w.u8(v)
	}
}
func (w *writer) raw(b []byte) { w.w.Write(b); w.n += int64(len(b)) }

// rec writes a top-level record header.
func (w *writer) rec(tag byte, n int) { w.u1(tag); w.u4(0); w.u4(uint32(n)) }

// Write writes the dump spec describes to out and returns its size.
func Write(out io.Writer, spec Spec) (int64, error) {
	bw := bufio.NewWriterSize(out, 1<<20)
	w := &writer{w: bw, id: spec.IDSize}
	g := &gen{w: w, spec: spec, syms: map[string]uint64{}, classes: map[string]uint64{}}
	g.write()
	return w.n, bw.Flush()
}

type gen struct {
	w       *writer
	spec    Spec
	next    uint64 // ids: symbols, classes, objects
	syms    map[string]uint64
	classes map[string]uint64
	serials []string
}

func (g *gen) newID() uint64 { g.next += 8; return 0x1000 + g.next }

func (g *gen) sym(s string) uint64 {
	if id, ok := g.syms[s]; ok {
		return id
	}
	id := g.newID()
	g.syms[s] = id
	g.w.rec(0x01, g.w.id+len(s))
	g.w.ident(id)
	g.w.raw([]byte(s))
	return id
}

// field is an instance field.
type field struct {
	name string
	typ  byte
}

// class is a class to dump: name (internal form), super, fields.
type class struct {
	name, super string
	fields      []field
}

func (g *gen) layoutClasses() []class {
	obj, long, in, boo, byt := byte(2), byte(11), byte(10), byte(4), byte(8)
	cs := []class{{name: "java/lang/Object"}}
	switch g.spec.Layout {
	case JDK8:
		cs = append(cs,
			class{"java/lang/String", "java/lang/Object", []field{{"value", obj}, {"hash", in}}},
			class{"java/lang/Thread", "java/lang/Object", []field{{"name", obj}, {"priority", in}, {"threadQ", obj}, {"eetop", long},
				{"daemon", boo}, {"target", obj}, {"tid", long}, {"threadStatus", in}, {"parkBlocker", obj}}})
	case JDK17:
		cs = append(cs,
			class{"java/lang/String", "java/lang/Object", []field{{"value", obj}, {"coder", byt}, {"hash", in}, {"hashIsZero", boo}}},
			class{"java/lang/Thread", "java/lang/Object", []field{{"name", obj}, {"priority", in}, {"daemon", boo}, {"eetop", long},
				{"target", obj}, {"tid", long}, {"threadStatus", in}, {"parkBlocker", obj}}})
	default:
		cs = append(cs,
			class{"java/lang/String", "java/lang/Object", []field{{"value", obj}, {"coder", byt}, {"hash", in}, {"hashIsZero", boo}}},
			class{"java/lang/Thread", "java/lang/Object", []field{{"eetop", long}, {"tid", long}, {"name", obj}, {"interrupted", boo},
				{"holder", obj}, {"parkBlocker", obj}}},
			class{"java/lang/Thread$FieldHolder", "java/lang/Object", []field{{"group", obj}, {"task", obj}, {"stackSize", long},
				{"priority", in}, {"daemon", boo}, {"threadStatus", in}}})
	}
	cs = append(cs,
		class{"java/util/concurrent/locks/AbstractOwnableSynchronizer", "java/lang/Object", []field{{"exclusiveOwnerThread", obj}}},
		class{"java/util/concurrent/locks/AbstractQueuedSynchronizer", "java/util/concurrent/locks/AbstractOwnableSynchronizer", []field{{"head", obj}, {"tail", obj}, {"state", in}}},
		class{"java/util/concurrent/locks/ReentrantLock$NonfairSync", "java/util/concurrent/locks/AbstractQueuedSynchronizer", nil},
		class{"com/example/Worker", "java/lang/Thread", []field{{"task", obj}}},
		class{"com/example/Filler", "java/lang/Object", []field{{"next", obj}, {"count", in}, {"total", long}}},
	)
	return cs
}

func (g *gen) size(f field) int {
	switch f.typ {
	case 2:
		return g.w.id
	case 4, 8:
		return 1
	case 5, 9:
		return 2
	case 6, 10:
		return 4
	}
	return 8
}

// values are an instance's field values by name (ids, numbers).
type values map[string]uint64

// body writes an instance body: the class's fields, then its super's.
func (g *gen) body(cs map[string]class, name string, v values) []byte {
	var b []byte
	for c := name; c != ""; c = cs[c].super {
		for _, f := range cs[c].fields {
			x := v[f.name]
			switch g.size(f) {
			case 1:
				b = append(b, byte(x))
			case 2:
				b = binary.BigEndian.AppendUint16(b, uint16(x))
			case 4:
				b = binary.BigEndian.AppendUint32(b, uint32(x))
			default:
				b = binary.BigEndian.AppendUint64(b, x)
			}
		}
	}
	return b
}

// sub is a heap dump segment being built.
type sub struct {
	g   *gen
	buf []byte
}

func (s *sub) id(v uint64) {
	if s.g.w.id == 4 {
		s.buf = binary.BigEndian.AppendUint32(s.buf, uint32(v))
	} else {
		s.buf = binary.BigEndian.AppendUint64(s.buf, v)
	}
}
func (s *sub) u4(v uint32) { s.buf = binary.BigEndian.AppendUint32(s.buf, v) }
func (s *sub) u2(v uint16) { s.buf = binary.BigEndian.AppendUint16(s.buf, v) }

func (s *sub) instance(obj, class uint64, body []byte) {
	s.buf = append(s.buf, 0x21)
	s.id(obj)
	s.u4(1)
	s.id(class)
	s.u4(uint32(len(body)))
	s.buf = append(s.buf, body...)
}

func (s *sub) prim(obj uint64, typ byte, n int, data []byte) {
	s.buf = append(s.buf, 0x23)
	s.id(obj)
	s.u4(1)
	s.u4(uint32(n))
	s.buf = append(s.buf, typ)
	s.buf = append(s.buf, data...)
}

// flush writes the segment as a HEAP DUMP SEGMENT record.
func (s *sub) flush() {
	if len(s.buf) == 0 {
		return
	}
	s.g.w.rec(0x1C, len(s.buf))
	s.g.w.raw(s.buf)
	s.buf = s.buf[:0]
}

func (g *gen) write() {
	w := g.w
	w.raw(append([]byte("JAVA PROFILE 1.0.2"), 0))
	w.u4(uint32(w.id))
	w.u8(uint64(g.spec.Millis))
	cs := g.layoutClasses()
	byName := map[string]class{}
	for _, c := range cs {
		byName[c.name] = c
		g.sym(c.name)
		for _, f := range c.fields {
			g.sym(f.name)
		}
	}
	for _, t := range g.spec.Threads {
		for _, f := range t.Frames {
			g.sym(f.Class)
			g.sym(f.Method)
			g.sym("()V")
			if f.File != "" {
				g.sym(f.File)
			}
		}
	}
	// LOAD CLASS: the dump's classes and the frames' classes.
	load := func(name string) {
		if _, ok := g.classes[name]; ok {
			return
		}
		id := g.newID()
		g.classes[name] = id
		g.serials = append(g.serials, name)
		w.rec(0x02, 8+2*w.id)
		w.u4(uint32(len(g.serials)))
		w.ident(id)
		w.u4(1)
		w.ident(g.sym(name))
	}
	for _, c := range cs {
		load(c.name)
	}
	for _, t := range g.spec.Threads {
		for _, f := range t.Frames {
			load(f.Class)
		}
	}
	serial := map[string]uint32{}
	for i, n := range g.serials {
		serial[n] = uint32(i + 1)
	}
	// FRAME and TRACE records: trace 1 empty, then one a thread.
	w.rec(0x05, 12)
	w.u4(1)
	w.u4(0)
	w.u4(0)
	frame := uint64(0)
	for i, t := range g.spec.Threads {
		first := frame
		for _, f := range t.Frames {
			frame++
			w.rec(0x04, 4*w.id+8)
			w.ident(frame)
			w.ident(g.sym(f.Method))
			w.ident(g.sym("()V"))
			if f.File != "" {
				w.ident(g.sym(f.File))
			} else {
				w.ident(0)
			}
			w.u4(serial[f.Class])
			w.u4(uint32(f.Line))
		}
		w.rec(0x05, 12+len(t.Frames)*w.id)
		w.u4(uint32(i + 2))
		w.u4(uint32(i + 1))
		w.u4(uint32(len(t.Frames)))
		for j := range t.Frames {
			w.ident(first + uint64(j) + 1)
		}
	}
	s := &sub{g: g}
	for _, c := range cs {
		s.buf = append(s.buf, 0x20)
		s.id(g.classes[c.name])
		s.u4(1)
		if c.super != "" {
			s.id(g.classes[c.super])
		} else {
			s.id(0)
		}
		for range 5 {
			s.id(0)
		}
		s.u4(uint32(len(g.body(byName, c.name, nil))))
		s.u2(0)
		s.u2(0)
		s.u2(uint16(len(c.fields)))
		for _, f := range c.fields {
			s.id(g.sym(f.name))
			s.buf = append(s.buf, f.typ)
		}
	}
	// Thread objects, their names, holders and locks.
	type obj struct {
		thread, name, value, holder, sync uint64
	}
	objs := make([]obj, len(g.spec.Threads))
	for i := range objs {
		objs[i] = obj{thread: g.newID(), name: g.newID(), value: g.newID(), holder: g.newID(), sync: g.newID()}
	}
	for i := range g.spec.Threads {
		s.buf = append(s.buf, 0x08)
		s.id(objs[i].thread)
		s.u4(uint32(i + 1))
		s.u4(uint32(i + 2))
	}
	names := func() {
		for i, t := range g.spec.Threads {
			o := objs[i]
			if g.spec.Layout == JDK8 {
				u := utf16.Encode([]rune(t.Name))
				var data []byte
				for _, c := range u {
					data = binary.BigEndian.AppendUint16(data, c)
				}
				s.prim(o.name, 5, len(u), data)
				continue
			}
			coder := uint64(0)
			var data []byte
			if t.UTF16 {
				coder = 1
				for _, c := range utf16.Encode([]rune(t.Name)) {
					data = binary.LittleEndian.AppendUint16(data, c)
				}
			} else {
				for _, r := range t.Name {
					data = append(data, byte(r)) // the caller gives Latin-1 runes
				}
			}
			s.instance(o.name, g.classes["java/lang/String"], g.body(byName, "java/lang/String", values{"value": o.value, "coder": coder}))
			s.prim(o.value, 8, len(data), data)
		}
	}
	if g.spec.NamesFirst {
		names()
	}
	for i, t := range g.spec.Threads {
		o := objs[i]
		v := values{"name": o.name, "tid": uint64(t.TID), "eetop": 0x7f0000000000 + uint64(i)*0x1000, "priority": uint64(t.Priority),
			"threadStatus": uint64(uint32(t.Status)), "holder": o.holder}
		if t.Daemon {
			v["daemon"] = 1
		}
		if t.Blocker && i+1 < len(objs) {
			v["parkBlocker"] = objs[i+1].sync
		}
		cls := "java/lang/Thread"
		if i%3 == 2 {
			cls = "com/example/Worker" // a subclass: its fields first, then Thread's
		}
		s.instance(o.thread, g.classes[cls], g.body(byName, cls, v))
		if g.spec.Layout == JDK25 {
			s.instance(o.holder, g.classes["java/lang/Thread$FieldHolder"], g.body(byName, "java/lang/Thread$FieldHolder", v))
		}
		if i > 0 && g.spec.Threads[i-1].Blocker {
			s.instance(o.sync, g.classes["java/util/concurrent/locks/ReentrantLock$NonfairSync"],
				g.body(byName, "java/util/concurrent/locks/ReentrantLock$NonfairSync", values{"exclusiveOwnerThread": o.thread, "state": 1}))
		}
	}
	if !g.spec.NamesFirst {
		names()
	}
	s.flush()
	g.filler(s, byName)
	w.rec(0x2C, 0)
}

// filler writes about FillerBytes of objects no thread names, about 80
// bytes a record as in a Java heap: small instances (7 in 10), byte[] of
// 16-255 bytes (2 in 10), object arrays of 1-16 elements, and one byte[]
// of 1 MiB in 100,000 (read past by seeking).
func (g *gen) filler(s *sub, cs map[string]class) {
	if g.spec.FillerBytes <= 0 {
		return
	}
	rng := rand.New(rand.NewPCG(g.spec.Seed, 1))
	fc := g.classes["com/example/Filler"]
	arr := make([]byte, 1<<20)
	for i := range arr {
		arr[i] = byte(rng.IntN(256))
	}
	written := int64(0)
	for written < g.spec.FillerBytes {
		before := len(s.buf)
		id := g.newID()
		switch r := rng.IntN(100_000); {
		case r == 0:
			s.prim(id, 8, len(arr), arr) // a buffer of 1 MiB, one in 100,000
		case r < 70_000:
			s.instance(id, fc, g.body(cs, "com/example/Filler", values{"next": id - 8, "count": uint64(r), "total": id}))
		case r < 90_000:
			n := 16 + rng.IntN(240)
			s.prim(id, 8, n, arr[:n])
		default:
			n := 1 + rng.IntN(16)
			s.buf = append(s.buf, 0x22)
			s.id(id)
			s.u4(1)
			s.u4(uint32(n))
			s.id(fc)
			for j := range n {
				s.id(id - uint64(j+1)*8)
			}
		}
		written += int64(len(s.buf) - before)
		if len(s.buf) >= 4<<20 {
			s.flush() // segments of 4 MiB (HotSpot's run to about 1 GiB)
		}
	}
	s.flush()
}
