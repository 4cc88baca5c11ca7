package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/dumpdiff/dumpdiff/analyze"
)

// defaultSignatures is where a team's signatures file is read from when
// --signatures is not given: $XDG_CONFIG_HOME/dumpdiff/signatures, else
// ~/.config/dumpdiff/signatures (os.UserConfigDir). "" when there is no
// config directory.
func defaultSignatures() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "dumpdiff", "signatures")
}

// loadExtensions reads the signatures file at path; with explicit false (the
// default location) a missing file is no error. A file with bad lines is
// refused whole, every bad line named with its position.
func loadExtensions(path string, explicit bool) (*analyze.Extensions, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading signatures: %w", err)
	}
	defer f.Close()
	ext, err := analyze.ParseExtensions(f, path)
	if err != nil {
		return nil, fmt.Errorf("signatures file %s is refused:\n%w", path, err)
	}
	return ext, nil
}
