package report

import (
	"github.com/dumpdiff/dumpdiff/analyze"
)

// Document is the report of one analysis in no format, built once
// (NewDocument), for a view that lays out the words itself: the TUI's
// finding pane and its export read a finding's title, numbers and facts
// from it, so that they say what every report says.
type Document struct {
	d    *document
	byID map[string]*findingBlock
}

// NewDocument builds r's document, with the default options.
func NewDocument(r *analyze.Result) *Document {
	d := buildDocument(r, Options{}.withDefaults())
	doc := &Document{d: d, byID: make(map[string]*findingBlock, len(d.findings))}
	for i := range d.findings {
		doc.byID[d.findings[i].id] = &d.findings[i]
	}
	return doc
}

// FindingText is a finding in the words of every report, plain.
type FindingText struct {
	Num   int    // its number in the reports: "finding 2"
	Title string // "warning db-pool-exhausted in http-nio-* (db-pool-wait)", as its heading
	// Counts is its numbers line: "0 → 93 → 96 → 0 threads (before →
	// after) · recovered: yes: 0 at after, the last moment"; "" without
	// counts.
	Counts string
	// Facts are its labelled facts: "Numbers", "Top frame", "Culprit",
	// "Entry points", "Seen", "Follows from", "Leads to" (those it has),
	// as the reports write them (the lead's words for the numbers and
	// entry points, the Findings section's for the rest).
	Facts []Fact
}

// Fact is one labelled fact.
type Fact struct {
	Label string
	Value string
}

// Finding is the finding id's words; false when the analysis has none.
func (doc *Document) Finding(id string) (FindingText, bool) {
	f, ok := doc.byID[id]
	if !ok {
		return FindingText{}, false
	}
	ft := FindingText{Num: f.num, Title: f.title.plain(), Counts: f.counts}
	add := func(label string, value inline) {
		if len(value) > 0 {
			ft.Facts = append(ft.Facts, Fact{label, value.plain()})
		}
	}
	byKey := map[string]inline{}
	for _, it := range f.facts {
		byKey[it.key] = it.value
	}
	add("Numbers", numbers(doc.d.rows, f.findingRow))
	add("Top frame", byKey["Top frame"])
	add("Culprit", byKey["Culprit"])
	add("Entry points", entryList(f.entries))
	// The identical stacks are the TUI's state pane's.
	add("Seen", byKey["Seen"])
	add("Follows from", byKey["Follows from"])
	add("Leads to", byKey["Leads to"])
	return ft, true
}
