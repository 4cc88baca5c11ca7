package parse

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// The SAP header's property: threads made at random (names with spaces and
// colons, daemon or not, ids, priorities, CPU and elapsed times, states),
// written as SAP JVM prints them (three header lines, "[reset …]" values,
// the decimal nid after " / ", the VM state in brackets, signatures in the
// frames) and as HotSpot prints them (one line), read as the same threads.
func TestSAPHeaderProperty(t *testing.T) {
	names := []string{"main", "Control Handler", "Server: sap_jvm_profiling_server_34384", "RMI TCP Connection(2)-10.65.218.67", "pool-3-thread-7"}
	states := []struct{ word, state string }{{"runnable", "RUNNABLE"}, {"waiting on condition", "TIMED_WAITING (parking)"}, {"in Object.wait()", "WAITING (on object monitor)"}}
	r := rand.New(rand.NewSource(81))
	for i := 0; i < 200; i++ {
		var sap, hs strings.Builder
		sap.WriteString("Full thread dump SAP Java Server VM (8.1.108 11.0.30+000 Jan 16 2026 19:39:58 - 81_REL - optU - linux amd64 - 6 - bas2:343998 (mixed mode)):\n\n")
		hs.WriteString("Full thread dump OpenJDK 64-Bit Server VM (11.0.30+000 mixed mode):\n\n")
		for k := 0; k < 1+r.Intn(6); k++ {
			name := names[r.Intn(len(names))]
			daemon := ""
			if r.Intn(2) == 0 {
				daemon = " daemon"
			}
			id, prio, nid := 1+r.Intn(500), 1+r.Intn(10), 1+r.Intn(60000)
			cpu, el := float64(r.Intn(100000))/100, float64(r.Intn(100000))/100
			alloc := r.Intn(5_000_000)
			st := states[r.Intn(len(states))]
			tid := fmt.Sprintf("0x00000192%08x", r.Int31())
			fmt.Fprintf(&sap, "%q #%d%s prio=%d os_prio=0 cpu=%.2f [reset %.2f] ms elapsed=%.2f [reset %.2f] s allocated=%d B (%.2f KB) [reset %d B (%.2f KB)] defined_classes=%d\n",
				name, id, daemon, prio, cpu, cpu, el, el, alloc, float64(alloc)/1024, alloc, float64(alloc)/1024, r.Intn(900))
			sap.WriteString("io= file i/o: 0/0 B, net i/o: 0/0 B, files opened:0, socks opened:0  [reset file i/o: 0/0 B, net i/o: 0/0 B, files opened:0, socks opened:0 ] \n")
			fmt.Fprintf(&sap, "tid=%s nid=0x%x / %d %s   [_thread_blocked (_at_safepoint), stack(0x00000014bc900000,0x00000014bca00000)] [0x0000000000000000]\n", tid, nid, nid, st.word)
			fmt.Fprintf(&hs, "%q #%d%s prio=%d os_prio=0 cpu=%.2fms elapsed=%.2fs allocated=%dB tid=%s nid=0x%x %s  [0x0000000000000000]\n",
				name, id, daemon, prio, cpu, el, alloc, tid, nid, st.word)
			for _, b := range []*strings.Builder{&sap, &hs} {
				fmt.Fprintf(b, "   java.lang.Thread.State: %s\n", st.state)
			}
			sap.WriteString("\tat java.lang.Thread.sleep(J)V(Native Method)\n\tat com.example.Worker.run()V(Worker.java:41)\n\n")
			hs.WriteString("\tat java.lang.Thread.sleep(Native Method)\n\tat com.example.Worker.run(Worker.java:41)\n\n")
		}
		got, err := Parse("sap.txt", strings.NewReader(sap.String()))
		if err != nil {
			t.Fatal(err)
		}
		want, err := Parse("hotspot.txt", strings.NewReader(hs.String()))
		if err != nil {
			t.Fatal(err)
		}
		fp := func(ds []*Dump) string {
			var b strings.Builder
			for _, d := range ds {
				fmt.Fprintf(&b, "%d threads, %d skipped\n", len(d.Threads), len(d.Skipped))
				for _, th := range d.Threads {
					j := th.Java()
					fmt.Fprintf(&b, "%d %q %v %s %s %s %s %v %v %d frames\n", th.ID, th.Name(), j.Daemon, j.TID, j.NativeID, th.State, j.StateDetail, j.CPU, j.Elapsed, len(th.Frames))
				}
			}
			return b.String()
		}
		if g, w := fp(got), fp(want); g != w {
			t.Fatalf("draw %d: SAP's form read as\n%s\nHotSpot's as\n%s\ninput:\n%s", i, g, w, sap.String())
		}
	}
}
