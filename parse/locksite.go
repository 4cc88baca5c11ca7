package parse

import (
	"strconv"
	"strings"
)

// lockSites are the lock calls whose caller names a lock in a format that
// prints no argument (an execution trace, CockroachDB's debug=3): one lock
// per call site (an approximation: two caches whose get takes its own
// mutex share the site).
var lockSites = map[string]bool{
	"sync.(*Mutex).Lock":    true,
	"sync.(*RWMutex).RLock": true,
	"sync.(*RWMutex).Lock":  true,
}

// lockSite is the site key of the lock a goroutine whose stack is frames
// waits for ("@main.(*cache).get:185"), or "" when it waits in no sync lock.
func lockSite(frames []*Frame) string {
	for i, f := range frames {
		if lockSites[f.Func] && i+1 < len(frames) {
			c := frames[i+1]
			return LockSitePrefix + c.Func + ":" + strconv.Itoa(c.Line)
		}
	}
	return ""
}

// LockSitePrefix starts a Thread.WaitAddr that is no address but the frame
// taking the lock, in formats that print no lock argument (traces).
const LockSitePrefix = "@"

// LockShown is how reports write a lock address or site: "<0xc000123>" for
// an address, "the lock taken at main.(*cache).get:185" for a site.
func LockShown(addr string) string {
	if site, ok := strings.CutPrefix(addr, LockSitePrefix); ok {
		return "the lock taken at " + site
	}
	return "<" + addr + ">"
}
