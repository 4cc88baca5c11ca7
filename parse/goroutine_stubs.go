package parse

// Stubs replaced by the Go format parsers (goroutine_text.go, goroutine_debug1.go, proto.go).

func claimProto(head []byte) bool                                        { return false }
func parseProto(name string, data []byte, in *interner) ([]*Dump, error) { return nil, errUnrecognized }
func startsGoDebug1(line, prev []byte) bool                              { return false }
func parseGoDebug1(p *textParser) *Dump                                  { return nil }
func startsGoText(line, prev []byte) bool                                { return false }
func parseGoText(p *textParser) *Dump                                    { return nil }

var goRefusals []refusal
