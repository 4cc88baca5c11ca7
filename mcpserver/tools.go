package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/dumpdiff/dumpdiff/report"
)

// Ref names one analysis of an analyze call: its id, and which target's
// analysis when a capture of several targets gave several.
type Ref struct {
	AnalysisID string `json:"analysis_id" jsonschema:"the id analyze returned (a1, a2...)"`
	Target     int    `json:"target,omitempty" jsonschema:"which analysis of the call: one per captured target, 0 first (default 0)"`
}

// PageIn are a list's page arguments.
type PageIn struct {
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page; empty for the first"`
	Limit  int    `json:"limit,omitempty" jsonschema:"items per page, 1 to 500 (default 50); pages are also bounded in bytes"`
}

// AnalyzeIn is analyze's input.
type AnalyzeIn struct {
	Paths  []string `json:"paths" jsonschema:"dump files or folders (a dumpdiff capture, a watch incident bundle, a folder of dumps), under the server's roots; relative paths are under the first root"`
	Order  string   `json:"order,omitempty" jsonschema:"moment order: time (default: the time each dump prints) or args (as given)"`
	Labels []string `json:"labels,omitempty" jsonschema:"moment labels in the order the dumps are given (default: from the file names)"`
	Limit  int      `json:"limit,omitempty" jsonschema:"findings in the first page, 1 to 500 (default 50); the next pages come from verdict"`
}

// VerdictIn asks for a page of an analysis' verdict.
type VerdictIn struct {
	AnalysisID string `json:"analysis_id" jsonschema:"the id analyze returned"`
	PageIn
}

// Verdict is what an analysis says, findings paged.
type Verdict struct {
	AnalysisID string `json:"analysis_id" jsonschema:"refer to this analysis in the other tools"`
	// Analyses are one per captured target (one for plain files).
	Analyses []AnalysisOut `json:"analyses"`
	// Warnings are what loading said (order, duplicates, skipped lines), as
	// the command says them on stderr.
	Warnings []string `json:"warnings"`
	// Findings of every analysis, root causes first, as the JSON report
	// has them; paged.
	Findings []FindingOut `json:"findings"`
	Page
}

// AnalysisOut is one analysis: its moments, how many findings, the lead.
type AnalysisOut struct {
	Target   int                  `json:"target" jsonschema:"its index: the target argument of the other tools"`
	Runtime  string               `json:"runtime"`
	Name     string               `json:"name" jsonschema:"the captured target's name; empty for a single process"`
	Moments  []report.JSONMoment  `json:"moments"`
	Findings int                  `json:"findings"`
	Lead     string               `json:"lead" jsonschema:"the lead finding's sentence, or that there is none"`
	Notable  []report.JSONNotable `json:"notable,omitempty" jsonschema:"the few threads of the last moment to look at first"`
	Warnings []string             `json:"warnings" jsonschema:"what the analysis warns of"`
}

// FindingOut is a finding of the verdict: the JSON report's, whole.
type FindingOut struct {
	Target  int                `json:"target"`
	Finding report.JSONFinding `json:"finding"`
}

func (s *Server) analyzeTool(_ context.Context, in AnalyzeIn) (Verdict, error) {
	a, err := s.analyzePaths(in.Paths, AnalyzeOptions{Order: in.Order, Labels: in.Labels})
	if err != nil {
		return Verdict{}, err
	}
	return s.verdict(a, PageIn{Limit: in.Limit})
}

func (s *Server) verdictTool(_ context.Context, in VerdictIn) (Verdict, error) {
	a, _, err := s.get(in.AnalysisID, 0)
	if err != nil {
		return Verdict{}, err
	}
	return s.verdict(a, in.PageIn)
}

// analyzePaths checks, analyzes and keeps.
func (s *Server) analyzePaths(paths []string, opt AnalyzeOptions) (*analysis, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no path: give dump files or folders under %s", s.rootsText())
	}
	switch opt.Order {
	case "", "time", "args":
	default:
		return nil, fmt.Errorf("order %q: want time or args", opt.Order)
	}
	var real []string
	for _, p := range paths {
		r, err := s.resolveInput(p)
		if err != nil {
			return nil, err
		}
		real = append(real, r)
	}
	rs, notes, err := s.cfg.Analyze(real, opt)
	if err != nil {
		return nil, err
	}
	a := &analysis{paths: real, results: rs, notes: notes, words: make([]*report.Document, len(rs))}
	for _, r := range rs {
		a.docs = append(a.docs, report.NewJSONReport(r))
	}
	s.keep(a)
	s.addReportResources(a)
	return a, nil
}

// verdict is a's verdict with the findings' page at in.
func (s *Server) verdict(a *analysis, in PageIn) (Verdict, error) {
	v := Verdict{AnalysisID: a.id, Analyses: []AnalysisOut{}, Warnings: nonNil(a.notes)}
	var all []FindingOut
	for i, doc := range a.docs {
		ao := AnalysisOut{Target: i, Runtime: doc.Runtime, Moments: doc.Moments, Findings: len(doc.Findings), Notable: doc.Notable, Warnings: doc.Warnings}
		if len(doc.Moments) > 0 {
			ao.Name = doc.Moments[0].Target
		}
		ao.Lead = "no finding: nothing stuck, growing or exhausted across the moments"
		if len(doc.Findings) > 0 {
			ao.Lead = doc.Findings[0].Summary
		}
		v.Analyses = append(v.Analyses, ao)
		for _, f := range doc.Findings {
			all = append(all, FindingOut{Target: i, Finding: f})
		}
	}
	page, p, err := paginate(all, in.Cursor, queryKey("verdict", a.id), in.Limit, s.cfg.PageBytes)
	if err != nil {
		return Verdict{}, err
	}
	v.Findings, v.Page = page, p
	return v, nil
}

// FindingIn names a finding.
type FindingIn struct {
	Ref
	ID string `json:"id" jsonschema:"the finding's id, as the verdict gives it"`
}

// FindingWhole is a finding with its words and links.
type FindingWhole struct {
	Number  int                `json:"number" jsonschema:"its number in the reports: finding 2"`
	Title   string             `json:"title" jsonschema:"its heading in the reports"`
	Counts  string             `json:"counts" jsonschema:"its numbers line"`
	Facts   []Fact             `json:"facts" jsonschema:"its labelled facts as the reports write them (Numbers, Top frame, Culprit, Entry points, Seen, Follows from, Leads to)"`
	Finding report.JSONFinding `json:"finding" jsonschema:"the JSON report's finding: its facts, evidence per moment, remedy"`
	// FollowsFrom is the id of the finding this one follows from; "" for
	// a root cause. LeadsTo are the ids of those that follow from it.
	FollowsFrom string   `json:"follows_from"`
	LeadsTo     []string `json:"leads_to"`
}

// Fact is one labelled fact.
type Fact struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

func (s *Server) findingTool(_ context.Context, in FindingIn) (FindingWhole, error) {
	a, r, err := s.get(in.AnalysisID, in.Target)
	if err != nil {
		return FindingWhole{}, err
	}
	doc := a.docs[in.Target]
	k := slices.IndexFunc(doc.Findings, func(f report.JSONFinding) bool { return f.ID == in.ID })
	if k < 0 {
		var ids []string
		for _, f := range doc.Findings {
			ids = append(ids, f.ID)
		}
		if len(ids) == 0 {
			return FindingWhole{}, fmt.Errorf("analysis %s has no finding", in.AnalysisID)
		}
		return FindingWhole{}, fmt.Errorf("analysis %s has no finding %q; its findings: %s", in.AnalysisID, in.ID, strings.Join(ids, ", "))
	}
	s.mu.Lock()
	if a.words[in.Target] == nil {
		a.words[in.Target] = report.NewDocument(r)
	}
	words := a.words[in.Target]
	s.mu.Unlock()
	ft, _ := words.Finding(in.ID)
	f := doc.Findings[k]
	out := FindingWhole{Number: ft.Num, Title: ft.Title, Counts: ft.Counts, Facts: []Fact{}, Finding: f, FollowsFrom: f.CausedBy, LeadsTo: []string{}}
	for _, x := range ft.Facts {
		out.Facts = append(out.Facts, Fact{x.Label, x.Value})
	}
	for _, o := range doc.Findings {
		if o.CausedBy == in.ID {
			out.LeadsTo = append(out.LeadsTo, o.ID)
		}
	}
	return out, nil
}

// PoolsIn asks for the pools and states.
type PoolsIn struct {
	Ref
	Internal bool `json:"internal,omitempty" jsonschema:"include JVM-internal threads and Go runtime goroutines (default: left out, as verdicts leave them out)"`
	PageIn
}

// Pools are the pools' states across the moments, one row a state.
type Pools struct {
	Moments []string   `json:"moments" jsonschema:"the moments' labels: counts are in this order"`
	States  []StateRow `json:"states"`
	Page
}

// StateRow is one state of one pool across the moments.
type StateRow struct {
	Pool       string `json:"pool"`
	Internal   bool   `json:"internal"`
	PoolCounts []int  `json:"pool_counts" jsonschema:"all threads of the pool per moment"`
	report.JSONState
}

func (s *Server) poolsTool(_ context.Context, in PoolsIn) (Pools, error) {
	a, _, err := s.get(in.AnalysisID, in.Target)
	if err != nil {
		return Pools{}, err
	}
	doc := a.docs[in.Target]
	var rows []StateRow
	for _, p := range doc.Pools {
		if p.Internal && !in.Internal {
			continue
		}
		for _, st := range p.States {
			rows = append(rows, StateRow{Pool: p.Name, Internal: p.Internal, PoolCounts: p.Counts, JSONState: st})
		}
	}
	page, pg, err := paginate(rows, in.Cursor, queryKey("pools", a.id, strconv.Itoa(in.Target), strconv.FormatBool(in.Internal)), in.Limit, s.cfg.PageBytes)
	if err != nil {
		return Pools{}, err
	}
	return Pools{Moments: labels(doc), States: page, Page: pg}, nil
}

func labels(doc *report.JSONReport) []string {
	out := []string{}
	for _, m := range doc.Moments {
		out = append(out, m.Label)
	}
	return out
}

// StateIn names a state of a pool at a moment.
type StateIn struct {
	Ref
	Pool   string `json:"pool" jsonschema:"the pool's name, as pools gives it"`
	State  string `json:"state" jsonschema:"the state's id (socket-read, db-pool-wait...), as pools gives it"`
	Via    string `json:"via,omitempty" jsonschema:"what the state waits on, when the pool has the state more than once (as pools gives it)"`
	Moment string `json:"moment,omitempty" jsonschema:"a moment's label or index (default: the moment the state has the most threads)"`
}

// GroupsIn asks for the identical-stack groups of a state.
type GroupsIn struct {
	StateIn
	PageIn
}

// Groups are a state's identical-stack groups at a moment, largest first.
type Groups struct {
	Pool   string     `json:"pool"`
	State  string     `json:"state"`
	Via    string     `json:"via"`
	Moment string     `json:"moment"`
	Groups []GroupOut `json:"groups"`
	Page
}

// GroupOut is one identical-stack group.
type GroupOut struct {
	Index   int      `json:"index" jsonschema:"its index among the state's groups at the moment: the group argument of stack and compare"`
	Count   int      `json:"count" jsonschema:"threads with this very stack"`
	Label   string   `json:"label" jsonschema:"what tells it apart, as the reports say"`
	Culprit string   `json:"culprit" jsonschema:"its first application frame"`
	Entry   string   `json:"entry" jsonschema:"where its work entered the application"`
	Probe   bool     `json:"probe" jsonschema:"the entry is a health, readiness or liveness check"`
	Differs string   `json:"differs" jsonschema:"the first frame where it differs from a larger group with the same culprit and entry"`
	Top     string   `json:"top" jsonschema:"its top frame"`
	Samples []string `json:"samples" jsonschema:"some of its threads' names or goroutine ids"`
}

// state finds the group in.Pool/in.State/in.Via of r and the moment.
func state(r *analyze.Result, in StateIn) (*analyze.Group, int, error) {
	var p *analyze.Pool
	for _, x := range r.Pools {
		if x.Name == in.Pool {
			p = x
			break
		}
	}
	if p == nil {
		return nil, 0, fmt.Errorf("no pool %q in this analysis: pools lists them", in.Pool)
	}
	var match []*analyze.Group
	var have []string
	for _, g := range p.States {
		have = append(have, stateName(g))
		if g.State == in.State && (in.Via == "" || g.Via == in.Via) {
			match = append(match, g)
		}
	}
	switch {
	case len(match) == 0:
		return nil, 0, fmt.Errorf("pool %q has no state %q%s; its states: %s", in.Pool, in.State, viaText(in.Via), strings.Join(have, ", "))
	case len(match) > 1:
		var vias []string
		for _, g := range match {
			vias = append(vias, strconv.Quote(g.Via))
		}
		return nil, 0, fmt.Errorf("pool %q has state %q more than once: give via (one of %s)", in.Pool, in.State, strings.Join(vias, ", "))
	}
	g := match[0]
	m, err := momentOf(r, in.Moment, g)
	return g, m, err
}

func stateName(g *analyze.Group) string {
	if g.Via != "" {
		return g.State + " via " + g.Via
	}
	return g.State
}

func viaText(via string) string {
	if via == "" {
		return ""
	}
	return " via " + strconv.Quote(via)
}

// momentOf is the moment s names (label or index); "" is the moment g has
// the most threads (the first such), or the last moment without g.
func momentOf(r *analyze.Result, s string, g *analyze.Group) (int, error) {
	if s == "" {
		best := len(r.Moments) - 1
		if g != nil {
			top := -1
			for i, c := range g.Counts {
				if c > top {
					best, top = i, c
				}
			}
		}
		return best, nil
	}
	for i, m := range r.Moments {
		if m.Label == s {
			return i, nil
		}
	}
	if i, err := strconv.Atoi(s); err == nil && i >= 0 && i < len(r.Moments) {
		return i, nil
	}
	var ls []string
	for _, m := range r.Moments {
		ls = append(ls, m.Label)
	}
	return 0, fmt.Errorf("no moment %q: the moments are %s (or their index from 0)", s, strings.Join(ls, ", "))
}

func (s *Server) groupsTool(_ context.Context, in GroupsIn) (Groups, error) {
	a, r, err := s.get(in.AnalysisID, in.Target)
	if err != nil {
		return Groups{}, err
	}
	g, m, err := state(r, in.StateIn)
	if err != nil {
		return Groups{}, err
	}
	var rows []GroupOut
	for i, sg := range report.StackGroups(g, m) {
		o := GroupOut{Index: i, Count: sg.Count, Label: sg.Label(), Culprit: sg.Culprit, Entry: sg.Entry, Probe: sg.Probe,
			Differs: sg.Differs, Samples: nonNil(sg.Samples)}
		if sg.Stack != nil && len(sg.Stack.Frames) > 0 {
			o.Top = analyze.FrameString(sg.Stack.Frames[0])
		}
		rows = append(rows, o)
	}
	page, pg, err := paginate(rows, in.Cursor, queryKey("groups", a.id, strconv.Itoa(in.Target), g.Pool, g.State, g.Via, strconv.Itoa(m)), in.Limit, s.cfg.PageBytes)
	if err != nil {
		return Groups{}, err
	}
	return Groups{Pool: g.Pool, State: g.State, Via: g.Via, Moment: r.Moments[m].Label, Groups: page, Page: pg}, nil
}

// StackIn names a thread, or a group of a state, at a moment.
type StackIn struct {
	Ref
	Pool   string `json:"pool,omitempty" jsonschema:"the pool's name, as pools gives it (with state and group; or give thread)"`
	State  string `json:"state,omitempty" jsonschema:"the state's id, as pools gives it"`
	Via    string `json:"via,omitempty" jsonschema:"what the state waits on, when the pool has the state more than once"`
	Moment string `json:"moment,omitempty" jsonschema:"a moment's label or index (default: the moment the state has the most threads; for a thread, the last moment)"`
	Thread string `json:"thread,omitempty" jsonschema:"a thread's name (JVM) or goroutine id (Go); instead of pool, state and group"`
	Group  int    `json:"group,omitempty" jsonschema:"the group's index as groups gives it (default 0, the largest)"`
}

// Stack is a stack with its culprit and entry frames marked.
type Stack struct {
	Title  string `json:"title" jsonschema:"the thread as a dump heading names it, or the group"`
	Pool   string `json:"pool"`
	State  string `json:"state"`
	Via    string `json:"via"`
	Moment string `json:"moment"`
	Count  int    `json:"count" jsonschema:"threads with this very stack"`
	// Lines are the stack as the reports print it, "◀ culprit" and "◀
	// entry point" after those frames, lock lines under their frame.
	Lines   []string   `json:"lines"`
	Frames  []FrameOut `json:"frames"`
	Culprit string     `json:"culprit"`
	Entry   string     `json:"entry"`
	// Cut is how many frames were left out at the end (maxFrames).
	Cut int `json:"cut,omitempty"`
}

// FrameOut is one frame, marked.
type FrameOut struct {
	Frame   string `json:"frame"`
	Culprit bool   `json:"culprit,omitempty"`
	Entry   bool   `json:"entry,omitempty"`
}

// maxFrames bounds a stack's answer: a runaway recursion prints thousands
// of frames, and its top and the culprit say what there is to say.
const maxFrames = 256

func (s *Server) stackTool(_ context.Context, in StackIn) (Stack, error) {
	_, r, err := s.get(in.AnalysisID, in.Target)
	if err != nil {
		return Stack{}, err
	}
	var g *analyze.Group
	var m int
	var sg report.StackGroup
	if in.Thread != "" {
		if m, err = momentOf(r, in.Moment, nil); err != nil {
			return Stack{}, err
		}
		t, tg := findThread(r, m, in.Thread)
		if t == nil {
			return Stack{}, fmt.Errorf("no thread %q at %s: give a thread's name (JVM) or goroutine id (Go) as samples and evidence list them", in.Thread, r.Moments[m].Label)
		}
		g = tg
		sg = groupOf(tg, m, t)
		sg.Stack = t
	} else {
		if in.Pool == "" || in.State == "" {
			return Stack{}, fmt.Errorf("give thread, or pool and state (and group): which stack?")
		}
		if g, m, err = state(r, StateIn{Ref: in.Ref, Pool: in.Pool, State: in.State, Via: in.Via, Moment: in.Moment}); err != nil {
			return Stack{}, err
		}
		sgs := report.StackGroups(g, m)
		if len(sgs) == 0 {
			return Stack{}, fmt.Errorf("%s %s has no thread at %s: give a moment it has threads at", g.Pool, stateName(g), r.Moments[m].Label)
		}
		if in.Group < 0 || in.Group >= len(sgs) {
			return Stack{}, fmt.Errorf("%s %s has %d groups at %s: group %d is not one", g.Pool, stateName(g), len(sgs), r.Moments[m].Label, in.Group)
		}
		sg = sgs[in.Group]
	}
	return stackOut(r, g, m, sg), nil
}

// stackOut is sg's stack, marked, cut at maxFrames.
func stackOut(r *analyze.Result, g *analyze.Group, m int, sg report.StackGroup) Stack {
	out := Stack{Pool: g.Pool, State: g.State, Via: g.Via, Moment: r.Moments[m].Label, Count: sg.Count, Culprit: sg.Culprit, Entry: sg.Entry,
		Lines: []string{}, Frames: []FrameOut{}}
	t := sg.Stack
	if t == nil {
		return out
	}
	out.Title = threadTitle(t, sg)
	lines := report.MarkedStack(sg, r.Runtime)
	if len(lines) > maxFrames {
		out.Cut = len(lines) - maxFrames
		lines = lines[:maxFrames]
	}
	out.Lines = lines
	for i, f := range t.Frames {
		if i == maxFrames {
			break
		}
		out.Frames = append(out.Frames, FrameOut{Frame: analyze.FrameString(f), Culprit: i == sg.CulpritAt, Entry: i == sg.EntryAt})
	}
	return out
}

func threadTitle(t *parse.Thread, sg report.StackGroup) string {
	name := t.Name()
	if name == "" && t.ID != 0 {
		name = "goroutine " + strconv.FormatInt(t.ID, 10)
	}
	if sg.Count > 1 {
		return fmt.Sprintf("%s (one of %d with this stack)", name, sg.Count)
	}
	return name
}

// findThread is the thread named (JVM name, or goroutine id) at moment m
// and its group: one pass over the moment's threads.
func findThread(r *analyze.Result, m int, name string) (*parse.Thread, *analyze.Group) {
	id, idErr := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(name), "goroutine "), 10, 64)
	for _, p := range r.Pools {
		for _, g := range p.States {
			if m >= len(g.Threads) {
				continue
			}
			for _, t := range g.Threads[m] {
				if t.Name() == name || idErr == nil && t.ID == id && t.Name() == "" {
					return t, g
				}
			}
		}
	}
	return nil, nil
}

// groupOf is the identical-stack group of g at m whose stack is t's: its
// culprit and entry marks hold for t's frames (the same frames).
func groupOf(g *analyze.Group, m int, t *parse.Thread) report.StackGroup {
	for _, sg := range report.StackGroups(g, m) {
		if sameFrames(sg.Stack, t) {
			return sg
		}
	}
	return report.StackGroup{Count: 1, CulpritAt: -1, EntryAt: -1, DiffersAt: -1}
}

func sameFrames(a, b *parse.Thread) bool {
	if a == nil || b == nil || len(a.Frames) != len(b.Frames) {
		return false
	}
	for i := range a.Frames {
		if a.Frames[i].Func != b.Frames[i].Func || a.Frames[i].Line != b.Frames[i].Line || a.Frames[i].File != b.Frames[i].File {
			return false
		}
	}
	return true
}

// CompareIn names a group and two moments.
type CompareIn struct {
	Ref
	Pool  string `json:"pool"`
	State string `json:"state"`
	Via   string `json:"via,omitempty"`
	Group int    `json:"group,omitempty" jsonschema:"the group's index at the 'to' moment, as groups gives it (default 0, the largest)"`
	From  string `json:"from,omitempty" jsonschema:"the moment to compare from, label or index (default: the first moment)"`
	To    string `json:"to,omitempty" jsonschema:"the moment to compare to (default: the moment the state has the most threads)"`
}

// Comparison is a group's stack at two moments, aligned.
type Comparison struct {
	From      string `json:"from"`
	To        string `json:"to"`
	FromGroup string `json:"from_group" jsonschema:"the group compared at from: the one with the same culprit and entry, else the largest; empty when the state has no thread there"`
	ToGroup   string `json:"to_group"`
	Same      int    `json:"same" jsonschema:"frames in both"`
	OnlyFrom  int    `json:"only_from"`
	OnlyTo    int    `json:"only_to"`
	// Lines are "  frame" (both), "- frame" (only at from), "+ frame"
	// (only at to), "  a → b" (the same function at another line).
	Lines []string `json:"lines"`
	Note  string   `json:"note,omitempty"`
}

func (s *Server) compareTool(_ context.Context, in CompareIn) (Comparison, error) {
	_, r, err := s.get(in.AnalysisID, in.Target)
	if err != nil {
		return Comparison{}, err
	}
	g, to, err := state(r, StateIn{Ref: in.Ref, Pool: in.Pool, State: in.State, Via: in.Via, Moment: in.To})
	if err != nil {
		return Comparison{}, err
	}
	from := 0
	if in.From != "" {
		if from, err = momentOf(r, in.From, nil); err != nil {
			return Comparison{}, err
		}
	}
	tos := report.StackGroups(g, to)
	if len(tos) == 0 {
		return Comparison{}, fmt.Errorf("%s %s has no thread at %s: give a moment it has threads at as to", g.Pool, stateName(g), r.Moments[to].Label)
	}
	if in.Group < 0 || in.Group >= len(tos) {
		return Comparison{}, fmt.Errorf("%s %s has %d groups at %s: group %d is not one", g.Pool, stateName(g), len(tos), r.Moments[to].Label, in.Group)
	}
	b := tos[in.Group]
	out := Comparison{From: r.Moments[from].Label, To: r.Moments[to].Label, ToGroup: b.Label(), Lines: []string{}}
	var a *report.StackGroup
	froms := report.StackGroups(g, from)
	for i := range froms {
		if froms[i].Culprit == b.Culprit && froms[i].Entry == b.Entry {
			a = &froms[i]
			break
		}
	}
	if a == nil && len(froms) > 0 {
		a = &froms[0]
		out.Note = "no group at " + out.From + " has the same culprit and entry: compared with its largest group"
	}
	var at *parse.Thread
	if a == nil {
		out.Note = fmt.Sprintf("%s %s has no thread at %s: every frame is new since then", g.Pool, stateName(g), out.From)
	} else {
		at, out.FromGroup = a.Stack, a.Label()
	}
	for _, op := range report.DiffStacks(at, b.Stack) {
		switch op.Kind {
		case ' ':
			out.Same++
		case '-':
			out.OnlyFrom++
		case '+':
			out.OnlyTo++
		}
		if len(out.Lines) < 2*maxFrames {
			out.Lines = append(out.Lines, op.Text())
		}
	}
	return out, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// addTools registers every tool.
func (s *Server) addTools() {
	tool(s, "analyze", "Analyze dumps",
		"Analyze goroutine or JVM thread dumps taken at several moments (files or folders under the server's roots, as `dumpdiff` reads them): "+
			"the verdict, with each finding's facts as dumpdiff's JSON report gives them, the notable threads, the moments, the loading warnings, "+
			"and an analysis_id for the other tools. Findings are paged: the next pages come from verdict.", true, s.analyzeTool)
	tool(s, "verdict", "A page of a verdict",
		"The verdict of an analysis made with analyze, at a page of its findings (cursor: the next_cursor of the last page).", true, s.verdictTool)
	tool(s, "finding", "A finding whole",
		"One finding of an analysis whole: its sentence, labelled facts, numbers per moment, evidence, remedy, what it follows from and what follows from it.",
		true, s.findingTool)
	tool(s, "pools", "Pools and states",
		"The pools (thread pools, goroutine creators) of an analysis and their blocking states across the moments, one row a state with counts per moment, "+
			"culprit frame and sample threads. Paged.", true, s.poolsTool)
	tool(s, "groups", "Identical-stack groups of a state",
		"The groups of identical stacks of one state of a pool at a moment, largest first, with what tells each apart (culprit, entry point, first differing frame). Paged.",
		true, s.groupsTool)
	tool(s, "stack", "A stack, marked",
		"The stack of one thread (by name or goroutine id) or of one identical-stack group at a moment, with the culprit and entry-point frames marked.",
		true, s.stackTool)
	tool(s, "compare", "Compare a group's stack between two moments",
		"A group's stack at one moment aligned with the same group's (same culprit and entry) at another: frames in both, only before, only after.",
		true, s.compareTool)
	s.addWatchTools()
	s.addCaptureTool()
}
