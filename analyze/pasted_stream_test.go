package analyze

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// streamStack writes one goroutine of a Go paste: its header with a
// printed wait, its frames top first ("pkg.func:line"), and its creator
// when created is not "".
func streamStack(b *strings.Builder, id, minutes int, state string, frames []string, created string) {
	fmt.Fprintf(b, "goroutine %d [%s, %d minutes]:\n", id, state, minutes)
	for _, f := range frames {
		fn, line, _ := strings.Cut(f, ":")
		fmt.Fprintf(b, "%s(0xc8200ba410)\n\t/src/%s.go:%s +0x3f1\n", fn, strings.ReplaceAll(fn, "(*", ""), line)
	}
	if created != "" {
		fmt.Fprintf(b, "created by %s in goroutine 1\n\t/src/created.go:9 +0x2c\n", created)
	}
	b.WriteString("\n")
}

// The waits of a multiplexed stream and their callers: a stream's read
// (yamux, smux, vendored or not) or a connection read under a library;
// libraries all (no frame of the application, which the rules before
// this one judge by its culprit); what may sit below it: stdlib buffering, another module's decoder (a
// reply being read: under a call), the waiting library's own loop.
var (
	streamTops = [][]string{
		{"select", "github.com/hashicorp/yamux.(*Stream).Read:125"},
		{"select", "github.com/hashicorp/consul/vendor/github.com/hashicorp/yamux.(*Stream).Read:125"},
		{"select", "github.com/hashicorp/nomad/vendor/github.com/hashicorp/yamux.(*Stream).Read:133"},
		{"IO wait", "internal/poll.runtime_pollWait:351", "net.(*conn).Read:196", "golang.org/x/net/http2.(*Framer).ReadFrame:498"},
	}
	streamBuffers  = []string{"bufio.(*Reader).fill:97", "bufio.(*Reader).ReadByte:229", "io.ReadFull:339"}
	streamDecoders = []string{"github.com/hashicorp/go-msgpack/codec.(*ioDecReader).readn1:90",
		"github.com/hashicorp/net-rpc-msgpackrpc.CallWithCodec:32", "google.golang.org/protobuf/encoding/protodelim.UnmarshalFrom:103"}
)

// TestPastedStreamReadProperty: a goroutine a person pasted (no goroutine
// 1 in the paste), whose stack lost its bottom (no creator: the paste or
// the copy cut it), waiting WorkRestMinutes or more in a library's read
// that another module's frame below consumes (a decoder reading a reply)
// is stuck (work-wait); without that consumer (the library's own loop,
// its bottom kept or not), with a creator printed, under WorkRestMinutes,
// or in a whole dump (goroutine 1 in it) it stays a rest. Seeded; each
// paste ends cut in a frame line half the time, as a copy cuts it.
func TestPastedStreamReadProperty(t *testing.T) {
	for seed := range uint64(500) {
		rng := rand.New(rand.NewPCG(seed, 33))
		top := streamTops[rng.IntN(len(streamTops))]
		frames := append([]string(nil), top[1:]...)
		frames = append(frames, streamBuffers[:rng.IntN(len(streamBuffers)+1)]...)
		consumer := rng.IntN(2) == 0
		if consumer {
			frames = append(frames, streamDecoders[rng.IntN(len(streamDecoders))])
		}
		created := ""
		if rng.IntN(3) == 0 {
			// The waiting library's own loop at the bottom, its creator printed.
			lib := frames[len(top)-2]
			loop := lib[:strings.LastIndexByte(lib, '.')] + ".recvLoop:300"
			if !consumer {
				frames = append(frames, loop)
			}
			created = loop[:strings.IndexByte(loop, ':')]
		}
		age := []int{1, WorkRestMinutes - 1, WorkRestMinutes, 88, 600}[rng.IntN(5)]
		whole := rng.IntN(5) == 0
		var b strings.Builder
		if whole {
			streamStack(&b, 1, 600, "select", []string{"main.main:30"}, "")
		}
		streamStack(&b, 25, age, top[0], frames, created)
		text := b.String()
		if rng.IntN(2) == 0 && created == "" {
			text = strings.TrimRight(text, "\n")
			text += "\ngithub.com/hashicorp/go-msgpack/codec.(*msgpackDecDriver).initRe"
		}
		ds, err := parse.Parse("paste.txt", strings.NewReader(text))
		if err != nil || len(ds) != 1 {
			t.Fatalf("seed %d: %v", seed, err)
		}
		r := Analyze([]Input{{Dump: ds[0]}}, Options{})
		var got []Finding
		for _, f := range r.Findings {
			if f.Kind == KindStuck {
				got = append(got, f)
			}
		}
		// A paste the person edited (Cut) keeps the rule before this one:
		// any rest under a bottom the cut took away.
		under := consumer || ds[0].Cut
		want := !whole && created == "" && under && age >= WorkRestMinutes
		if want != (len(got) == 1) || len(got) > 1 {
			t.Errorf("seed %d (consumer %v, created %q, %d minutes, whole %v, cut %v): %d stuck findings, want %v\n%s",
				seed, consumer, created, age, whole, ds[0].Cut, len(got), want, text)
			continue
		}
		if want && (got[0].Wait == nil || got[0].Wait.Goroutines != 1 || got[0].Severity != Warning) {
			t.Errorf("seed %d: told %+v, want one goroutine, a warning", seed, got[0])
		}
	}
}

// TestGoModule: the module a function's package is in, by its path.
func TestGoModule(t *testing.T) {
	for _, tt := range []struct{ fn, want string }{
		{"github.com/hashicorp/consul/vendor/github.com/hashicorp/yamux.(*Stream).Read", "github.com/hashicorp/yamux"},
		{"github.com/hashicorp/go-msgpack/codec.(*ioDecReader).readn1", "github.com/hashicorp/go-msgpack"},
		{"golang.org/x/net/http2.(*Framer).ReadFrame", "golang.org/x/net"},
		{"google.golang.org/grpc/internal/transport.(*http2Client).reader", "google.golang.org/grpc"},
		{"gopkg.in/yaml%2ev3.(*decoder).unmarshal", "gopkg.in/yaml%2ev3"}, // Go escapes the last element's dots
		{"net/http.(*persistConn).readLoop", ""},
		{"bufio.(*Reader).fill", ""},
		{"main.main", ""},
		{"internal/poll.runtime_pollWait", ""},
	} {
		if got := goModule(tt.fn); got != tt.want {
			t.Errorf("goModule(%q) = %q, want %q", tt.fn, got, tt.want)
		}
	}
}

// TestStreamPasteFixtures: real runs here (testdata/gen/go-stream-paste,
// Go 1.26 and Go 1.13, yamux and go-msgpack from the module proxy): the
// client's goroutine pasted alone and cut in a copy, 7 minutes in
// yamux.(*Stream).Read under go-msgpack's decode, is stuck; the session's
// own reader pasted and cut likewise is not; the whole dumps tell the
// lock its waiter waits for, held by the goroutine reading its peer.
func TestStreamPasteFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	stuck := func(t *testing.T, f Finding) {
		eq(t, "basis", f.Basis, "work-wait")
		eq(t, "severity", f.Severity, Warning)
		eq(t, "minutes", f.Wait.MaxMinutes, 7)
	}
	runFixtureCases(t, dir, []fixtureCase{
		{"go-stream-paste-stuck", []string{"paste"}, []want{{KindStuck, "github.com/hashicorp/go-msgpack/codec.(*Decoder).Decode", "stream-read", stuck}}},
		{"go-stream-paste-stuck-go113", []string{"paste"}, []want{{KindStuck, "github.com/hashicorp/go-msgpack/codec.(*Decoder).Decode", "stream-read", stuck}}},
		{"go-stream-paste-healthy", []string{"paste"}, nil},
		{"go-stream-paste-healthy-go113", []string{"paste"}, nil},
	})
	holder := func(t *testing.T, f Finding) {
		eq(t, "inferred", f.Lock.OwnerInferred, true)
		eq(t, "owner state", f.Lock.Owner.State, "stream-read")
		eq(t, "owner culprit", f.Lock.Owner.Culprit, "main.call (main.go:32)")
	}
	runFixtureCases(t, filepath.Join("..", "testdata", "gen", "go-stream-paste", "dumps"), []fixtureCase{
		{"go126", []string{"dump.txt.gz"}, []want{{KindContention, "main.main", "mutex-wait", holder}}},
		{"go113", []string{"dump.txt.gz"}, []want{{KindContention, "main.main", "mutex-wait", holder}}},
	})
}
