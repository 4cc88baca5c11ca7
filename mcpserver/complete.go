package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// completeMax is the most values one completion answers: the protocol's
// own bound (a client shows them as a list; hasMore says there are more).
const completeMax = 100

// complete answers completion/complete for what an assistant or a person
// types into the prompt's and the resource templates' arguments:
//   - investigate_incident's paths (the last comma-separated one) and the
//     file template's path: the files and folders under the roots, never
//     outside them (a prefix of a root completes to the root);
//   - the report template's id (the analyses kept, newest first) and
//     report (report.md, report.html, report.json).
//
// Anything else completes to nothing: an empty answer, not an error.
func (s *Server) complete(_ context.Context, req *mcp.CompleteRequest) (res *mcp.CompleteResult, err error) {
	defer recoverTo(&err, "completion")
	p := req.Params
	if p == nil || p.Ref == nil {
		return completion(nil), nil
	}
	v := p.Argument.Value
	switch {
	case p.Ref.Type == "ref/prompt" && p.Ref.Name == "investigate_incident" && p.Argument.Name == "paths":
		// The earlier paths stay as typed: each value is the whole
		// argument with its last path completed.
		head, last := "", v
		if i := strings.LastIndexByte(v, ','); i >= 0 {
			head, last = v[:i+1], v[i+1:]
		}
		lead := last[:len(last)-len(strings.TrimLeft(last, " "))]
		var out []string
		for _, c := range s.completePath(strings.TrimLeft(last, " ")) {
			out = append(out, head+lead+c)
		}
		return completion(out), nil
	case p.Ref.Type == "ref/resource" && p.Ref.URI == "file:///{+path}" && p.Argument.Name == "path":
		// The template's path has no leading slash: file:///{+path}.
		var out []string
		for _, c := range s.completePath("/" + strings.TrimPrefix(v, "/")) {
			out = append(out, strings.TrimPrefix(c, "/"))
		}
		return completion(out), nil
	case p.Ref.Type == "ref/resource" && p.Ref.URI == "dumpdiff://analysis/{id}/{report}" && p.Argument.Name == "id":
		s.mu.Lock()
		ids := slices.Clone(s.order)
		s.mu.Unlock()
		slices.Reverse(ids) // the newest first: the one just made is the one asked of
		return completion(withPrefix(ids, v)), nil
	case p.Ref.Type == "ref/resource" && p.Ref.URI == "dumpdiff://analysis/{id}/{report}" && p.Argument.Name == "report":
		var names []string
		for _, f := range reportFormats {
			names = append(names, f.name)
		}
		return completion(withPrefix(names, v)), nil
	}
	return completion(nil), nil
}

// completion is the answer for values: at most completeMax of them, with
// the total and whether more were left out.
func completion(values []string) *mcp.CompleteResult {
	r := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}, Total: len(values)}}
	if len(values) > completeMax {
		values, r.Completion.HasMore = values[:completeMax], true
	}
	r.Completion.Values = append(r.Completion.Values, values...)
	return r
}

func withPrefix(all []string, prefix string) []string {
	var out []string
	for _, a := range all {
		if strings.HasPrefix(a, prefix) {
			out = append(out, a)
		}
	}
	return out
}

// completePath completes typed (a path as the tools take it: absolute, or
// relative to the first root) to the entries of its folder whose names
// begin with what follows the folder, folders with a trailing slash,
// sorted; only entries under a root, as resolve would take them. A typed
// path on the way to a root (a prefix of it, "/sr" of "/srv/dumps")
// completes to the root. Relative typed paths complete to relative ones.
func (s *Server) completePath(typed string) []string {
	if strings.ContainsRune(typed, 0) {
		return nil
	}
	rel := !filepath.IsAbs(typed)
	abs := typed
	if rel {
		abs = s.roots[0] + string(filepath.Separator) + typed
	}
	var out []string
	add := func(p string, dir bool) {
		if rel {
			r, err := filepath.Rel(s.roots[0], p)
			if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				return
			}
			p = r
		}
		if dir {
			p += string(filepath.Separator)
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	// On the way to a root: the root itself (the roots as given too, for
	// a root reached through a symlink).
	for _, r := range append(slices.Clone(s.roots), s.cfg.Roots...) {
		if r, err := filepath.Abs(r); err == nil && !rel && strings.HasPrefix(r, abs) && r != abs {
			add(r, true)
		}
	}
	dir, base := filepath.Split(abs)
	if dir == "" {
		return out
	}
	real, err := s.resolve(filepath.Clean(dir))
	if err != nil {
		return out // outside the roots, or no such folder: nothing to offer
	}
	ents, err := os.ReadDir(real)
	if err != nil {
		return out
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), base) || strings.HasPrefix(e.Name(), ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		// Each entry as resolve takes it: a link out of the roots is no
		// completion.
		r, err := s.resolve(p)
		if err != nil {
			continue
		}
		st, err := os.Stat(r)
		if err != nil {
			continue
		}
		add(p, st.IsDir())
	}
	return out
}
