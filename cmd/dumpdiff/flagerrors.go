package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// pflagInvalid matches pflag's own message for a value it cannot read:
// `invalid argument "abc" for "--count" flag: strconv.ParseInt: ...`.
var pflagInvalid = regexp.MustCompile(`^invalid argument "(.*)" for "(-\w, )?(--[\w-]+)" flag: `)

// flagError says what a flag wants in words instead of strconv's or
// time's message: `--count "abc": want a whole number`.
func flagError(cmd *cobra.Command, err error) error {
	if s := unknownFlag(cmd, err); s != nil {
		return s
	}
	m := pflagInvalid.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	value, name := m[1], m[3]
	want := "a value of its kind"
	if f := cmd.Flags().Lookup(name[2:]); f != nil {
		want = flagWants(f)
	}
	return fmt.Errorf("%s %q: want %s (see dumpdiff %s --help)", name, value, want, cmd.Name())
}

// flagWants names what a flag of f's type accepts.
func flagWants(f *pflag.Flag) string {
	switch f.Value.Type() {
	case "int", "int64", "intSlice", "uint", "uint64":
		return "a whole number"
	case "duration":
		return "a duration with its unit, such as 500ms, 10s or 2m"
	case "bool":
		return "true or false"
	case "float64":
		return "a number"
	}
	return "a " + f.Value.Type()
}

// pflagUnknown matches pflag's message for a flag it does not know:
// `unknown flag: --fromat`.
var pflagUnknown = regexp.MustCompile(`^unknown flag: --([\w-]+)`)

// unknownFlag adds the closest flag of cmd to pflag's "unknown flag" (an
// edit distance of at most 2, or a flag that starts with what was typed),
// and says when the flag exists on another command; nil when err is not
// an unknown flag or nothing is close.
func unknownFlag(cmd *cobra.Command, err error) error {
	m := pflagUnknown.FindStringSubmatch(err.Error())
	if m == nil {
		return nil
	}
	typed := m[1]
	best, bestD := "", 3 // a distance of 3 or more is another word, not a typo
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(typed, f.Name)
		if strings.HasPrefix(f.Name, typed) && len(typed) >= 3 {
			d = min(d, 1)
		}
		if d < bestD || (d == bestD && f.Name < best) {
			best, bestD = f.Name, d
		}
	})
	if best != "" {
		return fmt.Errorf("unknown flag --%s: did you mean --%s? (see %s --help)", typed, best, cmd.CommandPath())
	}
	// The flag of other commands (--pid given to the main command).
	var of []string
	for _, c := range cmd.Root().Commands() {
		if f := c.Flags().Lookup(typed); c != cmd && f != nil && !f.Hidden {
			of = append(of, c.CommandPath())
		}
	}
	if len(of) > 0 {
		return fmt.Errorf("unknown flag --%s for %s: it is a flag of %s", typed, cmd.CommandPath(), strings.Join(of, " and "))
	}
	return nil
}

// editDistance is the Levenshtein distance of a and b (bytes: flag names
// are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
