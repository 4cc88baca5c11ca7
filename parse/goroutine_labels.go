package parse

import "strconv"

// parseLabelSet reads a pprof label set printed by the Go runtime or by the
// debug=1 profile, starting at b[0] == '{'. It returns the labels and the
// bytes after the closing '}'. Three real forms are read:
//
//	{"job":"import[batch=7],retry"}                      debug=1 (all quoted, no spaces)
//	{"pool": "ingest", "route": "/api/v1/items[0],[1]"}  Go 1.26 header, GODEBUG=tracebacklabels=1
//	{pool: ingest, route: "/api/v1/items[0],[1]"}        Go 1.27 header: quoted only when needed
//
// A quoted token uses Go string syntax (the runtime's printquoted escapes
// \n \r \t \\ \" \xHH \uHHHH \UHHHHHHHH); a bare token holds only
// [A-Za-z0-9./_], so ']', ',', '"' and '}' can appear inside values only
// when quoted. ok is false when b is not a well-formed label set.
func parseLabelSet(b []byte, in *interner) (labels map[string]string, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '{' {
		return nil, b, false
	}
	i := 1
	for {
		for i < len(b) && b[i] == ' ' {
			i++
		}
		if i >= len(b) {
			return nil, b, false
		}
		if b[i] == '}' {
			if labels == nil {
				labels = map[string]string{}
			}
			return labels, b[i+1:], true
		}
		key, n, kok := labelToken(b[i:], ':', ':', in)
		if !kok {
			return nil, b, false
		}
		i += n
		if i >= len(b) || b[i] != ':' {
			return nil, b, false
		}
		i++
		for i < len(b) && b[i] == ' ' {
			i++
		}
		val, n, vok := labelToken(b[i:], ',', '}', in)
		if !vok {
			return nil, b, false
		}
		i += n
		if labels == nil {
			labels = make(map[string]string, 2)
		}
		labels[key] = val
		for i < len(b) && b[i] == ' ' {
			i++
		}
		if i < len(b) && b[i] == ',' {
			i++
		}
	}
}

// labelToken reads one key or value: a Go-quoted string, or bare bytes up
// to stop1 or stop2 (trailing spaces dropped). n is the number of bytes read.
func labelToken(b []byte, stop1, stop2 byte, in *interner) (s string, n int, ok bool) {
	if len(b) > 0 && b[0] == '"' {
		escaped := false
		for j := 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				escaped = true
				j++ // the escaped byte cannot close the string
			case '"':
				if !escaped {
					return in.bytes(b[1:j]), j + 1, true
				}
				u, err := strconv.Unquote(string(b[:j+1]))
				if err != nil {
					return "", 0, false
				}
				return in.str(u), j + 1, true
			}
		}
		return "", 0, false
	}
	j := 0
	for j < len(b) && b[j] != stop1 && b[j] != stop2 {
		j++
	}
	if j == len(b) {
		return "", 0, false
	}
	e := j
	for e > 0 && b[e-1] == ' ' {
		e--
	}
	return in.bytes(b[:e]), j, true
}
