package main

import (
	"fmt"
	"regexp"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// pflagInvalid matches pflag's own message for a value it cannot read:
// `invalid argument "abc" for "--count" flag: strconv.ParseInt: ...`.
var pflagInvalid = regexp.MustCompile(`^invalid argument "(.*)" for "(-\w, )?(--[\w-]+)" flag: `)

// flagError says what a flag wants in words instead of strconv's or
// time's message: `--count "abc": want a whole number`.
func flagError(cmd *cobra.Command, err error) error {
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
