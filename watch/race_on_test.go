//go:build race

package watch

// raceDetector is true in a test binary built with -race.
const raceDetector = true
