package analyze

// The thresholds and limits of the verdicts. Each says what it protects
// against; the Thresholds table documents them and README.md's table is
// tested against it (readme_test.go).
const (
	// MinRise: a waiting state must rise by at least this many threads over
	// its first count to be a timeline finding: a few requests in flight
	// come and go between two dumps of a healthy service.
	MinRise = 5
	// RiseFactor: ...and to at least this many times its first count, so a
	// busy pool moving from 40 to 46 is not a rise.
	RiseFactor = 2
	// RecoveredShare: a state is recovered when its last count is within
	// this share of its rise above the first count (a tail of slow requests
	// still finishing is recovery).
	RecoveredShare = 0.25
	// NotRecoveredCriticalMin: a state that did not recover is critical
	// when at least this many threads are left in it at the last moment (or
	// half its pool): a handful left over is worth a look, not a page.
	NotRecoveredCriticalMin = 10
	// ExplosionFactor and ExplosionMin: the process multiplied its threads
	// by at least ExplosionFactor and grew by at least ExplosionMin (pools
	// with a known maximum excluded: they grow to it by design).
	ExplosionFactor = 3
	ExplosionMin    = 100
	// GoExplosionMin: goroutines are cheap; below this many they are never
	// an explosion.
	GoExplosionMin = 10000
	// ContentionMin threads waiting on one lock: two or three waiters on a
	// lock are ordinary traffic.
	ContentionMin = 5
	// SaturatedMin: a pool smaller than this is never called saturated (a
	// single-thread scheduler busy is not a capacity problem).
	SaturatedMin = 10
	// SaturatedWaiting: share of a saturated pool's threads that must be
	// waiting (not running: a pool busy on CPU is working, not stuck).
	SaturatedWaiting = 0.8
	// SaturatedOneState: share of the pool in its largest waiting state
	// that is not a rest ("most threads waiting in one state").
	SaturatedOneState = 0.5
	// StuckMin and StuckShare: without a rise, the very same threads in the
	// same wait and culprit at every moment are stuck when there are at
	// least StuckMin of them and they are at least StuckShare of their pool
	// at the last moment: one long call is not a stuck pool.
	StuckMin   = 5
	StuckShare = 0.5
	// PoolWaitMin: threads waiting for a pooled resource (a DB connection)
	// at one moment for the pool to be called exhausted: one or two waiters
	// are a pool working at its edge for an instant.
	PoolWaitMin = 3
	// LeakMin: goroutines of one creator in one wait for a suspected leak.
	LeakMin = 10
	// LeakWaitMinutes: the wait the Go runtime prints (it prints minutes
	// from 1) that makes a goroutine blocked on a send or a lock "long": a
	// request does not wait a minute on a channel.
	LeakWaitMinutes = 1
	// LeakParentShare: goroutines resting on a channel are idle workers
	// unless at least this share of them were created by distinct parent
	// goroutines (one per request: a leak), as Go 1.21+ prints.
	LeakParentShare = 0.5
	// LeakFlatMin and LeakFlatSpread: without identities or wait times
	// (debug=1, proto), at least LeakFlatMin goroutines of one creator in a
	// non-rest wait at every moment, varying by at most LeakFlatSpread of
	// their count, are a suspected leak.
	LeakFlatMin    = 100
	LeakFlatSpread = 0.1
)

// Thresholds is every threshold and limit of the verdicts, in the order
// README.md lists them.
var Thresholds = []Threshold{
	{"MinRise", MinRise, "a waiting state must rise by at least this many threads over its first count: a few requests in flight come and go"},
	{"RiseFactor", RiseFactor, "…and to at least this many times its first count: a busy pool moving 40 → 46 is not a rise"},
	{"RecoveredShare", RecoveredShare, "recovered when the last count is within this share of the rise: a tail of slow requests is recovery"},
	{"NotRecoveredCriticalMin", NotRecoveredCriticalMin, "not recovered is critical from this many threads left (or half the pool): a handful left over is a warning"},
	{"ExplosionFactor", ExplosionFactor, "the process multiplied its threads by at least this (pools with a known maximum left out)"},
	{"ExplosionMin", ExplosionMin, "…and grew by at least this many threads"},
	{"GoExplosionMin", GoExplosionMin, "goroutines are cheap: fewer than this many are never an explosion"},
	{"ContentionMin", ContentionMin, "threads waiting on one lock: two or three waiters are ordinary traffic"},
	{"SaturatedMin", SaturatedMin, "a pool smaller than this is never saturated"},
	{"SaturatedWaiting", SaturatedWaiting, "share of a saturated pool that waits (a pool busy on CPU is working)"},
	{"SaturatedOneState", SaturatedOneState, "share of a saturated pool in its largest waiting state that is not a rest"},
	{"StuckMin", StuckMin, "the same threads in the same wait and culprit at every moment: at least this many"},
	{"StuckShare", StuckShare, "…and at least this share of their pool: one long call is not a stuck pool"},
	{"PoolWaitMin", PoolWaitMin, "threads waiting for a pooled resource at one moment to call the pool exhausted"},
	{"LeakMin", LeakMin, "goroutines of one creator in one wait for a suspected leak"},
	{"LeakWaitMinutes", LeakWaitMinutes, "a printed wait this long on a send or a lock is not passing through"},
	{"LeakParentShare", LeakParentShare, "goroutines resting on a channel are a leak only if this share has distinct parents (idle workers share one)"},
	{"LeakFlatMin", LeakFlatMin, "without identities or wait times: this many goroutines in a non-rest wait at every moment"},
	{"LeakFlatSpread", LeakFlatSpread, "…varying by at most this share of their count"},
}
