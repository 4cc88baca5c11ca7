package report

import (
	"fmt"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/words"
	"github.com/dumpdiff/dumpdiff/parse"
)

// StackGroup is one group of identical stacks (analyze.Shape) of a state at
// one moment, with what tells it apart from the other groups: its culprit,
// its entry point, or the first frame where it differs. Every view (and the
// TUI's state view) describes groups through StackGroups, so they say the
// same thing.
type StackGroup struct {
	Count int // threads, weights included
	// Culprit is the group's first application frame as the analysis
	// prints it (one of Group.Culprits, or Group.Culprit); "" if none.
	// CulpritAt is its index in Stack.Frames; -1 when Culprit is "".
	Culprit   string
	CulpritAt int
	// Entry is where the group's work entered the application (one of
	// Group.Entries at the moment, with the Go creator after "←"); ""
	// if none. EntryAt is its frame's index in Stack.Frames; -1 when no
	// frame shows it (a Go creator alone).
	Entry   string
	EntryAt int
	Probe   bool // the entry point is a health, readiness or liveness check
	// Differs is, when an earlier (larger) group has the same culprit and
	// entry, the first frame of this group's stack that is not in that
	// group's at the same depth ("frame 4: Foo.bar(Foo.java:12)"); "" otherwise.
	Differs string
	// DiffersAt is the index of that frame in Stack.Frames; -1 if none.
	DiffersAt int
	Samples   []string // up to the analysis' sample size of thread names or goroutine ids
	Stack     *parse.Thread
}

// StackGroups describes the identical-stack groups of g at moment m,
// largest first; nil when g has no thread there.
//
// The culprit and entry of a group are found by matching its frames
// against the group's culprits and entry points (the analysis computes
// those per state, not per stack): one pass over each group's frames.
func StackGroups(g *analyze.Group, m int) []StackGroup {
	if g == nil || m < 0 || m >= len(g.Shapes) {
		return nil
	}
	culprits := map[string]bool{}
	if g.Culprit != "" {
		culprits[g.Culprit] = true
	}
	for _, c := range g.Culprits {
		culprits[c.Func] = true
	}
	type entry struct {
		full  string
		probe bool
	}
	entries := map[string]entry{} // frame (without "← creator") → entry
	if m < len(g.Entries) {
		for _, e := range g.Entries[m] {
			fn, _, _ := strings.Cut(e.Func, " ← ")
			if _, ok := entries[fn]; !ok {
				entries[fn] = entry{e.Func, e.Probe}
			}
		}
	}
	var out []StackGroup
	for _, sh := range g.Shapes[m] {
		sg := StackGroup{Count: sh.Count, CulpritAt: -1, EntryAt: -1, DiffersAt: -1, Samples: sh.Samples, Stack: sh.Stack}
		if t := sh.Stack; t != nil {
			for i, f := range t.Frames {
				s := analyze.FrameString(f)
				if sg.CulpritAt < 0 && culprits[s] {
					sg.Culprit, sg.CulpritAt = s, i
				}
				// The entry is the deepest match: keep looking.
				if e, ok := entries[s]; ok {
					sg.Entry, sg.EntryAt, sg.Probe = e.full, i, e.probe
				}
			}
			if sg.Entry == "" && t.CreatedBy != nil {
				if e, ok := entries["created by "+t.CreatedBy.Func]; ok {
					sg.Entry, sg.Probe = e.full, e.probe
				}
			}
		}
		for k := range out {
			if o := out[k]; o.Culprit == sg.Culprit && o.Entry == sg.Entry {
				sg.Differs, sg.DiffersAt = firstDifference(o.Stack, sg.Stack)
				break
			}
		}
		out = append(out, sg)
	}
	return out
}

// firstDifference names the first frame of b that a does not have at the
// same depth, from the top: "frame 3: Foo.bar(Foo.java:12)"; or how the
// stacks differ when every frame b has is a's.
func firstDifference(a, b *parse.Thread) (string, int) {
	if a == nil || b == nil {
		return "", -1
	}
	for i, f := range b.Frames {
		if i >= len(a.Frames) || a.Frames[i].Func != f.Func || a.Frames[i].Line != f.Line || a.Frames[i].File != f.File {
			return fmt.Sprintf("frame %d: %s", i+1, analyze.FrameString(f)), i
		}
	}
	switch {
	case len(b.Frames) < len(a.Frames):
		return fmt.Sprintf("%d frames instead of %d", len(b.Frames), len(a.Frames)), -1
	case b.State != a.State:
		return "state " + b.State, -1
	}
	return "its locks or creator", -1
}

// Label is a short description of the group for a line of text, frames
// shortened: "at OrderRepository.recentOrderSummary:23 from
// OrderServlet.doGet:22", "at HealthServlet.doGet:26 (health check)". ""
// when nothing tells it apart (a group with no application frame).
func (sg StackGroup) Label() string { return sg.label().plain() }

// label is Label as inline text: each frame, entry and function as its
// inline code, the health check as a format marks one.
func (sg StackGroup) label() inline {
	var out inline
	if sg.Culprit != "" {
		out = append(out, txt("at "), culprit(ShortFrame(sg.Culprit)))
	}
	if sg.Entry != "" && sg.Entry != sg.Culprit {
		if len(out) > 0 {
			out = append(out, txt(" "))
		}
		out = append(out, txt("from "), entry(shortEntry(sg.Entry)))
	}
	if sg.Probe {
		out = append(out, probe())
	}
	if sg.Differs != "" {
		if len(out) > 0 {
			out = append(out, txt(", "))
		}
		out = append(out, txt("differs at "), code(shortDiffers(sg.Differs)))
	}
	return out
}

// shortEntry shortens an entry point, creator included:
// "main.(*server).handleSearch.func1 (main.go:97) ← main.(*server).handleSearch".
func shortEntry(e string) string {
	fn, creator, ok := strings.Cut(e, " ← ")
	if strings.HasPrefix(fn, "created by ") {
		return "created by " + ShortFunc(strings.TrimPrefix(fn, "created by "))
	}
	s := ShortFrame(fn)
	if ok {
		s += " ← " + ShortFunc(creator)
	}
	return s
}

func shortDiffers(d string) string {
	head, frame, ok := strings.Cut(d, ": ")
	if !ok {
		return d
	}
	return head + ": " + ShortFrame(frame)
}

// groupsLine says what the groups of a state at a moment are, in a line:
// "2 identical-stack groups at during-2: 93 at Repo.query:23 from
// OrderServlet.doGet:22 · 3 at HealthServlet.doGet:26 (health check)";
// "one stack at during-1: all 200 identical". max caps the groups listed.
func groupsLine(sgs []StackGroup, label string, max int) string {
	if len(sgs) == 0 {
		return ""
	}
	if len(sgs) == 1 {
		if sgs[0].Count == 1 {
			return "one thread at " + label
		}
		return fmt.Sprintf("one stack at %s: all %d identical", label, sgs[0].Count)
	}
	var parts []string
	for i, sg := range sgs {
		if i == max {
			rest := 0
			for _, o := range sgs[i:] {
				rest += o.Count
			}
			parts = append(parts, fmt.Sprintf("%d more groups (%d)", len(sgs)-i, rest))
			break
		}
		p := fmt.Sprint(sg.Count)
		if l := sg.Label(); l != "" {
			p += " " + l
		}
		parts = append(parts, p)
	}
	return fmt.Sprintf("%d identical-stack groups at %s: %s", len(sgs), label, strings.Join(parts, " · "))
}

// maxStackGroups is how many identical-stack groups of a state the ticket
// formats show with their stacks; the JSON has them all.
const maxStackGroups = 3

// shownState is a state whose stacks a ticket format shows, with its pool.
type shownState struct {
	pool  poolRow
	state stateRow
}

// ticketStacks are the states whose identical-stack groups Markdown and
// Jira show with their stacks: in each flagged pool, the states the
// findings name, or its largest state when they name none.
func (rs *rows) ticketStacks() []shownState {
	var out []shownState
	for _, p := range rs.pools {
		if !p.flagged {
			continue
		}
		anyFlagged := hasFlaggedState(p)
		for i, s := range p.states {
			if (s.flagged || (!anyFlagged && i == 0)) && len(s.groups) > 0 {
				out = append(out, shownState{p, s})
			}
		}
	}
	return out
}

func hasFlaggedState(p poolRow) bool {
	for _, s := range p.states {
		if s.flagged {
			return true
		}
	}
	return false
}

// groupHeading says in plain words which group of s its group i is: "93
// threads in db-pool-wait at during-2: stack group 1 of 2, at
// Repo.query:23 from OrderServlet.doGet:22".
func (rs *rows) groupHeading(s stateRow, i int) string {
	sg := s.groups[i]
	h := fmt.Sprintf("%s in %s at %s: %s", words.Plural(sg.Count, rs.unitOne()), stateName(s.state, s.via), rs.label(s.groupsAt),
		groupOrdinal(i, len(s.groups)))
	if l := sg.Label(); l != "" {
		h += ", " + l
	}
	return h
}

// moreGroups says in plain words how many groups of s past the first k
// are not shown: "2 more identical-stack groups of db-pool-wait at during-2
// (5 threads)."; "" when none is left.
func (rs *rows) moreGroups(s stateRow, k int) string {
	if len(s.groups) <= k {
		return ""
	}
	rest := 0
	for _, o := range s.groups[k:] {
		rest += o.Count
	}
	return fmt.Sprintf("%d more identical-stack groups of %s at %s (%s).", len(s.groups)-k, stateName(s.state, s.via),
		rs.label(s.groupsAt), words.Plural(rest, rs.unitOne()))
}

// groupOrdinal says which group of how many: "one identical stack", "group
// 2 of 3".
func groupOrdinal(i, n int) string {
	if n == 1 {
		return "one identical stack"
	}
	return fmt.Sprintf("stack group %d of %d", i+1, n)
}
