package analyze

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dumpdiff/dumpdiff/parse"
)

// TestMissedSignalFixtures (issue 33, "a condition wait after a missed
// signal"): real Java 17 and Temurin 25 programs (testdata/gen/
// verdicts-keptalive, READMEs written from the source first): an
// Object.wait and a Condition.await whose senders signalled before the
// wait and ended, a flag set without a notify and a signal on the wrong
// Condition are stuck, said as an inference; the same waits with live
// senders are quiet; one dump says nothing.
func TestMissedSignalFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts")
	orphanIn := func(class string) func(t *testing.T, f Finding) {
		return func(t *testing.T, f Finding) {
			eq(t, "basis", f.Basis, "no-signaller")
			eq(t, "severity", f.Severity, Warning)
			eq(t, "class", WaitClass(f.Culprit), class)
		}
	}
	orphan, tracker := orphanIn("com.example.keptalive2.MissedSignalApp"), orphanIn("com.example.keptalive2.jobs.JobTracker")
	var tests []fixtureCase
	for _, p := range []string{"", "jdk25-"} {
		for _, cut := range [][]string{{"1", "2", "3"}, {"2", "3"}} {
			tests = append(tests,
				fixtureCase{p + "missed-signal-stuck", cut, []want{{KindStuck, "result-waiter", "object-wait", orphan}, {KindStuck, "reply-waiter", "park", orphan}}},
				fixtureCase{p + "missed-signal-healthy", cut, nil},
				fixtureCase{p + "missed-notify-stuck", cut, []want{{KindStuck, "job-waiter", "object-wait", tracker}, {KindStuck, "batch-waiter", "park", tracker}}},
				fixtureCase{p + "missed-notify-healthy", cut, nil})
		}
		tests = append(tests, fixtureCase{p + "missed-signal-stuck", []string{"1"}, nil})
	}
	runFixtureCases(t, dir, tests)
}

// TestNoSignallerByStructure (generated): the real missed-signal-stuck
// dumps with threads drawn at random added at every moment, and the
// waiters' cpu= sometimes grown. A waiter is stuck exactly when no added
// thread runs its package (com.example.keptalive2) outside
// an untimed wait (an added thread in an
// untimed wait may be such a waiter itself: only the two are checked),
// no added thread serves (an acceptor), and its cpu= did not grow.
func TestNoSignallerByStructure(t *testing.T) {
	dir := filepath.Join("..", "testdata", "verdicts", "missed-signal-stuck")
	var texts []string
	for _, m := range []string{"1", "2", "3"} {
		b, err := os.ReadFile(filepath.Join(dir, m+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	const same, other = "com.example.keptalive2.MissedSignalApp.lambda$main$9(MissedSignalApp.java:90)", "com.example.other.Poller.run(Poller.java:12)"
	kinds := []struct {
		state, top string
		acts       bool // not in an untimed wait
	}{
		{"TIMED_WAITING (sleeping)", "java.lang.Thread.sleep(java.base@17.0.15/Native Method)", true},
		{"RUNNABLE", "java.io.FileOutputStream.writeBytes(java.base@17.0.15/Native Method)", true},
		{"BLOCKED (on object monitor)", "java.lang.Object.hashCode(java.base@17.0.15/Native Method)", true},
		{"WAITING (on object monitor)", "java.lang.Object.wait(java.base@17.0.15/Native Method)", false},
	}
	cpuRe := regexp.MustCompile(`("result-waiter" #\d+ prio=5 os_prio=0 cpu=)([0-9.]+)ms`)
	rng := rand.New(rand.NewSource(33))
	said, quiet := 0, 0
	for i := range 200 {
		signalled := false
		var add strings.Builder
		for k := range rng.Intn(3) {
			kd := kinds[rng.Intn(len(kinds))]
			fn := other
			if rng.Intn(2) == 0 {
				fn = same
				signalled = signalled || kd.acts
			}
			fmt.Fprintf(&add, "%q #%d prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x00007f0000%06x nid=0x%x runnable  [0x00007f0000000000]\n   java.lang.Thread.State: %s\n\tat %s\n\tat %s\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n",
				fmt.Sprintf("gen-%d", k), 200+k, k, 0xa000+k, kd.state, kd.top, fn)
		}
		// A process that serves takes calls that may run any of its code.
		if rng.Intn(5) == 0 {
			fmt.Fprintf(&add, "\"acceptor\" #300 prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x00007f0000000300 nid=0xb000 runnable  [0x00007f0000000000]\n   java.lang.Thread.State: RUNNABLE\n\tat sun.nio.ch.Net.accept(java.base@17.0.15/Native Method)\n\tat sun.nio.ch.NioSocketImpl.accept(java.base@17.0.15/NioSocketImpl.java:760)\n\tat java.net.ServerSocket.implAccept(java.base@17.0.15/ServerSocket.java:675)\n\tat java.net.ServerSocket.accept(java.base@17.0.15/ServerSocket.java:641)\n\tat com.example.other.Server.run(Server.java:30)\n\tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)\n\n")
			signalled = true
		}
		woke := rng.Intn(4) == 0
		var in []Input
		for m, text := range texts {
			text = strings.Replace(text, "\"main\" #1 ", add.String()+"\"main\" #1 ", 1)
			if woke && m == 2 {
				text = cpuRe.ReplaceAllString(text, "${1}99.00ms")
			}
			ds, err := parse.Parse(fmt.Sprintf("%d.txt", m+1), strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Label: fmt.Sprint(m + 1), Dump: ds[0]})
		}
		r := Analyze(in, Options{})
		got := map[string]bool{}
		for _, f := range r.Findings {
			if f.Basis == "no-signaller" {
				got[f.Pool] = true
			}
		}
		wantReply := !signalled
		wantResult := !signalled && !woke
		if got["reply-waiter"] != wantReply || got["result-waiter"] != wantResult {
			t.Fatalf("case %d: got %v, want reply %v result %v (added:\n%s)", i, got, wantReply, wantResult, add.String())
		}
		if wantReply {
			said++
		} else {
			quiet++
		}
	}
	if said < 30 || quiet < 30 {
		t.Fatalf("the draw is lopsided: %d said, %d quiet", said, quiet)
	}
	t.Logf("%d stuck, %d quiet", said, quiet)
}
