package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dumpdiff/dumpdiff/capture"
)

// resolveRoot is root as paths are checked against it: absolute, its
// symlinks evaluated, a folder.
func resolveRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("--root %s: %w", root, err)
	}
	r, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("--root %s: %w", root, err)
	}
	st, err := os.Stat(r)
	if err != nil {
		return "", fmt.Errorf("--root %s: %w", root, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("--root %s is not a folder", root)
	}
	return r, nil
}

// under reports whether the resolved path p is one of the roots or inside one.
func (s *Server) under(p string) bool {
	for _, r := range s.roots {
		rel, err := filepath.Rel(r, p)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// resolve is the path p names (relative to the first root when not
// absolute), its symlinks evaluated, when it exists and lies under a root;
// an error that says why otherwise. A path that reaches outside through a
// symlink is refused as any other outside path is.
func (s *Server) resolve(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", fmt.Errorf("an empty path: give a file or folder under %s", s.rootsText())
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q holds a NUL byte", p)
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(s.roots[0], p)
	}
	abs = filepath.Clean(abs)
	// Checked before and after the symlinks are evaluated: "../x" is
	// refused even when it would come back in, and a link out is refused
	// where it leads.
	if !s.under(abs) && !s.underUnresolved(abs) {
		return "", fmt.Errorf("%s is outside the folders this server may read (%s)", p, s.rootsText())
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", p, unwrapPath(err))
	}
	if !s.under(real) {
		return "", fmt.Errorf("%s leads outside the folders this server may read (%s) through a symlink", p, s.rootsText())
	}
	return real, nil
}

// underUnresolved: the roots as given may themselves be reached through a
// symlink (/tmp on some systems); a path written under the root as given
// is checked once resolved.
func (s *Server) underUnresolved(abs string) bool {
	for _, r := range s.cfg.Roots {
		ra, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(ra, abs)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// resolveInput is resolve for what an analysis reads: a folder's dumps
// are read one level down (the main command reads no subfolder), and a
// capture's manifest names its files; each of them must lie under a root
// too, so that a link inside a folder or a manifest's "../" reads nothing
// outside.
func (s *Server) resolveInput(p string) (string, error) {
	real, err := s.resolve(p)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", p, unwrapPath(err))
	}
	if !st.IsDir() {
		return real, nil
	}
	es, err := os.ReadDir(real)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", p, unwrapPath(err))
	}
	for _, e := range es {
		if e.IsDir() {
			continue
		}
		if err := s.inside(p, filepath.Join(real, e.Name())); err != nil {
			return "", err
		}
	}
	if m, err := capture.ReadManifest(real); err == nil {
		for _, f := range m.Files {
			if f.Path == "" {
				continue
			}
			if err := s.inside(p, filepath.Join(real, f.Path)); err != nil {
				return "", err
			}
		}
	}
	return real, nil
}

// inside checks one file that reading folder p reads.
func (s *Server) inside(p, file string) error {
	real, err := filepath.EvalSymlinks(file)
	if err != nil {
		return nil // missing: the analysis says so as it does for any missing file
	}
	if !s.under(real) {
		return fmt.Errorf("%s holds %s, which leads outside the folders this server may read (%s): refused", p, filepath.Base(file), s.rootsText())
	}
	return nil
}

// resolveNew is a folder to create (a capture's): its parent must exist
// under a root; the folder itself must not exist, or be empty.
func (s *Server) resolveNew(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", fmt.Errorf("an empty path: give a new folder under %s", s.rootsText())
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(s.roots[0], p)
	}
	abs = filepath.Clean(abs)
	parent, err := s.resolve(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	out := filepath.Join(parent, filepath.Base(abs))
	if _, err := os.Lstat(out); err == nil {
		if real, err := s.resolve(out); err != nil {
			return "", err
		} else if es, _ := os.ReadDir(real); len(es) > 0 {
			return "", fmt.Errorf("%s exists and is not empty: give a new folder for the capture", p)
		}
	}
	return out, nil
}

func (s *Server) rootsText() string { return strings.Join(s.roots, ", ") }

// unwrapPath drops the *PathError's op and path: the message names the
// path as the caller gave it.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
