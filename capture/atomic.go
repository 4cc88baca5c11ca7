package capture

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// errTooLarge is returned by atomicFile.Write past the size cap.
var errTooLarge = errors.New("exceeds the size cap")

const (
	headBytes = 4 << 10 // kept for the byte checks (format detection)
	tailBytes = 512     // kept for the truncation checks
)

// atomicFile is a temp file in the destination folder that becomes the named
// file only on commit (fsync, rename, fsync folder), so a reader never sees a
// partial dump. It keeps the first and last bytes for the checks in sniff.go
// and refuses to grow past max.
type atomicFile struct {
	f    *os.File
	dir  string
	n    int64
	max  int64
	over bool // a Write was refused by the cap
	head []byte
	tail []byte // the last tailBytes written, in order
}

// createAtomic starts a dump file in dir: .capture-*.tmp until committed.
func createAtomic(dir string, max int64) (*atomicFile, error) {
	return createAtomicPattern(dir, ".capture-*.tmp", max)
}

func createAtomicPattern(dir, pattern string, max int64) (*atomicFile, error) {
	f, err := os.CreateTemp(dir, pattern) // mode 0600: internal/private.File, kept by link and rename
	if err != nil {
		return nil, err
	}
	return &atomicFile{f: f, dir: dir, max: max}, nil
}

func (a *atomicFile) Write(p []byte) (int, error) {
	if a.n+int64(len(p)) > a.max {
		a.over = true
		return 0, fmt.Errorf("%w of %d bytes", errTooLarge, a.max)
	}
	n, err := a.f.Write(p)
	a.n += int64(n)
	if len(a.head) < headBytes {
		a.head = append(a.head, p[:min(n, headBytes-len(a.head))]...)
	}
	a.tail = append(a.tail, p[:n]...)
	if len(a.tail) > 2*tailBytes { // trim now and then, not every write
		a.tail = append(a.tail[:0], a.tail[len(a.tail)-tailBytes:]...)
	}
	return n, err
}

// lastBytes returns up to tailBytes of the end of what was written.
func (a *atomicFile) lastBytes() []byte {
	return a.tail[max(0, len(a.tail)-tailBytes):]
}

// commit makes the file visible as dir/name, which must not exist yet.
func (a *atomicFile) commit(name string) error { return a.commitAs(name, false) }

// commitAs is commit; replace allows overwriting dir/name (the manifest).
func (a *atomicFile) commitAs(name string, replace bool) error {
	tmp := a.f.Name()
	if err := a.f.Sync(); err != nil {
		a.discard()
		return err
	}
	if err := a.f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	publish := linkNoReplace
	if replace {
		publish = os.Rename
	}
	if err := publish(tmp, filepath.Join(a.dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(a.dir)
}

// discard removes the temp file; nothing of it remains.
func (a *atomicFile) discard() {
	a.f.Close()
	os.Remove(a.f.Name())
}

// writeFileAtomic writes data to dir/name through a temp file
// (.NAME-*.tmp: told apart from a dump in flight).
func writeFileAtomic(dir, name string, data []byte) error {
	a, err := createAtomicPattern(dir, "."+name+"-*.tmp", int64(len(data)))
	if err != nil {
		return err
	}
	if _, err := a.f.Write(data); err != nil {
		a.discard()
		return err
	}
	return a.commitAs(name, true)
}

// syncDir makes a rename durable. Some systems cannot fsync a folder; that
// is not worth failing a capture for, so only opening errors count.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	d.Sync()
	return d.Close()
}
