// Package words holds the few wording and ordering rules every package
// shares, so that each is said one way: "1 moment, 3 moments", and
// "exec-2" before "exec-10". Standard library only; any package may import
// it (deps_test).
package words

import (
	"cmp"
	"strconv"
	"strings"
)

// Plural is "1 moment", "3 moments": n and noun, with an s when n is not 1.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// NaturalCompare orders strings with their digit runs read as numbers:
// "exec-2" before "exec-10", "during-1" before "during-2". Digit runs of
// any length compare without overflow (by length after leading zeros).
// Strings equal as numbers ("exec-2", "exec-002") fall back to bytes, so
// the order is total.
func NaturalCompare(a, b string) int {
	return cmp.Or(natural(a, b), strings.Compare(a, b))
}

func natural(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// NaturalLess is NaturalCompare(a, b) < 0, for sort.Slice.
func NaturalLess(a, b string) bool { return NaturalCompare(a, b) < 0 }

func digitRun(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
