package capture

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Kind says how a target's dump is obtained.
type Kind string

const (
	// KindPprof is a Go process serving net/http/pprof: Target.URL.
	KindPprof Kind = "pprof"
	// KindJVM is a local JVM: Target.PID, via jcmd Thread.print -l or jstack -l.
	KindJVM Kind = "jvm"
	// KindExec is a shell command (run with sh -c) printing a dump on stdout: Target.Command.
	KindExec Kind = "exec"
	// KindActuator is a Spring Boot Actuator thread dump endpoint
	// (/actuator/threaddump), fetched as JSON: Target.URL.
	KindActuator Kind = "actuator"
)

// Target is one process to dump at every moment.
type Target struct {
	// Name labels the target in file names, the manifest and progress lines.
	// Empty: derived from the source (host_port, jvm-PID, exec-N); see Plan.normalize.
	// Characters other than letters, digits, '.', '-' and '_' become '_'.
	Name string
	// Kind picks which of URL, PID or Command is used.
	Kind Kind
	// URL is the pprof base URL (http://127.0.0.1:6060, 127.0.0.1:6060,
	// .../debug/pprof or .../debug/pprof/goroutine) for KindPprof, or the
	// Actuator endpoint for KindActuator (see ActuatorTarget). Its query is
	// dropped (pass credentials in Plan.Headers); user info is sent as basic
	// auth and never recorded.
	URL string
	// PID is the local JVM's process id; only for KindJVM.
	PID int
	// Command is run with sh -c; its stdout is the dump; only for KindExec.
	Command string
}

// PprofTarget is a Go process's pprof base or goroutine URL.
func PprofTarget(name, rawURL string) Target {
	return Target{Name: name, Kind: KindPprof, URL: rawURL}
}

// ActuatorTarget is a Spring Boot Actuator thread dump endpoint. rawURL is
// the endpoint itself (a path ending in /threaddump: .../actuator/threaddump,
// or a custom base path such as /manage/threaddump), the application's root
// (http://h:8080, which means /actuator/threaddump), or an Actuator base
// path (http://h:8081/manage, which means /manage/threaddump).
func ActuatorTarget(name, rawURL string) Target {
	return Target{Name: name, Kind: KindActuator, URL: rawURL}
}

// IsActuatorURL reports whether rawURL names an Actuator thread dump
// endpoint by its path (…/actuator/threaddump), so that a caller given a
// plain URL can tell it from a pprof one.
func IsActuatorURL(rawURL string) bool {
	u, err := url.Parse(withScheme(rawURL))
	return err == nil && strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/actuator/threaddump")
}

// JVMTarget is a local JVM by process id.
func JVMTarget(name string, pid int) Target { return Target{Name: name, Kind: KindJVM, PID: pid} }

// ExecTarget is a shell command that prints a dump.
func ExecTarget(name, command string) Target {
	return Target{Name: name, Kind: KindExec, Command: command}
}

// Source describes where the dump comes from, safe to print and record:
// a URL without user info or query, "pid 1234", or the command.
func (t Target) Source() string {
	switch t.Kind {
	case KindPprof:
		if base, err := pprofBase(t.URL); err == nil {
			return redactURL(base)
		}
		return redactURL(withScheme(t.URL))
	case KindActuator:
		if u, err := actuatorURL(t.URL); err == nil {
			return redactURL(u)
		}
		return redactURL(withScheme(t.URL))
	case KindJVM:
		return "pid " + strconv.Itoa(t.PID)
	case KindExec:
		return t.Command
	}
	return ""
}

// userQuery is the query the user gave in a pprof or Actuator target's URL
// ("?token=..." for a gateway that authenticates by query), without the
// parameters capture sets itself (debug, seconds, gc): it is sent with
// every request to the target, and never recorded (Source drops it; its
// values are secrets).
func (t Target) userQuery() string {
	u, err := url.Parse(withScheme(t.URL))
	if err != nil || u.RawQuery == "" {
		return ""
	}
	var kept []string
	for _, kv := range strings.Split(u.RawQuery, "&") {
		if k, _, _ := strings.Cut(kv, "="); kv != "" && !ownQueryKey(k) {
			kept = append(kept, kv)
		}
	}
	return strings.Join(kept, "&")
}

// withQuery is rawURL with the user's query q added after capture's own.
func withQuery(rawURL, q string) string {
	switch {
	case q == "":
		return rawURL
	case strings.Contains(rawURL, "?"):
		return rawURL + "&" + q
	}
	return rawURL + "?" + q
}

// baseURL is the URL a pprof or Actuator target's requests start from.
func (t Target) baseURL() (string, error) {
	if t.Kind == KindActuator {
		return actuatorURL(t.URL)
	}
	return pprofBase(t.URL)
}

// actuatorURL turns an accepted Actuator URL into the thread dump endpoint
// (no query, no fragment).
//
//	http://h:8080                         → http://h:8080/actuator/threaddump
//	http://h:8080/actuator/threaddump/    → http://h:8080/actuator/threaddump
//	http://h:8081/manage                  → http://h:8081/manage/threaddump
func actuatorURL(raw string) (string, error) {
	u, err := parseHTTPURL(raw, "Actuator")
	if err != nil {
		return "", err
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/threaddump"):
	case p == "":
		p = "/actuator/threaddump"
	default:
		p += "/threaddump"
	}
	u.Path, u.RawPath = p, ""
	return u.String(), nil
}

// parseHTTPURL parses an http or https URL with a host and drops its query
// and fragment; what names the kind of URL in errors.
func parseHTTPURL(raw, what string) (*url.URL, error) {
	u, err := url.Parse(withScheme(raw))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may hold a password
		}
		return nil, fmt.Errorf("bad %s URL: %v", what, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("bad %s URL %q: scheme must be http or https", what, redactURL(raw))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("bad %s URL %q: no host", what, redactURL(raw))
	}
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// pprofBase turns any accepted pprof URL into the .../debug/pprof base
// (no trailing slash, no query, no fragment).
//
//	http://h:6060                         → http://h:6060/debug/pprof
//	http://h:6060/debug/pprof/            → http://h:6060/debug/pprof
//	http://h:6060/x/debug/pprof/goroutine → http://h:6060/x/debug/pprof
func pprofBase(raw string) (string, error) {
	u, err := parseHTTPURL(raw, "pprof")
	if err != nil {
		return "", err
	}
	p := strings.TrimRight(u.Path, "/")
	for _, suffix := range []string{"/goroutine", "/goroutineleak"} {
		if strings.HasSuffix(p, "/debug/pprof"+suffix) {
			p = strings.TrimSuffix(p, suffix)
		}
	}
	if !strings.HasSuffix(p, "/debug/pprof") {
		p += "/debug/pprof"
	}
	u.Path, u.RawPath = p, ""
	return u.String(), nil
}

// safeName keeps letters, digits, '.', '-' and '_' and turns the rest into '_',
// so a name can be used in a file name on every system.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), "_.")
}

// defaultName derives a name from the source; i is the target's position
// (from 1), used for commands.
func defaultName(t Target, i int) string {
	switch t.Kind {
	case KindPprof, KindActuator:
		if u, err := url.Parse(withScheme(t.URL)); err == nil && u.Host != "" {
			return safeName(u.Host)
		}
	case KindJVM:
		return "jvm-" + strconv.Itoa(t.PID)
	}
	return "exec-" + strconv.Itoa(i)
}

// withScheme lets "127.0.0.1:6060" mean "http://127.0.0.1:6060".
func withScheme(raw string) string {
	if !strings.Contains(raw, "://") {
		return "http://" + raw
	}
	return raw
}
