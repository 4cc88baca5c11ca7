package analyze

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// Cache keeps each moment's build (its threads classified and filed into
// pools, groups and shapes: two thirds of an analysis) from one analysis
// to the next, for moments that slide: `dumpdiff watch` analyzes its ring
// after every moment, and all but one of the moments were in the last
// analysis. Give the same Cache in Options.Cache to every analysis of the
// ring; an analysis with a Cache is the same as one without (the cached
// build is used only when every setting it was made under is the same:
// TestCacheSameResult), and it keeps only the builds of the moments of its
// last analysis. A Cache is for one analysis at a time.
type Cache struct {
	builds map[*parse.Dump]cachedBuild
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{builds: map[*parse.Dump]cachedBuild{}} }

// cachedBuild is a moment's build as buildMoment returned it, before the
// merge and the identities consumed it, and the settings it was made
// under (buildKey).
type cachedBuild struct {
	key string
	mb  momentBuild
}

// buildKey is what a moment's build depends on besides its dump: the
// runtime, the options that shape pools and samples, the signature table,
// the dumps beside it (their labels), and for the JVM the pool each of its
// thread names is given (names are pooled by learning from every moment
// at once: a moment coming or going may change them).
func (b *builder) buildKey(x Input) string {
	var k strings.Builder
	fmt.Fprintf(&k, "%s|%s|%d|%t|%p|%d", b.r.Runtime, b.opt.PoolBy, b.opt.Samples, b.opt.byEntry, b.opt.Extensions, len(b.sigs))
	for _, a := range x.Aux {
		fmt.Fprintf(&k, "|%p", a)
	}
	if b.r.Runtime == parse.RuntimeJVM {
		h := fnv.New64a()
		for _, t := range x.Dump.Threads {
			p, _ := poolName(b.r.Runtime, t, b.opt)
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
		fmt.Fprintf(&k, "|%x", h.Sum64())
	}
	return k.String()
}

// get is the cached build of x at moment m, ready for the merge: a copy
// whose slices the merge and the identities change are its own.
func (c *Cache) get(b *builder, m int, x Input, key string) (*momentBuild, bool) {
	cb, ok := c.builds[x.Dump]
	if !ok || cb.key != key {
		return nil, false
	}
	mb := cb.mb
	mb.b, mb.m = b, m
	// The JVM's identities are numbered and sorted in place (identities);
	// goroutine ids are final and sorted at the build, and only read.
	if mb.jids != nil {
		mb.ids = slices.Clone(mb.ids)
	}
	return &mb, true
}

// keep replaces the cache's builds with those of this analysis (ms, built
// or taken from the cache, before the merge).
func (c *Cache) keep(in []Input, keys []string, ms []momentBuild) {
	builds := make(map[*parse.Dump]cachedBuild, len(in))
	for i, x := range in {
		builds[x.Dump] = cachedBuild{key: keys[i], mb: ms[i]}
	}
	c.builds = builds
}
