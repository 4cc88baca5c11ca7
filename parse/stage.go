package parse

import "slices"

// The reader's stages. Between the input and a format's parser, the line
// source reads a dump through the stages turned on for it, each a layer
// that reads the one below it (the input below the lowest) and gives
// lines to the one above it (the parser above the highest), as goldmark's
// block parsers share one text.Reader:
//
//	rank  stage                        file            turned on
//	 -3   HTML entities undone         escape.go       at a <pre> or an escaped dump line, until </pre>
//	 -2   a prefix read off            prefix.go       at a dump's first line under a shape or a
//	                                                   learned prefix (prefix_learn.go), for the dump
//	 -1   inline code's backticks      inline_code.go  at a backtick before a dump, for the dump
//	  0   go test's continuation       goroutine_notes.go
//	  1   a Go frame's indentation     indent.go       learned by the format's parser, for the dump
//	  2   no-break spaces              indent.go
//
// A stage is a type with read and rank in a file of its own, turned on
// with lineSource.addStage (or addRewrite, for a stage that rewrites each
// line alone); the line source needs no change for a new one. A stage may
// read several lines below for one it gives (a prefix's partial records,
// a paste's end), hold lines (another source's), and end itself (ending:
// HTML at </pre>); the stages end with their dump, but for those that go
// on past it (lasting: HTML until </pre>).
//
// Cost: nothing on a dump read as it is (no stage: next's fast path); one
// interface call a stage a line in a dump read through stages.

// stage is one layer of the reader (see above).
type stage interface {
	// read gives the next line to the stage above, reading the stage
	// below with below.next; false at the end of input. The line is
	// valid until the next read.
	read(s *lineSource, below lineReader) ([]byte, bool)
	// rank orders the stages, nearest the input first, one of each rank.
	rank() int
}

// ending is a stage that ends itself (HTML at </pre>): over reports that
// it has, and it is taken off after the line that ended it.
type ending interface{ over() bool }

// lasting is a stage that goes on past the dump it was turned on in.
type lasting interface{ lasts() bool }

// rewriter is a stage that rewrites each line alone: undo returns line
// itself when it needs nothing, else a rewrite in its own buffer, valid
// until the next call. addRewrite turns one on.
type rewriter interface {
	undo(line []byte) []byte
	rank() int
}

// The ranks of the stages below the rewriters'.
const (
	rankHTML   = -3
	rankPrefix = -2
)

// lineReader reads the stage below one: the stage of index i, or the
// input when i < 0.
type lineReader struct {
	s *lineSource
	i int
}

func (r lineReader) next() ([]byte, bool) { return r.s.stages.readAt(r.s, r.i) }

// rewriteStage is a rewriter as a stage.
type rewriteStage struct{ rewriter }

func (w rewriteStage) read(s *lineSource, below lineReader) ([]byte, bool) {
	line, ok := below.next()
	if !ok || s.stagesOff {
		return line, ok
	}
	return w.undo(line), true
}

// lineStage is the stages turned on, by rank.
type lineStage struct {
	list []stage
}

// readAt is what the stage of index i gives (the input below the
// lowest: the line as read is kept in raw, to be read again as read).
func (st *lineStage) readAt(s *lineSource, i int) ([]byte, bool) {
	if i < 0 {
		raw, ok := s.read()
		// One dump pasted in fenced parts (fence.go), under the stages a
		// dump learns (a Go dump whose TABs became spaces); a prefix's
		// lines are not looked at.
		for ok && s.goesOn != nil && isFence(raw) && s.prefixOn() == nil && s.fenceGap(raw) {
			raw, ok = s.read()
		}
		s.raw = raw
		return raw, ok
	}
	return st.list[i].read(s, lineReader{s, i - 1})
}

// add turns x on in its rank's place; it replaces a stage of that rank.
func (st *lineStage) add(x stage) {
	i := 0
	for i < len(st.list) && st.list[i].rank() < x.rank() {
		i++
	}
	if i < len(st.list) && st.list[i].rank() == x.rank() {
		st.list[i] = x
		return
	}
	st.list = slices.Insert(st.list, i, x)
}

// find returns the stage of rank r, or nil.
func (st *lineStage) find(r int) stage {
	for _, x := range st.list {
		if x.rank() == r {
			return x
		}
	}
	return nil
}

// undo returns line with the rewriters undone, in rank order: the line
// last returned, rewritten by a stage just learned from it.
func (st *lineStage) undo(line []byte) []byte {
	for _, x := range st.list {
		if w, ok := x.(rewriteStage); ok {
			line = w.undo(line)
		}
	}
	return line
}

// sweep takes off the stages that ended.
func (st *lineStage) sweep() {
	st.list = slices.DeleteFunc(st.list, func(x stage) bool {
		e, ok := x.(ending)
		return ok && e.over()
	})
}

// keepLasting takes off the stages that end with the dump.
func (st *lineStage) keepLasting() {
	st.list = slices.DeleteFunc(st.list, func(x stage) bool {
		l, ok := x.(lasting)
		return !ok || !l.lasts()
	})
}

// stage returns the stages, making the list when none is on.
func (s *lineSource) stage() *lineStage {
	if s.stages == nil {
		s.stages = &lineStage{}
	}
	return s.stages
}

// addStage turns x on.
func (s *lineSource) addStage(x stage) { s.stage().add(x) }

// addRewrite turns x on for the rest of the dump being read.
func (s *lineSource) addRewrite(x rewriter) { s.stage().add(rewriteStage{x}) }

// nextStaged is next through the stages: the highest one's line. A stage
// that turns them all off (a paste that ended: stagesOff) gives the line
// as the input has it, and no stage above rewrites it.
func (s *lineSource) nextStaged() ([]byte, bool) {
	st := s.stages
	line, ok := st.readAt(s, len(st.list)-1)
	if s.stagesOff {
		s.stages, s.stagesOff = nil, false
		return line, ok
	}
	st.sweep()
	if len(st.list) == 0 {
		s.stages = nil
	}
	return line, ok
}

// prefixOn returns the prefix stage, or nil.
func (s *lineSource) prefixOn() *prefixStage {
	if s.stages == nil {
		return nil
	}
	p, _ := s.stages.find(rankPrefix).(*prefixStage)
	return p
}
