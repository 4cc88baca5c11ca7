package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/internal/captured"
	"github.com/dumpdiff/dumpdiff/internal/words"
	"github.com/dumpdiff/dumpdiff/parse"
)

// loadOptions are the flags that shape the moments.
type loadOptions struct {
	labels []string // --labels, in the order the moments are given
	// argsOrder keeps the moments in the order given (--order args);
	// otherwise they are ordered by their times where they have them.
	argsOrder bool
}

// loadInputs reads every argument (file, folder, "-") into moments,
// ordered by their times (orderByTime) unless opt.argsOrder. A folder is read in its manifest's order when it has one
// (a dumpdiff capture), else in before/during/after order of the file
// names. Files of one moment in other encodings (debug=1, proto) become aux
// dumps of the debug=2 text. What loading has to say is added to warn.
func loadInputs(args []string, opt loadOptions, stdin io.Reader, warn *loadNotes) ([]analyze.Input, error) {
	var in []analyze.Input
	stdinUsed := false
	// seen are the files read so far (canonical path → as given): a file
	// given again is not parsed again (dedupeInputs says so below).
	seen := map[string]string{}
	pre := newPrefetch()
	var files []string
	starting := map[string]bool{}
	for _, a := range args {
		if st, err := os.Stat(a); err == nil && st.Mode().IsRegular() && !starting[canonicalPath(a)] {
			starting[canonicalPath(a)] = true
			files = append(files, a)
		}
	}
	pre.start(files...)
	var side []sideRows // files of CPU rows and no dump (cputables.go)
	for _, a := range args {
		if a == "-" {
			if stdinUsed {
				return nil, fmt.Errorf("- (standard input) given twice")
			}
			stdinUsed = true
			if stdin == nil {
				stdin = os.Stdin
			}
			dumps, err := keepPartial(parse.Parse("-", stdin))(warn)
			if err != nil {
				return nil, err
			}
			for _, d := range dumps {
				in = append(in, analyze.Input{Dump: d})
			}
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", a, errors.Unwrap(err))
		}
		if st.IsDir() {
			xs, err := loadDir(a, seen, pre, warn, &side, len(in))
			if err != nil {
				return nil, err
			}
			in = append(in, xs...)
			continue
		}
		if first, ok := seen[canonicalPath(a)]; ok {
			warn.add("warning: %s is given twice (as %s and %s): read once", a, first, a)
			continue
		}
		seen[canonicalPath(a)] = a
		dumps, err := keepPartial(pre.get(a))(warn)
		if err != nil {
			var nd *parse.NoDumpError
			if rows := cpuRowsOf(a); errors.As(err, &nd) && len(rows) > 0 {
				warn.add("%s", sideNote(a, rows))
				side = append(side, sideRows{file: a, after: len(in), rows: rows})
				continue
			}
			return nil, err
		}
		for _, d := range dumps {
			in = append(in, analyze.Input{Dump: d})
		}
	}
	attachCPUTables(in, side, warn) // in the order given: a table goes with the dump before it
	in = dedupeInputs(in, warn)
	// Labels name the moments in the order given, before any reordering:
	// they follow their dumps.
	if len(opt.labels) > 0 {
		if len(opt.labels) != len(in) {
			return nil, fmt.Errorf("--labels gives %d labels for %d moments", len(opt.labels), len(in))
		}
		for i := range in {
			in[i].Label = opt.labels[i]
		}
	}
	in = dedupeSameDump(in, warn)
	in = dateByElapsed(in, warn)
	if !opt.argsOrder {
		in = orderByTime(in, warn)
	}
	if len(in) == 0 {
		return nil, fmt.Errorf("no dump found in %s%s", strings.Join(args, ", "), subfolderHint(args))
	}
	return in, nil
}

// dedupeInputs keeps one moment per dump: the same file given twice, or a
// file and the folder that holds it, is read once (the first time given),
// with a warning, so that no moment is counted twice.
func dedupeInputs(in []analyze.Input, warn *loadNotes) []analyze.Input {
	type key struct {
		path  string
		index int
	}
	seen := map[key]string{}
	out := in[:0:0]
	for _, x := range in {
		src := x.Dump.Source
		if src.File == "-" {
			out = append(out, x)
			continue
		}
		k := key{canonicalPath(src.File), src.Index}
		if first, ok := seen[k]; ok {
			what := src.File
			if src.Index > 0 {
				what = fmt.Sprintf("%s (dump %d)", src.File, src.Index+1)
			}
			warn.add("warning: %s is given twice (as %s and %s): read once", what, first, src.File)
			continue
		}
		seen[k] = src.File
		out = append(out, x)
	}
	return out
}

// canonicalPath is path made absolute with its links resolved; path itself
// when that fails.
func canonicalPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// subfolderHint names the folders inside folder arguments when nothing
// else was found there: a folder of captures ("dumps/api-1", "dumps/api-2")
// is given one capture at a time.
func subfolderHint(args []string) string {
	var subs []string
	for _, a := range args {
		entries, err := os.ReadDir(a)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				subs = append(subs, filepath.Join(a, e.Name()))
			}
		}
	}
	if len(subs) == 0 {
		return ""
	}
	sort.Strings(subs)
	more := ""
	if len(subs) > 8 {
		more = fmt.Sprintf(" and %d more", len(subs)-8)
		subs = subs[:8]
	}
	return fmt.Sprintf(": it holds only folders (%s%s); give one of them, e.g. dumpdiff %s", strings.Join(subs, ", "), more, subs[0])
}

// keepPartial keeps what a truncated input gave (a gzip cut in transfer):
// the dumps read before the cut are analyzed and the cut is reported as a
// warning; nothing already read is lost. Other errors pass through.
func keepPartial(dumps []*parse.Dump, err error) func(warn *loadNotes) ([]*parse.Dump, error) {
	return func(warn *loadNotes) ([]*parse.Dump, error) {
		dumps, note, err := captured.KeepPartial(dumps, err)
		if note != "" {
			warn.add("%s", note)
		}
		return dumps, err
	}
}

// loadDir reads a folder of dumps.
//
// A file of the folder that holds no dump but a CPU table (top -H, ps -L)
// is added to side, as given after the folder's first moment (before is
// how many moments were loaded before the folder): a table taken at the
// first of the dumps goes with it, unless top's clock says another.
func loadDir(dir string, seen map[string]string, pre *prefetch, warn *loadNotes, side *[]sideRows, before int) ([]analyze.Input, error) {
	if xs, ok, err := loadManifest(dir, pre, warn); ok || err != nil {
		return xs, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	// A moment is a stem ("during-1") with its files: the primary dump
	// (debug=2 text, a JVM dump) and, beside it, the other encodings of the
	// same moment (debug=1, proto, goroutineleak), which add labels only.
	type file struct {
		name  string
		dumps []*parse.Dump
	}
	byStem := map[string][]file{}
	var stems []string
	var names []string
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && !strings.HasPrefix(name, ".") && !skipExt(name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		if _, ok := seen[canonicalPath(filepath.Join(dir, name))]; !ok {
			pre.start(filepath.Join(dir, name))
		}
	}
	for _, name := range names {
		path := filepath.Join(dir, name)
		if first, ok := seen[canonicalPath(path)]; ok {
			warn.add("warning: %s is given twice (as %s and in %s): read once", path, first, dir)
			continue
		}
		seen[canonicalPath(path)] = path
		dumps, err := keepPartial(pre.get(path))(warn)
		if err != nil {
			var nd *parse.NoDumpError
			if errors.As(err, &nd) {
				if rows := cpuRowsOf(path); len(rows) > 0 {
					warn.add("%s", sideNote(path, rows))
					*side = append(*side, sideRows{file: path, after: before + 1, rows: rows})
					continue
				}
				warn.add("skipping %s: no dump in it", path)
				continue
			}
			return nil, err
		}
		stem := momentStem(name)
		if _, ok := byStem[stem]; !ok {
			stems = append(stems, stem)
		}
		byStem[stem] = append(byStem[stem], file{name, dumps})
	}
	sort.SliceStable(stems, func(i, j int) bool { return lessLabel(stems[i], stems[j]) })
	var in []analyze.Input
	for _, stem := range stems {
		var primaries, beside []file
		for _, f := range byStem[stem] {
			if besideEncoding(f.dumps[0]) {
				beside = append(beside, f)
			} else {
				primaries = append(primaries, f)
			}
		}
		if len(primaries) == 0 {
			primaries, beside = beside[:1], beside[1:]
		}
		var aux []*parse.Dump
		if len(primaries) == 1 {
			for _, f := range beside {
				aux = append(aux, f.dumps...)
			}
		} else {
			// Two dumps of the same kind for one name ("x.txt" and "x.log"):
			// both are moments, named by file; the encodings beside them are
			// left out rather than joined to the wrong one.
			for _, f := range beside {
				warn.add("%s: not joined to a moment (several dumps share its name)", filepath.Join(dir, f.name))
			}
		}
		for _, f := range primaries {
			label := stem
			if len(primaries) > 1 {
				label = f.name
			}
			for k, d := range f.dumps {
				x := analyze.Input{Label: label, Dump: d}
				if k == 0 {
					x.Aux = aux
				} else {
					x.Label = fmt.Sprintf("%s#%d", label, k+1) // a multi-dump file: each dump its own moment
				}
				in = append(in, x)
			}
		}
	}
	return in, nil
}

// besideEncoding reports whether d is an encoding taken beside a moment's
// primary dump: debug=1 text, proto, or the goroutine leak profile.
func besideEncoding(d *parse.Dump) bool {
	return d.Format == parse.FormatGoDebug1 || d.Format == parse.FormatGoProto || d.Kind == "goroutineleak"
}

func skipExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".sh", ".java", ".class", ".go", ".mod", ".sum", ".jar", ".tsv", ".csv", ".png", ".html":
		return true
	}
	return name == "manifest.json"
}

// momentStem is the moment a file belongs to: its label without encoding
// suffixes ("before-debug1.txt" and "before.pb.gz" → "before").
func momentStem(name string) string {
	s := analyze.LabelFromFile(name)
	for _, suf := range []string{"-debug0", "-debug1", "-debug2", "-leak", "-proto", ".debug1", ".debug0"} {
		s = strings.TrimSuffix(s, suf)
	}
	return s
}

// labelRank orders moment names: before, then during/load, then after.
func labelRank(s string) int {
	l := strings.ToLower(s)
	switch {
	case strings.HasPrefix(l, "before"), strings.HasPrefix(l, "baseline"), strings.HasPrefix(l, "pre"), strings.HasPrefix(l, "idle"):
		return 0
	case strings.HasPrefix(l, "after"), strings.HasPrefix(l, "post"), strings.HasPrefix(l, "recover"):
		return 2
	}
	return 1
}

// lessLabel sorts by rank, then naturally (during-2 before during-10).
func lessLabel(a, b string) bool {
	ra, rb := labelRank(a), labelRank(b)
	if ra != rb {
		return ra < rb
	}
	return words.NaturalLess(a, b)
}

// loadNotes are what loading the inputs has to say (a file skipped, a dump
// given twice, a cut input): values, not text on a writer, so that the main
// command prints them and the TUI shows them as warnings of its analysis.
type loadNotes struct {
	list []string // each without the "dumpdiff: " prefix
}

func (n *loadNotes) add(format string, a ...any) {
	n.list = append(n.list, fmt.Sprintf(format, a...))
}
