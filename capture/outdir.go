package capture

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// inspectOutDir decides whether a run may write into dir: a missing or
// empty folder (dotfiles aside) starts a new capture; a folder holding a
// capture is continued when appending (its manifest is returned), refused
// otherwise; any other content is refused. It only reads.
func inspectOutDir(dir string, appending bool) (*Manifest, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	n := 0
	hasManifest := false
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue // .DS_Store, .gitkeep, a killed run's .capture-*.tmp
		}
		n++
		hasManifest = hasManifest || e.Name() == ManifestName
	}
	switch {
	case n == 0:
		return nil, nil
	case !hasManifest:
		return nil, &OutDirError{Dir: dir, Entries: n}
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, &OutDirError{Dir: dir, Entries: n, Err: err}
	}
	if !appending {
		// A capture that kept no dump (every attempt failed: nothing
		// listened, no JVM) holds only its manifest: nothing to protect,
		// so the same command may run again here and replaces it.
		if n == 1 && m.Failed() == len(m.Files) {
			return nil, nil
		}
		return nil, &OutDirError{Dir: dir, Entries: n, Capture: m}
	}
	return m, nil
}

// linkNoReplace makes tmp visible as dst only if dst does not exist: a
// capture never overwrites a file, even one its manifest does not list.
// link(2) refuses an existing name atomically; where hard links are not
// supported the check is a stat before the rename.
func linkNoReplace(tmp, dst string) error {
	err := os.Link(tmp, dst)
	if err == nil {
		os.Remove(tmp) // the name is published; a leftover temp name is harmless
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return &fs.PathError{Op: "write", Path: filepath.Base(dst), Err: errors.New("already exists: not overwritten")}
	}
	if _, serr := os.Lstat(dst); serr == nil {
		return &fs.PathError{Op: "write", Path: filepath.Base(dst), Err: errors.New("already exists: not overwritten")}
	}
	return os.Rename(tmp, dst)
}
