package report

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// The names every view gives to the same things: a runtime, a state with
// its via, the folded internal pools.

// runtimeName is a runtime as a reader names it: "JVM", "Go".
func runtimeName(rt parse.Runtime) string {
	switch rt {
	case parse.RuntimeJVM:
		return "JVM"
	case parse.RuntimeGo:
		return "Go"
	}
	return "unknown-runtime"
}

// internalName names the folded row of runtime-internal pools.
func internalName(rt parse.Runtime) string {
	switch rt {
	case parse.RuntimeGo:
		return "Go runtime"
	case parse.RuntimeJVM:
		return "JVM internal"
	}
	return "runtime internal"
}

// stateName is a state with what it waits on: "socket-read via
// http-client". Every view (and the TUI, through StateName) says it so.
func stateName(state, via string) string {
	if via == "" {
		return state
	}
	return state + " via " + via
}

// StateName is a state with what it waits on, as every report names it:
// "socket-read via http-client"; the state alone when via is "".
func StateName(state, via string) string { return stateName(state, via) }

// capitalize upper-cases the first byte of an ASCII phrase: a heading, a
// column's unit.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
