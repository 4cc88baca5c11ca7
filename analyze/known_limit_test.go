package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestKnownDefaultPassedOver: a task-* executor configured past Spring
// Boot's default of 8 (here 12 threads, all in one socket read) is
// saturated at its own size, not "at 8 (default)": a pool that outgrew a
// default was configured larger.
func TestKnownDefaultPassedOver(t *testing.T) {
	var b strings.Builder
	b.WriteString("2026-12-01 10:00:00\nFull thread dump OpenJDK 64-Bit Server VM (17 mixed mode):\n\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, `"task-%d" #%d prio=5 os_prio=0 tid=0x%x nid=0x%x runnable  [0x1]
   java.lang.Thread.State: RUNNABLE
	at java.net.SocketInputStream.socketRead0(java.base@17/Native Method)
	at java.net.SocketInputStream.socketRead(java.base@17/SocketInputStream.java:115)
	at com.example.Upstream.fetch(Upstream.java:42)

`, i, 20+i, i, 100+i)
	}
	ds, err := parse.Parse("t.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze([]Input{{Dump: ds[0]}}, Options{})
	for _, f := range r.Findings {
		if f.Kind == KindSaturated && f.Pool == "task-*" {
			if f.Limit.Size != 12 || f.Limit.Source == "default" {
				t.Errorf("saturated at %+v, want the pool's own 12, not the default", f.Limit)
			}
			return
		}
	}
	t.Fatalf("no saturated finding for task-*: %d findings", len(r.Findings))
}
