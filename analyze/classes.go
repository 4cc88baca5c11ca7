package analyze

import "github.com/dumpdiff/dumpdiff/parse"

// classes is what the detectors read of a thread's stack: its signature,
// pool, state, culprit and entry point. It is the builder's classification
// of each moment's distinct stacks, kept after the build: computed once,
// before any detector runs, and only read while they run (detectors share
// it and write nothing to it).
type classes struct {
	rt   parse.Runtime
	sigs []Signature // the signature table (a signatures file's rows first)
	opt  Options     // as the builder named pools (--pool-by label:, by entry point)
	// moments are each moment's classification, by moment.
	moments []momentClasses
}

// momentClasses is one moment's classification, as its build left it.
type momentClasses struct {
	// fast finds a goroutine's slot by its stack's address (see slotKey);
	// nil for the JVM.
	fast     map[**parse.Frame][]fastSlot
	labelKey string // --pool-by label:KEY's KEY; "" when not pooling by label
	// byStack is a stack's classification by its classKey.
	byStack map[string]*classified
}

// stackInfo is what a detector reads of a thread's stack.
type stackInfo struct {
	sig                  *Signature
	pool, state, culprit string
	entry                entryKey
}

// info returns what thread t of moment m is classified as: by its slot
// for a goroutine (no key to format: a lock's owner or a cycle's thread
// of a million-goroutine dump), else by its stack's key (key is the
// caller's buffer for it). A thread the build did not file (a JVM
// deadlock report's thread missing from the dump, a goroutine given
// another's labels) is classified here, and kept nowhere.
func (c *classes) info(m int, t *parse.Thread, key *[]byte) stackInfo {
	mc := &c.moments[m]
	if mc.fast != nil {
		k := goSlotKey(t, mc.labelKey)
		for _, e := range mc.fast[k.frames] {
			if e.key == k {
				return infoOf(e.s.c, e.s.lg.key.pool)
			}
		}
	}
	if cl := c.classified(m, t, key); cl != nil {
		pool, _ := poolName(c.rt, t, c.opt)
		return infoOf(cl, pool)
	}
	sig := classifyIn(c.sigs, c.rt, t)
	si := stackInfo{sig: sig, state: stateOf(sig), culprit: FrameString(culprit(c.rt, t))}
	if si.culprit == "" {
		si.culprit = FrameString(jdkLockCaller(c.rt, t, sig))
	}
	si.pool, _ = poolName(c.rt, t, c.opt)
	si.entry.fn, si.entry.probe = entryPoint(c.rt, t)
	return si
}

// signature returns the signature thread t of moment m is classified by;
// nil if none. It does not name the pool (the event loop asks it of every
// JVM thread).
func (c *classes) signature(m int, t *parse.Thread, key *[]byte) *Signature {
	if c.moments[m].fast != nil {
		return c.info(m, t, key).sig
	}
	if cl := c.classified(m, t, key); cl != nil {
		return cl.sig
	}
	return classifyIn(c.sigs, c.rt, t)
}

// classified is the build's classification of t's stack at moment m; nil
// when the build filed no such stack.
func (c *classes) classified(m int, t *parse.Thread, key *[]byte) *classified {
	*key, _ = appendClassKey((*key)[:0], t)
	return c.moments[m].byStack[string(*key)] // no allocation
}

func infoOf(cl *classified, pool string) stackInfo {
	return stackInfo{sig: cl.sig, pool: pool, state: stateOf(cl.sig), culprit: cl.culprit, entry: cl.entry}
}

// stateOf is a signature's id, "unclassified" for none.
func stateOf(s *Signature) string {
	if s != nil {
		return s.ID
	}
	return "unclassified"
}
