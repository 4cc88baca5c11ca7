//go:build !unix

package watch

// freeBytes cannot be known here: only the ring's bounds apply.
func freeBytes(string) (uint64, bool) { return 0, false }
