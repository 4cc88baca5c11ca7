package parse

import (
	"fmt"
	"sort"
)

// JoinLockOwners gives the threads of a JSON dump (jcmd Thread.dump_to_file
// -format=json, JDK 21-25) the owners of the java.util.concurrent locks
// they park on, from a Thread.print -l or jstack -l text dump of the same
// process taken beside it (capture takes one when such waiters exist): the
// JSON prints a park's blocker without its owner, the text prints each
// platform thread's "Locked ownable synchronizers".
//
// The two dumps name a lock differently (class@identityHash in the JSON, an
// address in the text). A lock is matched through its waiters where they
// are platform threads: each is in the text too (by id, else name),
// parked there on the text's address, whose holder is the owner, when
// every waiter of the JSON object agrees. Else (virtual threads, which the
// text does not print) by its class, and only where that cannot be wrong:
// the JSON's ownerless waiters of class C park on one object, and the
// text's threads hold exactly one ownable synchronizer of class C. Its holder is found in the JSON by thread id (jstack's #N is the
// JSON's tid; by name when the text printed no id) and given the lock as
// held (Kind LockOwnable, the JSON object's address, From = from), so every
// detector sees the owner as it sees a printed one. A virtual thread's
// lock is held by no platform thread of the text: it stays unknown.
//
// It returns how many locks were joined and, per class left unknown, why.
func JoinLockOwners(js, text *Dump, from string) (joined int, notes []string) {
	if js == nil || text == nil {
		return 0, nil
	}
	// Ownable synchronizers held in the text, by class.
	held := map[string][]*Thread{}
	for _, t := range text.Threads {
		for _, l := range t.Locks() {
			if l.Kind == LockOwnable && l.Class != "" {
				held[l.Class] = append(held[l.Class], t)
			}
		}
	}
	// The JSON's ownerless parks on those classes: the objects waited for.
	objects := map[string]map[string]int{} // class → address → waiters
	for _, t := range js.Threads {
		for _, l := range t.Locks() {
			if l.Kind == LockParking && l.Owner == "" && l.Address != "" && held[l.Class] != nil {
				if objects[l.Class] == nil {
					objects[l.Class] = map[string]int{}
				}
				objects[l.Class][l.Address]++
			}
		}
	}
	byID, byName := map[int64]*Thread{}, map[string]*Thread{}
	for _, t := range js.Threads {
		if t.ID != 0 {
			byID[t.ID] = t
		}
		if t.Name() != "" {
			byName[t.Name()] = t
		}
	}
	// First by the waiters themselves: a platform thread that parks in
	// the JSON is in the text too (by id, else by name), parked on the
	// text's address of the same lock; its holder there is the owner.
	// Exact whatever other locks of the class are held, where every
	// waiter of the JSON object agrees on one holder.
	textByID, textByName := map[int64]*Thread{}, map[string]*Thread{}
	holderOf := map[string]*Thread{} // text address → its holder
	for _, t := range text.Threads {
		if t.ID != 0 {
			textByID[t.ID] = t
		}
		if t.Name() != "" {
			textByName[t.Name()] = t
		}
		for _, l := range t.Locks() {
			if l.Kind == LockOwnable && l.Address != "" {
				holderOf[l.Address] = t
			}
		}
	}
	byObject := map[string]*Thread{} // JSON object → the text holder its waiters agree on; nil when they do not
	for _, t := range js.Threads {
		for _, l := range t.Locks() {
			if l.Kind != LockParking || l.Owner != "" || l.Address == "" || held[l.Class] == nil {
				continue
			}
			tt := textByID[t.ID]
			if tt == nil || t.ID == 0 || (t.Name() != "" && tt.Name() != t.Name()) {
				tt = textByName[t.Name()]
			}
			var h *Thread
			if tt != nil && t.Name() != "" {
				for _, tl := range tt.Locks() {
					if tl.Kind == LockParking && tl.Class == l.Class {
						h = holderOf[tl.Address]
					}
				}
			}
			prev, seen := byObject[l.Address]
			switch {
			case !seen:
				byObject[l.Address] = h
			case prev != h:
				byObject[l.Address] = nil
			}
		}
	}
	join := func(class, addr string, h *Thread) bool {
		owner := byID[h.ID]
		if owner == nil || (h.Name() != "" && owner.Name() != h.Name()) {
			owner = byName[h.Name()]
		}
		if owner == nil {
			notes = append(notes, fmt.Sprintf("owner of %s not joined from %s: its holder %q is not in the JSON dump (it ended between the two)", class, from, h.Name()))
			return false
		}
		if owner.JVM == nil {
			owner.JVM = &JVM{}
		}
		owner.JVM.Locks = append(owner.JVM.Locks, Lock{Kind: LockOwnable, Address: addr, Class: class, Frame: -1, From: from})
		joined++
		return true
	}
	classes := make([]string, 0, len(objects))
	for c := range objects {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, class := range classes {
		addrs := objects[class]
		for _, a := range sortedKeys(addrs) {
			if h := byObject[a]; h != nil {
				join(class, a, h)
				delete(addrs, a)
			}
		}
		if len(addrs) == 0 {
			continue
		}
		// Then by class, for the waiters the text does not show
		// (virtual threads), where that cannot be wrong.
		holders := held[class]
		if len(addrs) != 1 || len(holders) != 1 {
			notes = append(notes, fmt.Sprintf("owner of %s not joined from %s: the JSON's threads park on %d such locks and %d are held there, so the text's addresses cannot be matched to the JSON's",
				class, from, len(addrs), len(holders)))
			continue
		}
		var addr string
		for a := range addrs {
			addr = a
		}
		join(class, addr, holders[0])
	}
	return joined, notes
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// IsJoined reports whether t holds the lock at addr only by
// JoinLockOwners, not as its dump printed it.
func IsJoined(t *Thread, addr string) bool {
	for _, l := range t.Locks() {
		if l.Address == addr && (l.Kind == LockHeld || l.Kind == LockOwnable) {
			return l.From != ""
		}
	}
	return false
}
