package capture

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The manifest written by a real run reads back with the schema's promises:
// version, moments in order, one primary per target and moment, paths that
// exist and sizes that match.
func TestManifestRoundTrip(t *testing.T) {
	t.Parallel()
	s := newPprofServer(t, nil)
	dir := t.TempDir()
	if _, _, err := run(t, context.Background(), Plan{
		Targets: []Target{PprofTarget("api", s.URL), ExecTarget("bad", "exit 1")},
		Count:   2, Every: time.Millisecond, OutDir: dir,
	}, nil); err != nil {
		t.Fatalf("Run: %v", err)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != ManifestVersion || m.Finished.Before(m.Started) || m.Schedule.Kind != "every" || m.Schedule.Count != 2 {
		t.Errorf("header %+v", m)
	}
	for i, mo := range m.Moments {
		if mo.Index != i || mo.Started.Before(mo.Planned.Add(-time.Millisecond)) {
			t.Errorf("moment %d: %+v", i, mo)
		}
	}
	primaries := map[string]int{}
	for _, f := range m.Files {
		if f.Primary {
			primaries[f.Target+"@"+f.Moment]++
		}
		if !f.OK() {
			continue
		}
		st, err := os.Stat(filepath.Join(dir, f.Path))
		if err != nil || st.Size() != f.Size {
			t.Errorf("%s: stat %v, size %d in manifest", f.Path, err, f.Size)
		}
	}
	for _, k := range []string{"api@1", "api@2", "bad@1", "bad@2"} {
		if primaries[k] != 1 {
			t.Errorf("%s: %d primary files, want exactly 1", k, primaries[k])
		}
	}
	if m.Failed() != 2 || len(m.Dumps("bad")) != 0 {
		t.Errorf("failed %d, bad dumps %d; want 2 and 0", m.Failed(), len(m.Dumps("bad")))
	}
}

func TestReadManifestErrors(t *testing.T) {
	t.Parallel()
	write := func(t *testing.T, body string) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	tests := []struct {
		name string
		dir  func(t *testing.T) string
		want string
	}{
		{"missing", func(t *testing.T) string { return t.TempDir() }, "reading manifest: open"},
		{"not JSON", func(t *testing.T) string { return write(t, "{") }, "manifest.json: unexpected end of JSON input"},
		{"newer version", func(t *testing.T) string { return write(t, `{"version": 2}`) }, "manifest version 2, this dumpdiff reads 1..1"},
		{"no version", func(t *testing.T) string { return write(t, `{}`) }, "manifest version 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadManifest(tt.dir(t))
			checkErr(t, err, tt.want)
		})
	}
}

// Dumps orders by the moments list, not by the order files finished.
func TestManifestDumpsOrder(t *testing.T) {
	t.Parallel()
	var m Manifest
	if err := json.Unmarshal([]byte(`{"version":1,
		"moments":[{"label":"before","index":0},{"label":"during-1","index":1},{"label":"after","index":2}],
		"files":[
			{"target":"a","moment":"after","kind":"goroutine","primary":true,"path":"a__after.txt"},
			{"target":"a","moment":"before","kind":"goroutine-proto","path":"a__before.pb.gz"},
			{"target":"a","moment":"during-1","kind":"goroutine","primary":true,"error":"a at during-1: x"},
			{"target":"a","moment":"before","kind":"goroutine","primary":true,"path":"a__before.txt"}]}`), &m); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range m.Dumps("a") {
		got = append(got, f.Path)
	}
	if want := []string{"a__before.txt", "a__after.txt"}; !slices.Equal(got, want) {
		t.Errorf("Dumps = %v, want %v", got, want)
	}
}

// The terminal printer keeps a redrawn status line; the plain one never
// writes escapes.
func TestProgressPrinters(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 17, 30, 0, 0, time.UTC)
	load := &LoadRecord{Command: "sleep 1", Started: now}
	events := []Event{
		{Kind: EventMoment, Time: now, Moment: "before"},
		{Kind: EventFile, Time: now, File: &File{Target: "api", Moment: "before", Kind: FileGoroutine, Path: "api__before.txt", Size: 2048, DurationMS: 3}},
		{Kind: EventLoadStart, Time: now, Load: load},
		{Kind: EventNext, Time: now, Due: now.Add(2 * time.Second), Moment: "during-1", Load: load},
		{Kind: EventTick, Time: now.Add(time.Second), Due: now.Add(2 * time.Second)},
		{Kind: EventFile, Time: now, File: &File{Target: "api", Moment: "during-1", Error: "api at during-1: goroutine debug=2: HTTP 401"}},
	}
	var plain, term strings.Builder
	lp, tp := &LineProgress{W: &plain}, &TerminalProgress{W: &term}
	for _, e := range events {
		lp.Event(e)
		tp.Event(e)
	}
	wantPlain := "17:30:00.000 moment before\n" +
		"17:30:00.000 ok   api before goroutine api__before.txt 2.0 KiB 3ms\n" +
		"17:30:00.000 load started: sleep 1\n" +
		"17:30:00.000 next during-1 at 17:30:02.000 (in 2s)\n" +
		"17:30:00.000 FAIL api at during-1: goroutine debug=2: HTTP 401\n"
	if plain.String() != wantPlain {
		t.Errorf("plain:\n%s\nwant:\n%s", plain.String(), wantPlain)
	}
	if !containsAll(term.String(), "\r\x1b[K", "next during-1 in 1s", "load running", "\x1b[31mFAIL api at during-1") {
		t.Errorf("terminal output %q", term.String())
	}
	if IsTerminal(&plain) {
		t.Error("a strings.Builder is not a terminal")
	}
}

// testdata/v1/manifest.json is a real run's manifest (load schedule, a
// pprof target, a failing command). Version 1 must keep reading it and
// writing it back byte for byte: fields may be added, never renamed.
func TestManifestV1Golden(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile(filepath.Join("testdata", "v1", ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(filepath.Join("testdata", "v1"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := encodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("v1 manifest does not round-trip:\n%s", got)
	}
	var order []string
	for _, f := range m.Dumps("api") {
		order = append(order, f.Moment+":"+f.Path)
	}
	if want := []string{"before:api__before.txt", "during-1:api__during-1.txt", "after:api__after.txt"}; !slices.Equal(order, want) {
		t.Errorf("Dumps(api) = %v, want %v", order, want)
	}
	if len(m.Dumps("pod")) != 0 || m.Failed() != 3 || m.Load.ExitCode != 0 || m.Load.Running() {
		t.Errorf("pod dumps %d, failed %d, load %+v", len(m.Dumps("pod")), m.Failed(), m.Load)
	}
}
