package parse

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf16"
)

// A HotSpot heap dump (HPROF 1.0.2, as -XX:+HeapDumpOnOutOfMemoryError,
// jcmd GC.heap_dump and jmap -dump write it) read as one moment: the
// threads the JVM had when it wrote the file, at the header's time.
//
// What the file holds for threads, as HotSpot writes it (heapDumper.cpp):
//
//   - UTF8 records: every symbol of the JVM (class, method, field and file
//     names), first in the file.
//   - LOAD CLASS: a class's serial, object id and name.
//   - STACK FRAME and STACK TRACE: each thread's stack, frame by frame
//     (method, signature, source file, class serial, line; -3 for a native
//     method), a trace naming its thread serial. The thread that hit an
//     OutOfMemoryError gets a first frame of OutOfMemoryError.<init>.
//   - In HEAP DUMP SEGMENTs: CLASS DUMPs (super class, instance field names
//     and types), ROOT THREAD OBJECT (a thread object id, its thread serial
//     and stack trace serial), the roots each frame holds (ROOT JAVA FRAME,
//     ROOT JNI LOCAL), and every object: INSTANCE DUMPs with their field
//     values, object and primitive arrays.
//
// A thread's name, id, daemon flag, priority and state are fields of its
// java.lang.Thread object: name (a String, a char[] on JDK 8), tid, daemon,
// priority and threadStatus (JVMTI state bits) on JDK 8-18; on JDK 19+ the
// last three are fields of Thread.holder (a Thread$FieldHolder). eetop is
// the JavaThread's address, jstack's tid=. A virtual thread (JDK 21+)
// keeps its state in VirtualThread.state, whose values differ by release:
// it is marked virtual and its state is left unsaid.
//
// Locks: the file says which lock object a parked thread waits for
// (Thread.parkBlocker: jstack's "parking to wait for") and which thread
// owns each java.util.concurrent lock (AbstractOwnableSynchronizer's
// exclusiveOwnerThread: jstack -l's "Locked ownable synchronizers"); both
// are read. It does not say who owns a monitor (synchronized) or which one
// a BLOCKED thread waits for: HotSpot writes no monitor records since JDK
// 16 (ROOT MONITOR USED named no owner before), and the objects a frame
// holds (ROOT JAVA FRAME) are its locals, locked or not. A heap dump of a
// monitor pile-up shows the BLOCKED threads and their stacks, not the lock.
//
// Memory: the file is read as a stream of records; instance and array
// bodies are skipped by their lengths unless they are one of the few
// objects threads need. What is kept is the symbols, the classes' field
// layouts, the frames of the threads' stacks, the thread objects and the
// ids still wanted: none of it grows with the heap, and all of it counts
// against Options.HPROFBudget (256 MiB), so a hostile file ends with an error, not with the
// machine's memory.
//
// Passes: a thread's name is a String whose byte[] may lie anywhere in the
// heap, before the thread object or after it (the heap is written in
// address order, not in the order objects refer to each other). The first
// pass reads the threads and every object they name that comes after them;
// when some came before, a further pass reads only those ids (String, then
// its array: at most hprofPasses passes, each one skipping all but the ids
// gathered). A file is read again from its start (a gzip stream
// decompressed again); standard input cannot be, and what the one pass did
// not find is said in Dump.Skipped.

// hprofMagic starts every HPROF file ("JAVA PROFILE 1.0.1" for old dumps of
// small heaps, 1.0.2 since).
var hprofMagic = []byte("JAVA PROFILE 1.0.")

// isHPROF reports whether head starts an HPROF file.
func isHPROF(head []byte) bool { return bytes.HasPrefix(head, hprofMagic) }

// hprofPasses is the most passes over a file: the first, then at most three
// for objects that came before what names them (Thread -> String -> byte[],
// or Thread -> holder).
const hprofPasses = 4

// hprofMaxBody is the largest object body read whole (a thread object, a
// String, a name's array); a longer name is cut to it.
const hprofMaxBody = 64 << 10

// HPROF record tags (top level).
const (
	hprofUTF8        = 0x01
	hprofLoadClass   = 0x02
	hprofTagFrame    = 0x04
	hprofTagTrace    = 0x05
	hprofHeapDump    = 0x0C
	hprofHeapSegment = 0x1C
	hprofHeapEnd     = 0x2C
)

// HPROF heap dump sub-record tags.
const (
	hprofRootUnknown     = 0xFF
	hprofRootJNIGlobal   = 0x01
	hprofRootJNILocal    = 0x02
	hprofRootJavaFrame   = 0x03
	hprofRootNativeStack = 0x04
	hprofRootStickyClass = 0x05
	hprofRootThreadBlock = 0x06
	hprofRootMonitorUsed = 0x07
	hprofRootThreadObj   = 0x08
	hprofClassDump       = 0x20
	hprofInstanceDump    = 0x21
	hprofObjArrayDump    = 0x22
	hprofPrimArrayDump   = 0x23
)

// HPROF basic types.
const (
	hprofObject  = 2
	hprofBoolean = 4
	hprofChar    = 5
	hprofFloat   = 6
	hprofDouble  = 7
	hprofByte    = 8
	hprofShort   = 9
	hprofInt     = 10
	hprofLong    = 11
)

// hprofTypeSize is the size of a value of basic type t (an object: the id
// size); 0 for a type HPROF does not define.
func hprofTypeSize(t byte, id int) int {
	switch t {
	case hprofObject:
		return id
	case hprofBoolean, hprofByte:
		return 1
	case hprofChar, hprofShort:
		return 2
	case hprofFloat, hprofInt:
		return 4
	case hprofDouble, hprofLong:
		return 8
	}
	return 0
}

// hprofField is one instance field of a class dump.
type hprofField struct {
	name uint64 // UTF8 id
	typ  byte
}

// hprofClass is a class dump: its super class and instance fields.
type hprofClass struct {
	super  uint64
	fields []hprofField
}

// hprofFrame is a STACK FRAME record.
type hprofFrame struct {
	method, file uint64 // UTF8 ids; 0 when none
	class        uint32 // class serial
	line         int32  // > 0 a line; 0 or -1 none; -2 compiled; -3 native
}

// hprofTrace is a STACK TRACE record.
type hprofTrace struct {
	thread uint32 // thread serial
	frames []uint64
}

// hprofRoot is a ROOT THREAD OBJECT: a live thread.
type hprofRoot struct {
	obj    uint64
	serial uint32 // thread serial
	trace  uint32 // stack trace serial
}

// hprofThreadObj is what a Thread object's fields say.
type hprofThreadObj struct {
	class    uint64
	name     uint64 // a String (JDK 9+) or a char[] (JDK 8); 0 when null
	tid      int64
	eetop    uint64
	daemon   bool
	priority int32
	status   int32 // JVMTI thread state bits; -1 when read from no field
	holder   uint64
	blocker  uint64
	virtual  bool
	carrier  uint64
}

// hprofLayout is where a class's instances hold the fields threads need:
// byte offsets into an instance body, -1 when the class has no such field.
type hprofLayout struct {
	kind     hprofKind
	size     int
	name     int
	tid      int
	eetop    int
	daemon   int
	priority int
	status   int
	holder   int
	blocker  int
	carrier  int
	owner    int // AbstractOwnableSynchronizer.exclusiveOwnerThread
	value    int // String.value
	coder    int // String.coder; -1 on JDK 8
}

// hprofKind tells what a class's instances are to the reader.
type hprofKind uint8

const (
	kindOther   hprofKind = iota
	kindThread            // java.lang.Thread or a subclass
	kindVirtual           // java.lang.VirtualThread
	kindHolder            // java.lang.Thread$FieldHolder
	kindSync              // java.util.concurrent.locks.AbstractOwnableSynchronizer or a subclass
	kindString            // java.lang.String
	kindUnknown           // a class whose chain has no class dump (yet)
)

// hprofWant is why an object id is wanted.
type hprofWant uint8

const (
	wantString  hprofWant = 1 << iota // a thread's name (String)
	wantChars                         // a name's array (char[] or byte[])
	wantHolder                        // a Thread$FieldHolder
	wantBlocker                       // a parkBlocker: its class
	wantThread                        // a root whose thread object was not kept
)

// hprofString is a String instance: its array and coder.
type hprofString struct {
	value uint64
	coder int8 // 0 LATIN1, 1 UTF16, -1 none (JDK 8: a char[])
}

// hprofHolder is a Thread$FieldHolder's fields.
type hprofHolder struct {
	daemon   bool
	priority int32
	status   int32
}

// hprofSync is an owned java.util.concurrent lock.
type hprofSync struct {
	id, class, owner uint64
}

// hprofState is everything a pass gathers.
type hprofState struct {
	id     int
	time   time.Time
	budget int64 // bytes left to keep

	// symbols: UTF8 text by id, in one arena (a string each would cost 16
	// bytes of header and an allocation a symbol).
	arena   []byte
	symbols map[uint64]uint64 // id -> offset<<16 | length

	classSerial map[uint32]uint64 // LOAD CLASS serial -> class id
	className   map[uint64]uint64 // class id -> UTF8 id
	classes     map[uint64]*hprofClass
	layouts     map[uint64]*hprofLayout
	frames      map[uint64]hprofFrame
	traces      map[uint32]hprofTrace
	roots       []hprofRoot
	rootSet     map[uint64]bool

	threads  map[uint64]*hprofThreadObj
	syncs    []hprofSync
	want     map[uint64]hprofWant
	wantBits []uint64 // a filter of want's ids (mayWant)
	kinds    [1024]struct {
		class uint64
		kind  hprofKind
	}
	strings  map[uint64]hprofString
	chars    map[uint64]string
	holders  map[uint64]hprofHolder
	blockers map[uint64]uint64 // object -> class

	segments, records int64 // counted, for where a cut file stops
	monitors          int   // ROOT MONITOR USED records
	pass              int
	readAll           bool // the first pass read the file to its end
}

func newHPROFState(budget int64) *hprofState {
	return &hprofState{
		budget:      budget,
		symbols:     map[uint64]uint64{},
		classSerial: map[uint32]uint64{},
		className:   map[uint64]uint64{},
		classes:     map[uint64]*hprofClass{},
		layouts:     map[uint64]*hprofLayout{},
		frames:      map[uint64]hprofFrame{},
		traces:      map[uint32]hprofTrace{},
		rootSet:     map[uint64]bool{},
		threads:     map[uint64]*hprofThreadObj{},
		want:        map[uint64]hprofWant{},
		wantBits:    make([]uint64, hprofWantBits/64),
		strings:     map[uint64]hprofString{},
		chars:       map[uint64]string{},
		holders:     map[uint64]hprofHolder{},
		blockers:    map[uint64]uint64{},
	}
}

// errHPROFBudget is a file that asks the reader to keep more than its
// budget.
var errHPROFBudget = errors.New("it holds more symbols, classes, frames or threads than the reader keeps (Options.HPROFBudget): not a dump a JVM writes")

// spend counts n bytes kept; false past the budget.
func (s *hprofState) spend(n int) bool {
	s.budget -= int64(n)
	return s.budget >= 0
}

// symbol returns the UTF8 text of id; "" when the file holds none.
func (s *hprofState) symbol(id uint64) string {
	v, ok := s.symbols[id]
	if !ok {
		return ""
	}
	off, n := v>>16, v&0xFFFF
	return string(s.arena[off : off+n])
}

// hprofSource opens the input for a pass: the first pass reads br; a
// further pass reopens path (and its gzip stream). nil when the input
// cannot be read again.
type hprofSource func() (io.Reader, func(), error)

// parseHPROF reads the heap dump in br (already past any gzip) as one
// moment. path is the file's path when it can be read again ("" for a
// stream); gz tells that the file is gzipped.
func (o Options) parseHPROF(name string, br *bufio.Reader, path string, gz bool) ([]*Dump, error) {
	var again hprofSource
	var first io.Reader = br
	if path != "" {
		again = func() (io.Reader, func(), error) {
			f, err := os.Open(path)
			if err != nil {
				return nil, nil, err
			}
			if !gz {
				return f, func() { f.Close() }, nil
			}
			zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<20))
			if err != nil {
				f.Close()
				return nil, nil, err
			}
			return zr, func() { zr.Close(); f.Close() }, nil
		}
		if !gz {
			// A plain file is read through a file of its own, so that skips
			// seek (the bufio.Reader of the caller cannot).
			r, done, err := again()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			defer done()
			first = r
		}
	}
	s := newHPROFState(o.hprofBudget())
	at, err := s.scan(first)
	if err != nil && s.pass == 0 && (errors.Is(err, errHPROFNotDump) || at == 0) {
		return nil, &NoDumpError{File: name, Looks: "an HPROF file that does not read: " + err.Error()}
	}
	var notes []Skipped
	if err != nil {
		// What was read stands; the reader says where it stopped.
		notes = append(notes, Skipped{Reason: fmt.Sprintf("the heap dump stops at byte %d (record %d, heap dump segment %d): %v: the threads before it are read", at, s.records, s.segments, err)})
	}
	s.prune()
	for s.pass = 1; s.pass < hprofPasses && len(s.want) > 0 && err == nil; s.pass++ {
		if again == nil {
			break
		}
		r, done, oerr := again()
		if oerr != nil {
			return nil, fmt.Errorf("%s: reading it again: %w", name, oerr)
		}
		_, err = s.scan(r)
		done()
		s.prune()
		if err != nil {
			notes = append(notes, Skipped{Reason: fmt.Sprintf("pass %d over the heap dump stopped: %v", s.pass+1, err)})
		}
	}
	d := s.dump(name)
	if left := s.unresolved(); len(left) > 0 {
		why := "they lie before the objects that name them, and the input (standard input) cannot be read again"
		if again != nil {
			why = fmt.Sprintf("not found in %d passes", hprofPasses)
		}
		notes = append(notes, Skipped{Reason: fmt.Sprintf("%d objects threads name (names, holders, lock classes) not read: %s", len(left), why)})
	}
	if s.monitors > 0 {
		notes = append(notes, Skipped{Reason: fmt.Sprintf("%d ROOT MONITOR USED records name monitors in use but no owner: not read as locks", s.monitors)})
	}
	d.Skipped = append(d.Skipped, notes...)
	if len(d.Threads) == 0 && len(notes) == 0 {
		return nil, &NoDumpError{File: name, Looks: "an HPROF heap dump without any thread (no ROOT THREAD OBJECT record)"}
	}
	return []*Dump{d}, nil
}

// errHPROFNotDump is a file whose header does not read.
var errHPROFNotDump = errors.New("not an HPROF header")

// unresolved returns the wanted ids not read yet.
func (s *hprofState) unresolved() []uint64 {
	var out []uint64
	for id := range s.want {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// scan reads the file once. It returns the offset where it stopped and why
// when it did not reach the end.
func (s *hprofState) scan(r io.Reader) (int64, error) {
	h := newHPROFReader(r)
	if err := s.header(h); err != nil {
		return h.offset(), err
	}
	h.id = s.id
	s.records, s.segments = 0, 0
	for !h.atEnd() {
		at := h.offset()
		tag, err := h.u1()
		if err != nil {
			return at, err
		}
		if _, err := h.u4(); err != nil { // microseconds since the header's time
			return at, err
		}
		n, err := h.u4()
		if err != nil {
			return at, err
		}
		s.records++
		switch tag {
		case hprofHeapDump, hprofHeapSegment:
			s.segments++
			length := int64(n)
			if n == 0 {
				// HotSpot writes a segment's length once the segment is
				// done: a JVM that died inside it left 0.
				length = -1
			}
			if err := s.segment(h, length); err != nil {
				return h.offset(), fmt.Errorf("in heap dump segment %d at byte %d: %w", s.segments, at, err)
			}
			continue
		case hprofHeapEnd:
			continue
		}
		if s.pass > 0 {
			if err := h.skip(int64(n)); err != nil {
				return at, fmt.Errorf("record of tag 0x%02x at byte %d, %d bytes long: %w", tag, at, n, err)
			}
			continue
		}
		if err := s.record(h, tag, n); err != nil {
			return at, fmt.Errorf("record of tag 0x%02x at byte %d, %d bytes long: %w", tag, at, n, err)
		}
	}
	if h.err != nil {
		return h.offset(), h.err
	}
	if s.pass == 0 {
		s.readAll = true
	}
	return h.offset(), nil
}

// header reads "JAVA PROFILE 1.0.2\0", the id size and the time.
func (s *hprofState) header(h *hprofReader) error {
	b, err := h.bytes(len(hprofMagic) + 2)
	if err != nil || !bytes.HasPrefix(b, hprofMagic) || b[len(b)-1] != 0 {
		return errHPROFNotDump
	}
	id, err := h.u4()
	if err != nil {
		return err
	}
	if id != 4 && id != 8 {
		return fmt.Errorf("%w: id size %d (HotSpot writes 4 or 8)", errHPROFNotDump, id)
	}
	ms, err := h.u8()
	if err != nil {
		return err
	}
	s.id = int(id)
	s.time = time.UnixMilli(int64(ms)).UTC()
	return nil
}

// record reads one top-level record of n bytes in the first pass.
func (s *hprofState) record(h *hprofReader, tag byte, n uint32) error {
	id := s.id
	switch tag {
	case hprofUTF8:
		if int(n) < id {
			return fmt.Errorf("UTF8 record shorter than its id")
		}
		sym, err := h.ident()
		if err != nil {
			return err
		}
		text := int(n) - id
		keep := min(text, 0xFFFF) // a JVM symbol is at most 65535 bytes
		b, err := h.bytes(min(keep, hprofBuf))
		if err != nil {
			return err
		}
		if !s.spend(len(b) + 48) {
			return errHPROFBudget
		}
		s.symbols[sym] = uint64(len(s.arena))<<16 | uint64(len(b))
		s.arena = append(s.arena, b...)
		return h.skip(int64(text - len(b)))
	case hprofLoadClass:
		if int(n) != 8+2*id {
			return h.skip(int64(n))
		}
		serial, _ := h.u4()
		class, _ := h.ident()
		h.u4()
		nameID, err := h.ident()
		if err != nil {
			return err
		}
		if !s.spend(64) {
			return errHPROFBudget
		}
		s.classSerial[serial] = class
		s.className[class] = nameID
		return nil
	case hprofTagFrame:
		if int(n) != 4*id+8 {
			return h.skip(int64(n))
		}
		fid, _ := h.ident()
		method, _ := h.ident()
		h.ident() // signature
		file, _ := h.ident()
		class, _ := h.u4()
		line, err := h.u4()
		if err != nil {
			return err
		}
		if !s.spend(64) {
			return errHPROFBudget
		}
		s.frames[fid] = hprofFrame{method: method, file: file, class: class, line: int32(line)}
		return nil
	case hprofTagTrace:
		if n < 12 {
			return h.skip(int64(n))
		}
		serial, _ := h.u4()
		thread, _ := h.u4()
		count, err := h.u4()
		if err != nil {
			return err
		}
		if int64(count)*int64(id) != int64(n)-12 {
			return fmt.Errorf("stack trace %d says %d frames in %d bytes", serial, count, n)
		}
		if !s.spend(48 + int(count)*8) {
			return errHPROFBudget
		}
		t := hprofTrace{thread: thread, frames: make([]uint64, count)}
		for i := range t.frames {
			if t.frames[i], err = h.ident(); err != nil {
				return err
			}
		}
		s.traces[serial] = t
		return nil
	}
	return h.skip(int64(n))
}

// segment reads the sub-records of a heap dump segment of length bytes (-1:
// to the end of the input).
func (s *hprofState) segment(h *hprofReader, length int64) error {
	end := h.offset() + length
	id := int64(s.id)
	for length < 0 && !h.atEnd() || h.offset() < end {
		if s.skipFast(h) {
			continue
		}
		tag, err := h.u1()
		if err != nil {
			return err
		}
		switch tag {
		case hprofRootUnknown, hprofRootStickyClass:
			err = h.skip(id)
		case hprofRootMonitorUsed:
			s.monitors++
			err = h.skip(id)
		case hprofRootJNIGlobal:
			err = h.skip(2 * id)
		case hprofRootJNILocal, hprofRootJavaFrame:
			err = h.skip(id + 8)
		case hprofRootNativeStack, hprofRootThreadBlock:
			err = h.skip(id + 4)
		case hprofRootThreadObj:
			err = s.rootThread(h)
		case hprofClassDump:
			err = s.classDump(h)
		case hprofInstanceDump:
			err = s.instance(h)
		case hprofObjArrayDump:
			h.ident()
			h.u4()
			var n uint32
			if n, err = h.u4(); err == nil {
				err = h.skip(id + int64(n)*id)
			}
		case hprofPrimArrayDump:
			err = s.primArray(h)
		default:
			return fmt.Errorf("unknown sub-record tag 0x%02x at byte %d", tag, h.offset()-1)
		}
		if err != nil {
			return err
		}
	}
	if length >= 0 && h.offset() != end {
		return fmt.Errorf("a sub-record runs %d bytes past the segment's end", h.offset()-end)
	}
	return nil
}

// skipFast is the hot loop: most sub-records are instances and arrays no
// thread needs. Their headers are read straight from the buffer, without a
// check a field, and their bodies skipped; false leaves the sub-record to
// the full reading (a thread, a lock, a wanted object, a class not met yet,
// a header across the buffer's end, anything else).
func (s *hprofState) skipFast(h *hprofReader) bool {
	id := s.id
	b := h.buf[h.pos:h.end]
	if len(b) < 2+2*id+8 {
		return false
	}
	at := func(off int) uint64 {
		if id == 4 {
			return uint64(binary.BigEndian.Uint32(b[off:]))
		}
		return binary.BigEndian.Uint64(b[off:])
	}
	switch b[0] {
	case hprofInstanceDump:
		obj, class := at(1), at(1+id+4)
		n := binary.BigEndian.Uint32(b[1+2*id+4:])
		if s.mayWant(obj) || s.pass == 0 && s.kind(class) != kindOther {
			return false
		}
		h.pos += 1 + 2*id + 8
		return h.skip(int64(n)) == nil
	case hprofPrimArrayDump:
		obj := at(1)
		n := binary.BigEndian.Uint32(b[1+id+4:])
		sz := hprofTypeSize(b[1+id+8], id)
		if s.mayWant(obj) || sz == 0 || b[1+id+8] == hprofObject {
			return false
		}
		h.pos += 1 + id + 9
		return h.skip(int64(n)*int64(sz)) == nil
	case hprofObjArrayDump:
		n := binary.BigEndian.Uint32(b[1+id+4:])
		h.pos += 1 + 2*id + 8
		return h.skip(int64(n)*int64(id)) == nil
	}
	return false
}

// kind is what instances of class are to the reader, through a small cache
// before the layouts' map (one lookup a heap object otherwise); kindUnknown
// for a class with no layout yet.
func (s *hprofState) kind(class uint64) hprofKind {
	c := &s.kinds[(class>>3)%uint64(len(s.kinds))]
	if c.class == class && c.class != 0 {
		return c.kind
	}
	l := s.layouts[class]
	if l == nil {
		if s.classes[class] == nil {
			return kindUnknown
		}
		l = s.layout(class)
	}
	c.class, c.kind = class, l.kind
	return l.kind
}

// mayWant reports whether obj may be wanted: a bit of a filter of the
// wanted ids before the map (false: surely not).
func (s *hprofState) mayWant(obj uint64) bool {
	if len(s.want) == 0 {
		return false
	}
	k := wantBit(obj)
	return s.wantBits[k>>6]&(1<<(k&63)) != 0
}

// wantBit is obj's bit in wantBits.
func wantBit(obj uint64) uint64 {
	return (obj * 0x9E3779B97F4A7C15 >> 40) & (hprofWantBits - 1)
}

// hprofWantBits is the size of the wanted ids' filter, in bits (512 KiB):
// a few thousand ids leave it nearly empty.
const hprofWantBits = 1 << 22

func (s *hprofState) rootThread(h *hprofReader) error {
	obj, _ := h.ident()
	serial, _ := h.u4()
	trace, err := h.u4()
	if err != nil || s.pass > 0 {
		return err
	}
	if s.rootSet[obj] {
		return nil
	}
	if !s.spend(64) {
		return errHPROFBudget
	}
	s.rootSet[obj] = true
	s.roots = append(s.roots, hprofRoot{obj: obj, serial: serial, trace: trace})
	return nil
}

// skipTyped skips n entries of a class dump's constant pool or static
// fields: each its head (a constant's index, a field's name id), a type
// byte and a value of that type.
func (s *hprofState) skipTyped(h *hprofReader, n uint16, head func(), class uint64, what string) error {
	for range n {
		head()
		t, err := h.u1()
		if err != nil {
			return err
		}
		sz := hprofTypeSize(t, s.id)
		if sz == 0 {
			return fmt.Errorf("class 0x%x: %s of unknown type %d", class, what, t)
		}
		if err := h.skip(int64(sz)); err != nil {
			return err
		}
	}
	return nil
}

// classDump reads a CLASS DUMP: its super class and instance fields are
// kept (first pass), the rest skipped.
func (s *hprofState) classDump(h *hprofReader) error {
	id := int64(s.id)
	class, _ := h.ident()
	h.u4()
	super, _ := h.ident()
	if err := h.skip(5*id + 4); err != nil { // loader, signers, domain, 2 reserved, instance size
		return err
	}
	cp, err := h.u2()
	if err != nil {
		return err
	}
	if err := s.skipTyped(h, cp, func() { h.u2() }, class, "constant"); err != nil {
		return err
	}
	statics, err := h.u2()
	if err != nil {
		return err
	}
	if err := s.skipTyped(h, statics, func() { h.ident() }, class, "static field"); err != nil {
		return err
	}
	count, err := h.u2()
	if err != nil {
		return err
	}
	keep := s.pass == 0 && s.classes[class] == nil
	var c *hprofClass
	if keep {
		if !s.spend(64 + int(count)*16) {
			return errHPROFBudget
		}
		c = &hprofClass{super: super, fields: make([]hprofField, 0, count)}
	}
	for range count {
		name, _ := h.ident()
		t, err := h.u1()
		if err != nil {
			return err
		}
		if hprofTypeSize(t, s.id) == 0 {
			return fmt.Errorf("class 0x%x: instance field of unknown type %d", class, t)
		}
		if keep {
			c.fields = append(c.fields, hprofField{name: name, typ: t})
		}
	}
	if keep {
		s.classes[class] = c
	}
	return nil
}

// javaName is class id's name as Java writes it ("java.lang.Thread");
// "" when the file names none. A hidden class (a lambda's) is named
// "Foo$$Lambda$6+0x00007f55cc002228" in the JVM's symbols and
// "Foo$$Lambda$6/0x00007f55cc002228" by jstack: written as jstack does.
func (s *hprofState) javaName(class uint64) string {
	n := strings.ReplaceAll(s.symbol(s.className[class]), "/", ".")
	if i := strings.LastIndex(n, "+0x"); i > 0 && hexDigits(n[i+3:]) {
		n = n[:i] + "/" + n[i+1:]
	}
	return n
}

// hexDigits reports whether s is hex digits, at least one.
func hexDigits(s string) bool {
	for i := range len(s) {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// layout returns where instances of class hold the fields the reader
// needs, computed once a class; kindUnknown while the chain of class
// dumps is incomplete.
func (s *hprofState) layout(class uint64) *hprofLayout {
	if l := s.layouts[class]; l != nil {
		return l
	}
	l := &hprofLayout{name: -1, tid: -1, eetop: -1, daemon: -1, priority: -1, status: -1, holder: -1,
		blocker: -1, carrier: -1, owner: -1, value: -1, coder: -1}
	off := 0
	depth := 0
	for c := class; c != 0; depth++ {
		cd := s.classes[c]
		if cd == nil || depth > 64 {
			// A class whose chain is not (yet) dumped, or a loop.
			l.kind = kindUnknown
			return l
		}
		cname := s.javaName(c)
		switch cname {
		case "java.lang.Thread":
			if l.kind == kindOther {
				l.kind = kindThread
			}
		case "java.lang.VirtualThread":
			l.kind = kindVirtual
		case "java.lang.Thread$FieldHolder":
			l.kind = kindHolder
		case "java.util.concurrent.locks.AbstractOwnableSynchronizer":
			l.kind = kindSync
		case "java.lang.String":
			l.kind = kindString
		}
		for _, f := range cd.fields {
			at := off
			off += hprofTypeSize(f.typ, s.id)
			fname := s.symbol(f.name)
			obj := f.typ == hprofObject
			switch cname {
			case "java.lang.Thread":
				switch {
				case fname == "name" && obj:
					l.name = at
				case fname == "tid" && f.typ == hprofLong:
					l.tid = at
				case fname == "eetop" && f.typ == hprofLong:
					l.eetop = at
				case fname == "daemon" && f.typ == hprofBoolean:
					l.daemon = at
				case fname == "priority" && f.typ == hprofInt:
					l.priority = at
				case fname == "threadStatus" && f.typ == hprofInt:
					l.status = at
				case fname == "holder" && obj:
					l.holder = at
				case fname == "parkBlocker" && obj:
					l.blocker = at
				}
			case "java.lang.VirtualThread":
				if fname == "carrierThread" && obj {
					l.carrier = at
				}
			case "java.lang.Thread$FieldHolder":
				switch {
				case fname == "daemon" && f.typ == hprofBoolean:
					l.daemon = at
				case fname == "priority" && f.typ == hprofInt:
					l.priority = at
				case fname == "threadStatus" && f.typ == hprofInt:
					l.status = at
				}
			case "java.util.concurrent.locks.AbstractOwnableSynchronizer":
				if fname == "exclusiveOwnerThread" && obj {
					l.owner = at
				}
			case "java.lang.String":
				switch {
				case fname == "value" && obj:
					l.value = at
				case fname == "coder" && f.typ == hprofByte:
					l.coder = at
				}
			}
		}
		c = cd.super
	}
	l.size = off
	if !s.spend(128) {
		l.kind = kindOther // past the budget: the next spend stops the scan
	}
	s.layouts[class] = l
	return l
}

// instance reads an INSTANCE DUMP: a thread, a lock, or a wanted object is
// decoded; anything else is skipped by its length.
func (s *hprofState) instance(h *hprofReader) error {
	obj, _ := h.ident()
	h.u4()
	class, _ := h.ident()
	n, err := h.u4()
	if err != nil {
		return err
	}
	want := s.want[obj]
	kind := kindOther
	if s.pass == 0 || want != 0 {
		if l := s.layouts[class]; l != nil {
			kind = l.kind
		} else if s.classes[class] != nil {
			kind = s.layout(class).kind
		}
	}
	interesting := want != 0 || s.pass == 0 && (kind == kindThread || kind == kindVirtual || kind == kindSync)
	if !interesting || n > hprofMaxBody {
		return h.skip(int64(n))
	}
	body, err := h.bytes(int(n))
	if err != nil {
		return err
	}
	l := s.layout(class)
	if l.size != int(n) && l.kind != kindUnknown {
		return fmt.Errorf("instance 0x%x of %s: %d bytes where its class dumps say %d", obj, s.javaName(class), n, l.size)
	}
	if want&wantBlocker != 0 {
		s.blockers[obj] = class
	}
	switch l.kind {
	case kindThread, kindVirtual:
		// HotSpot writes the platform threads' roots together: once some
		// are read (JDK 21+ writes them before the objects), a thread
		// object that is none of them is a Thread not started or ended.
		// An unmounted virtual thread's root follows its object.
		live := len(s.roots) == 0 || s.rootSet[obj] || l.kind == kindVirtual
		if s.pass == 0 && live || want&wantThread != 0 {
			return s.threadObj(obj, class, l, body)
		}
	case kindSync:
		if l.owner >= 0 && s.pass == 0 {
			if owner := s.field(body, l.owner); owner != 0 {
				if !s.spend(48) {
					return errHPROFBudget
				}
				s.syncs = append(s.syncs, hprofSync{id: obj, class: class, owner: owner})
			}
		}
	case kindHolder:
		if want&wantHolder != 0 {
			s.holders[obj] = hprofHolder{daemon: s.byteAt(body, l.daemon) != 0, priority: int32(s.u4At(body, l.priority)), status: s.status(body, l.status)}
		}
	case kindString:
		if want&wantString != 0 && l.value >= 0 {
			st := hprofString{value: s.field(body, l.value), coder: -1}
			if l.coder >= 0 {
				st.coder = int8(s.byteAt(body, l.coder))
			}
			s.strings[obj] = st
			if st.value != 0 {
				if _, ok := s.chars[st.value]; !ok {
					s.wantID(st.value, wantChars)
				}
			}
		}
	}
	s.resolved(obj, want&^wantBlocker&^wantThread)
	if want&wantBlocker != 0 {
		s.resolved(obj, wantBlocker)
	}
	return nil
}

// resolved marks obj read for the reasons in w.
func (s *hprofState) resolved(obj uint64, w hprofWant) {
	if w == 0 {
		return
	}
	if left := s.want[obj] &^ w; left != 0 {
		s.want[obj] = left
	} else {
		delete(s.want, obj)
	}
}

// wantID asks for obj to be read for reason w.
func (s *hprofState) wantID(obj uint64, w hprofWant) {
	if obj == 0 {
		return
	}
	if s.want[obj] == 0 && !s.spend(32) {
		return // past the budget: said as not read
	}
	s.want[obj] |= w
	k := wantBit(obj)
	s.wantBits[k>>6] |= 1 << (k & 63)
}

// threadObj keeps a Thread object's fields and asks for the objects they
// name.
func (s *hprofState) threadObj(obj, class uint64, l *hprofLayout, body []byte) error {
	if s.threads[obj] != nil {
		return nil
	}
	if !s.spend(160) {
		return errHPROFBudget
	}
	t := &hprofThreadObj{class: class, status: -1, virtual: l.kind == kindVirtual}
	t.name = s.field(body, l.name)
	if l.tid >= 0 {
		t.tid = int64(s.u8At(body, l.tid))
	}
	if l.eetop >= 0 {
		t.eetop = s.u8At(body, l.eetop)
	}
	t.daemon = s.byteAt(body, l.daemon) != 0
	t.priority = int32(s.u4At(body, l.priority))
	t.status = s.status(body, l.status)
	t.holder = s.field(body, l.holder)
	t.blocker = s.field(body, l.blocker)
	t.carrier = s.field(body, l.carrier)
	s.threads[obj] = t
	s.resolved(obj, wantThread)
	if t.name != 0 {
		if _, ok := s.strings[t.name]; !ok {
			s.wantID(t.name, wantString|wantChars) // a String, or a char[] on JDK 8
		}
	}
	if t.holder != 0 {
		if _, ok := s.holders[t.holder]; !ok {
			s.wantID(t.holder, wantHolder)
		}
	}
	if t.blocker != 0 {
		if _, ok := s.blockers[t.blocker]; !ok {
			s.wantID(t.blocker, wantBlocker)
		}
	}
	return nil
}

// primArray reads a PRIMITIVE ARRAY DUMP: a wanted name's char[] or byte[]
// is kept (cut to hprofMaxBody), anything else skipped.
func (s *hprofState) primArray(h *hprofReader) error {
	obj, _ := h.ident()
	h.u4()
	n, _ := h.u4()
	t, err := h.u1()
	if err != nil {
		return err
	}
	sz := hprofTypeSize(t, s.id)
	if sz == 0 || t == hprofObject {
		return fmt.Errorf("array 0x%x of unknown type %d", obj, t)
	}
	total := int64(n) * int64(sz)
	if s.want[obj]&wantChars == 0 || t != hprofChar && t != hprofByte {
		return h.skip(total)
	}
	keep := min(total, hprofMaxBody)
	b, err := h.bytes(int(keep))
	if err != nil {
		return err
	}
	if !s.spend(len(b) + 48) {
		return errHPROFBudget
	}
	if t == hprofChar {
		s.chars[obj] = decodeUTF16(b, true)
	} else {
		s.chars[obj] = string(b) // as is: the String's coder says how to read it (name)
	}
	s.resolved(obj, wantChars|wantString)
	return h.skip(total - keep)
}

// field reads an object id at off of body; 0 when off < 0.
func (s *hprofState) field(body []byte, off int) uint64 {
	if off < 0 || off+s.id > len(body) {
		return 0
	}
	if s.id == 4 {
		return uint64(s.u4At(body, off))
	}
	return s.u8At(body, off)
}

func (s *hprofState) byteAt(body []byte, off int) byte {
	if off < 0 || off >= len(body) {
		return 0
	}
	return body[off]
}

func (s *hprofState) u4At(body []byte, off int) uint32 {
	if off < 0 || off+4 > len(body) {
		return 0
	}
	return uint32(body[off])<<24 | uint32(body[off+1])<<16 | uint32(body[off+2])<<8 | uint32(body[off+3])
}

func (s *hprofState) u8At(body []byte, off int) uint64 {
	if off < 0 || off+8 > len(body) {
		return 0
	}
	return uint64(s.u4At(body, off))<<32 | uint64(s.u4At(body, off+4))
}

// status reads threadStatus at off; -1 when the class has no such field.
func (s *hprofState) status(body []byte, off int) int32 {
	if off < 0 {
		return -1
	}
	return int32(s.u4At(body, off))
}

// decodeUTF16 reads b as UTF-16 code units, big-endian (HPROF's char[]) or
// little-endian (a String's byte[] with the UTF16 coder, as x86 stores it).
func decodeUTF16(b []byte, big bool) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		if big {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return string(utf16.Decode(u))
}

// decodeLatin1 reads b as ISO-8859-1.
func decodeLatin1(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// prune keeps the thread objects of live threads (the roots) and asks again
// for what they name and is not read yet: the wanted ids of the next pass.
func (s *hprofState) prune() {
	live := make(map[uint64]*hprofThreadObj, len(s.roots))
	for _, r := range s.roots {
		if t := s.threads[r.obj]; t != nil {
			live[r.obj] = t
		}
	}
	s.threads = live
	clear(s.want)
	clear(s.wantBits)
	for _, r := range s.roots {
		t := s.threads[r.obj]
		if t == nil {
			s.wantID(r.obj, wantThread)
			continue
		}
		if st, ok := s.strings[t.name]; ok {
			if _, ok := s.chars[st.value]; !ok && st.value != 0 {
				s.wantID(st.value, wantChars)
			}
		} else if _, ok := s.chars[t.name]; !ok && t.name != 0 {
			s.wantID(t.name, wantString|wantChars)
		}
		if _, ok := s.holders[t.holder]; !ok && t.holder != 0 {
			s.wantID(t.holder, wantHolder)
		}
		if _, ok := s.blockers[t.blocker]; !ok && t.blocker != 0 {
			s.wantID(t.blocker, wantBlocker)
		}
	}
}

// threadName is the text of a thread's name object (a String or a char[]);
// "" when not read.
func (s *hprofState) threadName(id uint64) string {
	if st, ok := s.strings[id]; ok {
		raw := s.chars[st.value]
		switch st.coder {
		case 0:
			return decodeLatin1([]byte(raw))
		case 1:
			return decodeUTF16([]byte(raw), false)
		}
		return raw // a char[], decoded when read
	}
	return s.chars[id]
}

// jvmtiState turns JVMTI thread state bits (Thread.threadStatus) into the
// Thread.State and the detail jstack prints after it, as
// jdk.internal.misc.VM.toThreadState and HotSpot's thread_status_name do.
func jvmtiState(bits int32) (state, detail string) {
	const (
		alive      = 0x0001
		terminated = 0x0002
		runnable   = 0x0004
		waitingInd = 0x0010
		waitingTO  = 0x0020
		sleeping   = 0x0040
		inWait     = 0x0100
		parked     = 0x0200
		monEnter   = 0x0400
	)
	switch {
	case bits&runnable != 0:
		return "RUNNABLE", ""
	case bits&monEnter != 0:
		return "BLOCKED", "on object monitor"
	case bits&(waitingInd|waitingTO) != 0:
		state = "WAITING"
		if bits&waitingTO != 0 {
			state = "TIMED_WAITING"
		}
		switch {
		case bits&sleeping != 0:
			detail = "sleeping"
		case bits&inWait != 0:
			detail = "on object monitor"
		case bits&parked != 0:
			detail = "parking"
		}
		return state, detail
	case bits&terminated != 0:
		return "TERMINATED", ""
	case bits&alive == 0:
		return "NEW", ""
	}
	return "RUNNABLE", ""
}

// hprofAddress writes an object id as jstack writes an address: a heap dump
// taken at a safepoint names objects by their addresses.
func hprofAddress(id uint64) string { return fmt.Sprintf("0x%016x", id) }

// frame turns a STACK FRAME into the frame jstack prints: "Class.method"
// and its file and line, "Native Method", or "Unknown Source". HPROF
// names no module.
func (s *hprofState) frame(in *interner, fid uint64) *Frame {
	f, ok := s.frames[fid]
	if !ok {
		return in.frame("<frame not in the file>", "", 0, "", "Unknown Source")
	}
	class := s.javaName(s.classSerial[f.class])
	if class == "" {
		class = "<unknown class>"
	}
	fn := class + "." + s.symbol(f.method)
	file := s.symbol(f.file)
	switch {
	case f.line == -3:
		return in.frame(fn, "", 0, "", "Native Method")
	case file == "":
		return in.frame(fn, "", 0, "", "Unknown Source")
	case f.line > 0:
		return in.frame(fn, file, int(f.line), "", "")
	}
	return in.frame(fn, file, 0, "", "")
}

// dump makes the moment: one thread a ROOT THREAD OBJECT, in the order the
// JVM wrote them (its threads list, as jstack's).
func (s *hprofState) dump(name string) *Dump {
	in := newInterner()
	d := &Dump{Source: Source{File: name}, Format: FormatHPROF, Time: s.time, NoMonitors: true, JavaThreadsOnly: true}
	owned := map[uint64][]Lock{}
	for _, sy := range s.syncs {
		owned[sy.owner] = append(owned[sy.owner], Lock{Kind: LockOwnable, Address: hprofAddress(sy.id), Class: s.javaName(sy.class), Frame: -1})
	}
	roots := slices.Clone(s.roots)
	slices.SortStableFunc(roots, func(a, b hprofRoot) int { return int(a.serial) - int(b.serial) })
	missing := 0
	for _, r := range roots {
		t := s.threads[r.obj]
		th := &Thread{Weight: 1, JVM: &JVM{}}
		if t == nil {
			missing++
			th.JVM.Name = fmt.Sprintf("<thread object %s not in the file>", hprofAddress(r.obj))
		} else {
			th.ID = t.tid
			th.JVM.Name = in.str(s.threadName(t.name))
			if t.eetop != 0 {
				th.JVM.TID = hprofAddress(t.eetop)
			}
			daemon, prio, status := t.daemon, t.priority, t.status
			if hd, ok := s.holders[t.holder]; ok {
				daemon, prio, status = hd.daemon, hd.priority, hd.status
			}
			th.JVM.Daemon, th.JVM.Priority = daemon, int(prio)
			th.JVM.Virtual = t.virtual
			if status >= 0 && !t.virtual {
				th.State, th.JVM.StateDetail = jvmtiState(status)
			}
			if t.blocker != 0 && th.JVM.StateDetail == "parking" {
				th.JVM.Locks = append(th.JVM.Locks, Lock{Kind: LockParking, Address: hprofAddress(t.blocker), Class: s.javaName(s.blockers[t.blocker]), Frame: 0})
			}
			th.JVM.Locks = append(th.JVM.Locks, owned[r.obj]...)
		}
		if tr, ok := s.traces[r.trace]; ok {
			th.Frames = make([]*Frame, len(tr.frames))
			for i, fid := range tr.frames {
				th.Frames[i] = s.frame(in, fid)
			}
		}
		th.NoStack = len(th.Frames) == 0
		d.Threads = append(d.Threads, th)
	}
	if missing > 0 {
		d.Skipped = append(d.Skipped, Skipped{Reason: fmt.Sprintf("%d live threads (ROOT THREAD OBJECT) whose thread object is not in the file: listed without name or state", missing)})
	}
	return d
}
