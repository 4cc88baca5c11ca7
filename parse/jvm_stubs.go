package parse

// Stubs replaced by the JVM format parsers (jcmd_json.go, jcmd_plain.go).

func claimJVMJSON(head []byte) bool { return false }
func parseJVMJSON(name string, data []byte, in *interner) ([]*Dump, error) {
	return nil, errUnrecognized
}
func startsJVMPlain(line, prev []byte) bool { return false }
func parseJVMPlain(p *textParser) *Dump     { return nil }
