package parse

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseTruncatedGzip checks gzip inputs cut short (a copy stopped
// early, head -c): the error says the gzip stream is truncated and where,
// wraps io.ErrUnexpectedEOF, and text dumps read before the cut come with it.
func TestParseTruncatedGzip(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		bytes   int // bytes of file kept
		wantErr string
		want    []dumpSummary
	}{
		{
			// 10000 threads; gzip -dc of the same 100000 bytes gives 39778
			// lines and a cut line 39779 (`"many-3380" #339`) after 3391
			// whole thread headers.
			name:    "jstack text cut inside a thread header",
			file:    "../testdata/jvm/jstack-l-10000-threads.txt.gz",
			bytes:   100000,
			wantErr: "x: gzip stream truncated in line 39779 (1 dump read before it): unexpected EOF",
			want:    []dumpSummary{{Line: 1, Threads: 3391, Skipped: 1}},
		},
		{
			name:    "pprof proto cut: no dump",
			file:    "../testdata/go/go1.26.8-debug0.pb.gz",
			bytes:   3000,
			wantErr: "x: truncated gzip stream: it ends after 5360 bytes of go-proto data: unexpected EOF",
		},
		{
			name:    "cut inside the gzip header",
			file:    "../testdata/go/go1.26.8-debug0.pb.gz",
			bytes:   5,
			wantErr: "x: truncated gzip stream (cut inside its header): unexpected EOF",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := readInput(t, tt.file)[:tt.bytes]
			dumps, err := Parse("x", strings.NewReader(in))
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("err = %v does not wrap io.ErrUnexpectedEOF", err)
			}
			if diff := cmp.Diff(tt.want, summarize(dumps)); diff != "" {
				t.Errorf("dumps returned with the error (-want +got):\n%s", diff)
			}
		})
	}
}
