package analyze

import (
	"strings"
	"testing"
)

// TestRemediesFromTheSignaturesFile: a [remedy] row of a signatures file
// answers the findings its lists fit, before the built-in rows (here it
// overrides the untimed-read remedy of slow-upstream-no-timeout: its
// frames are in the threads' stack); a row whose frame is in no stack
// answers nothing, and the built-in remedy stays.
func TestRemediesFromTheSignaturesFile(t *testing.T) {
	in := loadScenario(t, "slow-upstream-no-timeout")
	const file = `
[remedy]
id     = shop-upstream
kinds  = not-recovered
states = socket-read
frames = com.example.shop.UpstreamClient.fetch, SocketDispatcher.read0
text   = give {culprit} the shop's 2 s timeout and its 20-permit bulkhead

[remedy]
frames = com.example.NotInAnyStack.call
text   = never said
`
	ext, err := ParseExtensions(strings.NewReader(file), "signatures")
	if err != nil {
		t.Fatal(err)
	}
	if len(ext.Remedies) != 2 {
		t.Fatalf("%d remedies read, want 2", len(ext.Remedies))
	}
	byKind := func(r *Result) map[string]string {
		out := map[string]string{}
		for _, f := range r.Findings {
			out[f.Kind] = f.Remedy
		}
		return out
	}
	built := byKind(Analyze(in, Options{}))
	if !strings.Contains(built[KindNotRecovered], "no timeout") {
		t.Fatalf("built-in remedy of not-recovered: %q", built[KindNotRecovered])
	}
	got := byKind(Analyze(in, Options{Extensions: ext}))
	if want := "give {culprit} the shop's 2 s timeout and its 20-permit bulkhead"; got[KindNotRecovered] != want {
		t.Errorf("not-recovered remedy %q, want the file's %q", got[KindNotRecovered], want)
	}
	// The saturated finding is not of the row's kinds: the built-in row.
	if got[KindSaturated] != built[KindSaturated] || got[KindSaturated] == "" {
		t.Errorf("saturated remedy %q, want the built-in %q", got[KindSaturated], built[KindSaturated])
	}
	for k, r := range got {
		if strings.Contains(r, "never said") {
			t.Errorf("%s: a row whose frame is in no stack answered: %q", k, r)
		}
	}
}

// TestParseRemedyErrors: a bad [remedy] is refused with its position.
func TestParseRemedyErrors(t *testing.T) {
	for _, tt := range []struct{ name, text, want string }{
		{"no text", "[remedy]\nkinds = deadlock\n", "f:1: [remedy] without a text"},
		{"answers everything", "[remedy]\ntext = restart it\n", "f:1: [remedy] with none of kinds, states or frames: it would answer every finding"},
		{"unknown kind", "[remedy]\nkinds = meltdown\ntext = x\n", `f:2: unknown finding kind "meltdown"`},
		{"unknown key", "[remedy]\nframe = a.B.c\ntext = x\n", `f:2: unknown [remedy] key "frame"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseExtensions(strings.NewReader(tt.text), "f")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}
