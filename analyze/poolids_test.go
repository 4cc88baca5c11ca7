package analyze

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// namingConventions are real thread factories whose names carry a pool id
// and a member counter: Executors.defaultThreadFactory ("pool-%d-thread-%d",
// members from 1), Netty's DefaultThreadFactory ("%s-%d-%d": the group's
// id, then the thread's, from 1), ForkJoinPool's ("ForkJoinPool-%d-worker-%d",
// JDK 17+ from 1, JDK 8 from 0).
var namingConventions = []struct {
	format string // id, then member
	first  int    // the first member number
}{
	{"pool-%d-thread-%d", 1},
	{"nioEventLoopGroup-%d-%d", 1},
	{"ForkJoinPool-%d-worker-%d", 1},
	{"ForkJoinPool-%d-worker-%d", 0},
}

// k executors of m threads each, for random k up to PoolIDLeak and random
// m, ids as a process hands them out (with gaps: pools made and shut down
// in between): every executor is its own pool, its members one pool.
func TestPoolIDsKept(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 1))
	for trial := range 300 {
		c := namingConventions[trial%len(namingConventions)]
		k := 1 + rng.IntN(PoolIDLeak)
		var names []string
		want := map[string]string{}
		id := 0
		for range k {
			id += 1 + rng.IntN(3)
			m := 1 + rng.IntN(12)
			if trial%5 == 0 {
				m = 1 // the case the share of values alone merged: one thread each
			}
			for j := range m {
				name := fmt.Sprintf(c.format, id, c.first+j)
				names = append(names, name)
				want[name] = strings.Replace(strings.Replace(c.format, "%d", strconv.Itoa(id), 1), "%d", "*", 1)
			}
		}
		got := learnJVMPools([]Input{namesInput(names...)})
		for name, w := range want {
			if got[name] != w {
				t.Fatalf("trial %d (%d pools of %q): %q is in pool %q, want %q", trial, k, c.format, name, got[name], w)
			}
		}
	}
}

// A leak of N executors (one per request, never shut down), N above
// PoolIDLeak, of one thread each or a few: one pool, whose growth the
// explosion detector sees, at every moment of the leak.
func TestPoolIDsLeak(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 2))
	for trial := range 50 {
		c := namingConventions[trial%len(namingConventions)]
		n := PoolIDLeak + 1 + rng.IntN(3000)
		per := 1 + rng.IntN(2)
		var in []Input
		var names []string
		for id := 1; id <= n; id++ {
			for j := range per {
				names = append(names, fmt.Sprintf(c.format, id, c.first+j))
			}
			if id%(n/3+1) == 0 { // a moment, the leak so far
				in = append(in, namesInput(names...))
			}
		}
		in = append(in, namesInput(names...))
		got := learnJVMPools(in)
		w := strings.ReplaceAll(c.format, "%d", "*")
		for _, name := range names {
			if got[name] != w {
				t.Fatalf("trial %d (a leak of %d executors of %d): %q is in pool %q, want %q", trial, n, per, name, got[name], w)
			}
		}
	}
}

// Numbers before a trailing number that is no member counter of theirs
// stay counters: Jenkins numbers each agent's executors, the agent after
// them (corpus dumpling__hotspot-24.51-b03-jdk7u51__143-threads); an RMI
// connection's counter has the client's address after it.
func TestPoolIDsNotMembers(t *testing.T) {
	got := learnJVMPools([]Input{namesInput("Executor #0 for jenkins_slave_02", "Executor #0 for jenkins_slave_03",
		"Executor #1 for jenkins_slave_02", "Executor #2 for jenkins_slave_03",
		"RMI TCP Connection(3)-127.0.0.1", "RMI TCP Connection(5)-127.0.0.1", "RMI TCP Connection(9)-127.0.0.1")})
	for name, want := range map[string]string{
		"Executor #2 for jenkins_slave_03": "Executor #* for jenkins_slave_*",
		"RMI TCP Connection(5)-127.0.0.1":  "RMI TCP Connection(*)-127.0.0.*",
	} {
		if got[name] != want {
			t.Errorf("%q is in pool %q, want %q", name, got[name], want)
		}
	}
}
