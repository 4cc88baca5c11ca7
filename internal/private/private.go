// Package private holds the modes of every file and folder dumpdiff
// writes. Dumps, manifests, incident bundles, reports and exports hold
// thread names, pprof labels and panic arguments: user ids, tenant names,
// URLs with tokens. So only the user who wrote them may read them, as
// HotSpot writes its heap dumps 0600. Standard library only; capture,
// watch and tui import it (deps_test).
//
// The modes are what dumpdiff asks for when it creates: the umask may
// narrow them, never widen them, and a folder that already exists (one
// the user made for --out or --export-dir) keeps its own mode.
package private

import "io/fs"

const (
	// File is the mode of every file dumpdiff creates: read and write
	// for its owner only. os.CreateTemp creates with it already; a hard
	// link shares its source's.
	File fs.FileMode = 0o600
	// Dir is the mode of every folder dumpdiff creates, parents made by
	// os.MkdirAll included: only its owner may list or enter it.
	Dir fs.FileMode = 0o700
)
