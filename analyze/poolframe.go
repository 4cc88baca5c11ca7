package analyze

import (
	"github.com/dumpdiff/dumpdiff/parse"
)

// poolFrame is the pool's own frame a waiter for a pooled resource waits
// under, the one its application caller called into: the deepest frame
// above the first application frame that an anchor of a row of the same
// state and resource names (HikariPool.getConnection under
// ConcurrentBag.borrow; GenericObjectPool.borrowObject under commons-pool2's
// LinkedBlockingDeque.takeFirst; PoolingHttpClientConnectionManager's
// lease under AbstractConnPool.getPoolEntryBlocking), else the borrow
// method the structure finds (poolborrow.go). nil when the stack shows
// none. A finding names it beside the caller: the caller says whose code
// waits, this frame says on which pool (issue 33).
func poolFrame(rows []*Signature, rt parse.Runtime, t *parse.Thread) *parse.Frame {
	var found *parse.Frame
	for _, f := range t.Frames {
		if isAppFrame(rt, f) {
			break
		}
		for _, s := range rows {
			if anchorMatch(s.Anchors, f.Func) {
				found = f
				break
			}
		}
	}
	if found == nil && rt == parse.RuntimeJVM {
		if k := borrowAt(t); k >= 0 {
			found = t.Frames[k]
		}
	}
	return found
}

// poolFrameOf is the most common pool frame (poolFrame) of the waiters'
// threads at moment at, rendered as FrameString; "" when none shows one.
// Cost: each waiter's frames down to its caller against the anchors of
// the few rows of its state, at one moment.
func poolFrameOf(p *Pass, waiters []*Group, at int, resource string) string {
	rt := p.R.Runtime
	counts := map[string]int{}
	best := ""
	for _, g := range waiters {
		var rows []*Signature
		for i := range p.sigs {
			if s := &p.sigs[i]; s.Runtime == rt && s.ID == g.State && s.Resource == resource && len(s.Anchors) > 0 {
				rows = append(rows, s)
			}
		}
		ts := g.Threads[at]
		if len(ts) == 0 && g.Stacks[at] != nil {
			ts = []*parse.Thread{g.Stacks[at]} // only the representative kept
		}
		for _, t := range ts {
			f := poolFrame(rows, rt, t)
			if f == nil {
				continue
			}
			s := FrameString(f)
			counts[s] += max(t.Weight, 1)
			if counts[s] > counts[best] || counts[s] == counts[best] && s < best {
				best = s
			}
		}
	}
	return best
}
