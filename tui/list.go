package tui

// cursorList is the cursor and scroll offset of a list of n rows, some of
// which may not be selectable (section headers).
type cursorList struct {
	cursor int // index of the selected row
	offset int // first row shown
}

// move moves the cursor by delta rows, clamped to [0, n), then on to the
// nearest selectable row in the direction of the move (or back).
func (l *cursorList) move(delta, n int, ok func(int) bool) {
	if n == 0 {
		l.cursor, l.offset = 0, 0
		return
	}
	c := min(max(l.cursor+delta, 0), n-1)
	dir := 1
	if delta < 0 {
		dir = -1
	}
	for i := c; i >= 0 && i < n; i += dir {
		if ok == nil || ok(i) {
			l.cursor = i
			return
		}
	}
	for i := c; i >= 0 && i < n; i -= dir {
		if ok == nil || ok(i) {
			l.cursor = i
			return
		}
	}
}

// scroll adjusts the offset so that the cursor is inside a window of height
// rows, and returns the window [start, end).
func (l *cursorList) scroll(n, height int) (start, end int) {
	if height <= 0 || n == 0 {
		return 0, 0
	}
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+height {
		l.offset = l.cursor - height + 1
	}
	l.offset = max(0, min(l.offset, n-height))
	return l.offset, min(n, l.offset+height)
}

// window is scroll without moving the offset: for View, which only reads.
func (l cursorList) window(n, height int) (start, end int) {
	return l.scroll(n, height)
}
