package analyze

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Extensions are what a team teaches dumpdiff without a release: signature
// rows for its own clients and pools, the sizes of its own pools, and what
// to do about its own findings. They come from a signatures file
// (ParseExtensions); rows match before the built-in ones, so a row can
// also override one.
type Extensions struct {
	Signatures []Signature
	Pools      []PoolLimit
	Remedies   []Remedy
	// Roles add to the built-in role tables (Roles): the team's own
	// runtime threads, dumping endpoint, event loops, shared pools.
	Roles Roles
}

// PoolLimit is the maximum size of the pools whose name matches Pattern
// (a pool name as dumpdiff prints it; a "*" matches any run of characters).
type PoolLimit struct {
	Pattern string
	Max     int
	What    string // shown beside the number: "Acme worker pool size"
	// Loops are frame prefixes of the pool's own run loop: the size
	// applies only to a pool some thread of which runs one of them (a
	// name is a hint); none: the name alone decides.
	Loops []string
}

// ExtensionError is one bad line of a signatures file.
type ExtensionError struct {
	File string
	Line int
	Msg  string
}

func (e *ExtensionError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ParseExtensions reads a signatures file: blocks that start with a
// "[signature]", "[pool]" or "[remedy]" line, then "key = value" lines; "#" starts a
// comment; lists are comma-separated. Every bad line is reported (with its
// position) and the rest still read; the error joins them.
//
//	[signature]
//	id       = acme-pool-wait
//	runtime  = jvm                # jvm or go
//	category = waiting            # waiting, idle, running or other
//	resource = db-connection      # a resource id (README's table)
//	anchors  = com.acme.pool.AcmePool.acquire, com.acme.pool.AcmePool.await*
//	depth    = 12                 # frames from the top searched; default 1
//	states   = WAITING            # printed states that must match (optional)
//	within   = com.acme.          # a frame prefix also required (optional)
//	unless   = com.acme.Warmup.run # frames that stop the row (optional)
//	rest     = false              # healthy threads rest here
//	explain  = waiting for an Acme pool connection: the pool is exhausted
//
//	[pool]
//	name = acme-worker-*
//	max  = 64
//	what = Acme worker pool size
//	loop = com.acme.pool.AcmePool$Worker.run   # frames of the pool's loop (optional)
//
//	[remedy]
//	id      = acme-no-deadline     # names the row (optional)
//	kinds   = not-recovered, stuck # finding kinds (optional: any)
//	states  = acme-pool-wait       # state ids (optional: any)
//	frames  = com.acme.rpc.Client.call          # all in the stack (optional)
//	without = com.acme.rpc.Client.callDeadline  # none in the stack (optional)
//	text    = the Acme client waits with no deadline: pass one to {culprit}
//
// A [remedy] needs a text and at least one of kinds, states or frames (a
// row without any would answer every finding); "{culprit}" in its text is
// the finding's culprit.
//
//	[roles]                       # each key adds to a table of Roles
//	jvm-internal = Acme Agent Sampler, acme-jvm-*   # thread names of the JVM's (or an agent's) own threads
//	dump-writer  = com.acme.diag.DumpServlet.dump   # frames of the thread writing the dump
//	event-loop   = com.acme.net.Reactor.run         # frames of an event loop
//	common-pool  = acme-shared-*                    # pools shared by the whole process
//	not-spinning = com.acme.net.Poller.poll         # frames a runnable thread waits in
//	cpu-native   = com.acme.fast.Hash.mix           # native methods that compute and return at once
//	up-by-design = AcmeUI-Event-*                   # non-daemon threads that keep a JVM up by design
//	go-work      = github.com/acme/rpc.(*Server).dispatch  # frames where a Go server hands a goroutine a request
//	pool-loop    = com.acme.exec.Worker.loop        # frames of a pool's run loop: its threads are pooled, not one per task
//	owner-loop   = com.acme.push.Notifier.loop      # frames of a loop on its owner's only thread: its name's number counts owners
//	back-off     = com.acme.retry.Spin.pause        # frames a retry loop backs off in (a RUNNABLE loop under one retries)
//	handoff-latch = com.acme.sync.Gate.await        # a team's own hand-off, by kind: handoff-latch, -barrier, -phaser,
//	                                                # -exchanger, -sync-put, -transfer, -queue-put, -queue-take, -pipe-write,
//	                                                # -pipe-read, -join, -task-result, -termination, -condition, -monitor
//
//	[hot-loop]                    # a loop endless only over a corrupted structure (hotloops.go's table)
//	func      = com.acme.cache.LruMap.findSlot  # the looping function, as a dump prints it ('*' matches any run)
//	top       = 3                 # how many frames from the top it may sit at; default 3
//	threads   = 2                 # threads RUNNABLE in it in one dump that make it the loop; default 3
//	structure = an Acme LruMap written by several threads at once  # what is corrupted (required)
//	source    = ACME-1234         # where the loop is known from (optional)
//
// A [hot-loop] row is met before the built-in ones; threads = 1 only where
// a sound structure leaves the function in a few steps (no busy service is
// caught there).
func ParseExtensions(r io.Reader, file string) (*Extensions, error) {
	ext := &Extensions{}
	var errs []error
	bad := func(line int, format string, a ...any) {
		errs = append(errs, &ExtensionError{File: file, Line: line, Msg: fmt.Sprintf(format, a...)})
	}
	var sig *Signature
	var pool *PoolLimit
	var rem *Remedy
	var hot *HotLoop
	inRoles := false
	start := 0
	flush := func() {
		switch {
		case sig != nil:
			switch {
			case sig.ID == "":
				bad(start, "[signature] without an id")
			case sig.Runtime == "":
				bad(start, "signature %q without a runtime (jvm or go)", sig.ID)
			case len(sig.Anchors) == 0 && len(sig.States) == 0:
				bad(start, "signature %q has neither anchors nor states: it would match nothing", sig.ID)
			case sig.Category == "":
				bad(start, "signature %q without a category", sig.ID)
			default:
				if sig.Explain == "" {
					sig.Explain = "matched by " + file
				}
				ext.Signatures = append(ext.Signatures, *sig)
			}
		case pool != nil:
			if pool.Pattern == "" || pool.Max <= 0 {
				bad(start, "[pool] needs a name and a max above 0")
			} else {
				ext.Pools = append(ext.Pools, *pool)
			}
		case rem != nil:
			switch {
			case rem.Text == "":
				bad(start, "[remedy] without a text")
			case len(rem.Kinds) == 0 && len(rem.States) == 0 && len(rem.Frames) == 0:
				bad(start, "[remedy] with none of kinds, states or frames: it would answer every finding")
			default:
				ext.Remedies = append(ext.Remedies, *rem)
			}
		case hot != nil:
			switch {
			case hot.Func == "" || hot.Structure == "":
				bad(start, "[hot-loop] needs a func and a structure")
			default:
				if hot.Source == "" {
					hot.Source = file
				}
				ext.Roles.HotLoops = append(ext.Roles.HotLoops, *hot)
			}
		}
		sig, pool, rem, hot, inRoles = nil, nil, nil, nil, false
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		switch line {
		case "":
			continue
		case "[signature]":
			flush()
			sig, start = &Signature{}, n
			continue
		case "[pool]":
			flush()
			pool, start = &PoolLimit{}, n
			continue
		case "[remedy]":
			flush()
			rem, start = &Remedy{}, n
			continue
		case "[roles]":
			flush()
			inRoles, start = true, n
			continue
		case "[hot-loop]":
			flush()
			hot, start = &HotLoop{Top: 3, Threads: 3}, n
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || key == "" {
			bad(n, "not a [section] or key = value line: %q", line)
			continue
		}
		switch {
		case sig != nil:
			if err := sig.set(key, val); err != nil {
				bad(n, "%v", err)
			}
		case pool != nil:
			switch key {
			case "name":
				pool.Pattern = val
			case "max":
				v, err := strconv.Atoi(val)
				if err != nil || v <= 0 {
					bad(n, "max %q: want a whole number above 0", val)
				}
				pool.Max = v
			case "what":
				pool.What = val
			case "loop", "loops":
				pool.Loops = commaList(val)
				if len(pool.Loops) == 0 {
					bad(n, "loop %q: want frame prefixes, comma-separated", val)
				}
			default:
				bad(n, "unknown [pool] key %q (want name, max, what, loop)", key)
			}
		case rem != nil:
			if err := rem.set(key, val); err != nil {
				bad(n, "%v", err)
			}
		case hot != nil:
			if err := hot.set(key, val); err != nil {
				bad(n, "%v", err)
			}
		case inRoles:
			vals := commaList(val)
			if len(vals) == 0 {
				bad(n, "[roles] key %q without a value", key)
				continue
			}
			if i := slices.IndexFunc(vals, func(v string) bool { return strings.ContainsAny(v, " \t") && roleFrameKey(key) }); i >= 0 {
				bad(n, "[roles] %s %q: a frame has no spaces (want a function, as a dump prints it)", key, vals[i])
				continue
			}
			if !ext.Roles.addRole(key, vals) {
				bad(n, "unknown [roles] key %q (want %s)", key, strings.Join(roleKeyNames(), ", "))
			}
		default:
			bad(n, "%q before any [signature], [pool], [remedy], [roles] or [hot-loop] line", key)
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", file, err))
	}
	return ext, errors.Join(errs...)
}

// roleFrameKey reports whether the [roles] key key lists frames (its
// values have no spaces), not thread or pool names (which may).
func roleFrameKey(key string) bool {
	switch key {
	case "jvm-internal", "common-pool", "up-by-design":
		return false
	}
	return true
}

// commaList is a key's value as a list: its comma-separated items, each
// trimmed, the empty ones left out.
func commaList(val string) []string {
	var out []string
	for _, x := range strings.Split(val, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func (s *Signature) set(key, val string) error {
	list := func() []string { return commaList(val) }
	switch key {
	case "id":
		s.ID = val
	case "runtime":
		switch val {
		case "jvm":
			s.Runtime = parse.RuntimeJVM
		case "go":
			s.Runtime = parse.RuntimeGo
		default:
			return fmt.Errorf("runtime %q: want jvm or go", val)
		}
	case "category":
		switch Category(val) {
		case Waiting, Idle, Running, Other:
			s.Category = Category(val)
		default:
			return fmt.Errorf("category %q: want waiting, idle, running or other", val)
		}
	case "resource":
		if resourceByID(val) == nil {
			return fmt.Errorf("unknown resource %q (README lists them)", val)
		}
		s.Resource = val
	case "anchors":
		s.Anchors = list()
	case "states":
		s.States = list()
		s.StateAlone = len(s.Anchors) == 0
	case "within":
		s.Within = list()
	case "unless":
		s.Unless = list()
	case "depth":
		v, err := strconv.Atoi(val)
		if err != nil || v < 1 || v > 200 {
			return fmt.Errorf("depth %q: want a whole number from 1 to 200", val)
		}
		s.Depth = v
	case "rest":
		v, err := strconv.ParseBool(val)
		if err != nil {
			return fmt.Errorf("rest %q: want true or false", val)
		}
		s.Rest = v
	case "explain":
		s.Explain = val
	default:
		return fmt.Errorf("unknown [signature] key %q", key)
	}
	return nil
}

func (r *Remedy) set(key, val string) error {
	list := func() []string { return commaList(val) }
	switch key {
	case "id":
		r.ID = val
	case "kinds":
		r.Kinds = list()
		for _, k := range r.Kinds {
			if !slices.Contains(Kinds, k) {
				return fmt.Errorf("unknown finding kind %q (want one of %s)", k, strings.Join(Kinds, ", "))
			}
		}
	case "states":
		r.States = list()
	case "frames":
		r.Frames = list()
	case "without":
		r.Without = list()
	case "text":
		r.Text = val
	default:
		return fmt.Errorf("unknown [remedy] key %q (want id, kinds, states, frames, without, text)", key)
	}
	return nil
}

// globMatch reports whether name matches pattern, where "*" matches any
// run of characters.
func globMatch(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == name
	}
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	for i, p := range parts[1:] {
		last := i == len(parts)-2
		if last {
			return strings.HasSuffix(name, p)
		}
		j := strings.Index(name, p)
		if j < 0 {
			return false
		}
		name = name[j+len(p):]
	}
	return true
}

// signatureTable is the rows of ext (if any) before the built-in ones; the
// rows of the dump writers ext adds (Roles.DumpWriters) before them all.
func signatureTable(ext *Extensions) []Signature {
	if ext == nil || len(ext.Signatures) == 0 && len(ext.Roles.DumpWriters) == 0 {
		return builtinTable
	}
	var out []Signature
	if len(ext.Roles.DumpWriters) > 0 {
		out = dumpWriterRows(ext.Roles.DumpWriters)
	}
	return append(append(out, ext.Signatures...), builtinTable...)
}

// set is one key of a [hot-loop] block.
func (h *HotLoop) set(key, val string) error {
	whole := func(lo, hi int) (int, error) {
		v, err := strconv.Atoi(val)
		if err != nil || v < lo || v > hi {
			return 0, fmt.Errorf("%s %q: want a whole number from %d to %d", key, val, lo, hi)
		}
		return v, nil
	}
	var err error
	switch key {
	case "func":
		if strings.ContainsAny(val, " \t") {
			return fmt.Errorf("func %q: a frame has no spaces (want a function, as a dump prints it)", val)
		}
		h.Func = val
	case "top":
		h.Top, err = whole(1, 200)
	case "threads":
		h.Threads, err = whole(1, 1000)
	case "structure":
		h.Structure = val
	case "source":
		h.Source = val
	default:
		return fmt.Errorf("unknown [hot-loop] key %q (want func, top, threads, structure, source)", key)
	}
	return err
}
