package analyze

import "strings"

// goStdTop are the first path elements of the Go standard library's
// packages, the union of `go list std | cut -d/ -f1` of the toolchains
// run here (Go 1.26.8 and Go 1.13.15, whose lists differ by cmp, embed,
// iter, maps, slices, structs, unique and weak), beside the roles table:
// data, not a rule. A function whose package path begins with one of
// them is the standard library's (vendor: the standard library's own
// copies, vendor/golang.org/x/net/...). Everything else is a module's:
// package main, a module path with a dot in its first element
// (github.com/...) and one without (example/app, myapp/internal/x, which
// `go mod init` allows), the application's unless goLibraries names it.
// A future release's new top-level package reads as application code
// until it is added here: a culprit named one frame too low, never a
// wait lost.
var goStdTop = map[string]bool{
	"archive": true, "bufio": true, "bytes": true, "cmp": true, "compress": true, "container": true, "context": true,
	"crypto": true, "database": true, "debug": true, "embed": true, "encoding": true, "errors": true, "expvar": true,
	"flag": true, "fmt": true, "go": true, "hash": true, "html": true, "image": true, "index": true, "internal": true,
	"io": true, "iter": true, "log": true, "maps": true, "math": true, "mime": true, "net": true, "os": true,
	"path": true, "plugin": true, "reflect": true, "regexp": true, "runtime": true, "slices": true, "sort": true,
	"strconv": true, "strings": true, "structs": true, "sync": true, "syscall": true, "testing": true, "text": true,
	"time": true, "unicode": true, "unique": true, "unsafe": true, "vendor": true, "weak": true,
	// Not packages, but what the compiler and linker name functions
	// with: type equality and hash functions (type:.eq.main.T from Go
	// 1.21, type..eq.main.T before) and Go's own symbols (go:buildid,
	// go.shape instantiations are printed under their package).
	"type:": true, "type": true, "go:": true,
}

// goStdFunc reports whether fn (as a Go traceback prints it,
// "net/http.(*conn).serve", "sync.(*Mutex).Lock") is the standard
// library's, the runtime's or the toolchain's: its package path's first
// element is in goStdTop. A bare symbol with neither slash nor dot (a C
// function under cgo, x_cgo_notify_runtime_init_done) is no Go package's:
// not the application's Go code either.
func goStdFunc(fn string) bool {
	first := fn
	if slash := strings.IndexByte(fn, '/'); slash >= 0 {
		first = fn[:slash]
	} else if dot := strings.IndexByte(fn, '.'); dot >= 0 {
		first = fn[:dot]
	} else {
		return true
	}
	return goStdTop[first]
}
