package parse

// interner makes equal frames and repeated strings share memory within one
// parse. Lookups with a []byte key do not allocate (the compiler turns
// m[string(b)] into a no-copy lookup); only the first occurrence of a value
// is copied.
type interner struct {
	strs   map[string]string
	frames map[frameKey]*Frame
}

type frameKey struct {
	fn, file, module, note string
	line                   int
}

func newInterner() *interner {
	return &interner{strs: make(map[string]string), frames: make(map[frameKey]*Frame)}
}

// bytes returns b as a string, shared with every earlier equal string.
func (in *interner) bytes(b []byte) string {
	if s, ok := in.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	in.strs[s] = s
	return s
}

// str returns s, shared with every earlier equal string.
func (in *interner) str(s string) string {
	if v, ok := in.strs[s]; ok {
		return v
	}
	in.strs[s] = s
	return s
}

// frame returns the one *Frame equal to f, creating it on first use. The
// strings of f should already be interned.
func (in *interner) frame(fn, file string, line int, module, note string) *Frame {
	k := frameKey{fn: fn, file: file, module: module, note: note, line: line}
	if f, ok := in.frames[k]; ok {
		return f
	}
	f := &Frame{Func: fn, File: file, Line: line, Module: module, Note: note}
	in.frames[k] = f
	return f
}
