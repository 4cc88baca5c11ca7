//go:build unix

// Package modetest is for tests only: it walks what a command wrote and
// says which file or folder is readable by anyone but its owner
// (internal/private's modes), under a umask of the test's choosing.
package modetest

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dumpdiff/dumpdiff/internal/private"
)

// Umask sets the process's umask for the rest of the test and restores
// the old one after it. The umask is one per process: a test that calls
// Umask must not be parallel (no t.Parallel), so that no other test
// creates files meanwhile. Umask(t, 0) shows every mode exactly as the
// code asked for it: a 0644 stays 0644, where the usual 022 or a
// careful user's 077 would hide part or all of it.
func Umask(t testing.TB, mask int) {
	t.Helper()
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// Check walks root (root itself included) and fails the test for every
// file whose mode is not private.File and every folder whose mode is not
// private.Dir, and for anything else (a symlink, a socket): what a
// command writes is files and folders only. It returns how many of each
// it saw, for the caller to check it walked what it meant to.
func Check(t testing.TB, root string) (files, dirs int) {
	t.Helper()
	var bad []string // reported after the walk: its frames are not the test's
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := info.Mode()
		switch {
		case mode.IsDir():
			dirs++
			if mode.Perm() != private.Dir {
				bad = append(bad, fmt.Sprintf("folder %s: mode %#o, want %#o", path, mode.Perm(), private.Dir))
			}
		case mode.IsRegular():
			files++
			if mode.Perm() != private.File {
				bad = append(bad, fmt.Sprintf("file %s: mode %#o, want %#o", path, mode.Perm(), private.File))
			}
		default:
			bad = append(bad, fmt.Sprintf("%s: a %v, neither file nor folder", path, mode.Type()))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking %s: %v", root, err)
	}
	for _, b := range bad {
		t.Error(b)
	}
	return files, dirs
}
