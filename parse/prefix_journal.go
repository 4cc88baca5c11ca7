package parse

import "bytes"

// A dump printed to a service's stdout and read back from the journal
// with journalctl's record outputs: each line of the dump is an entry's
// MESSAGE field, among the entry's other fields.
//
//	__CURSOR=s=1c3e…;i=2a1;b=…                                  -o export: one field a line,
//	__REALTIME_TIMESTAMP=1765123201089203                          a blank line between entries
//	_PID=4242
//	MESSAGE=	at com.example.Repo.load(Repo.java:42)
//
//	Mon 2026-12-07 16:00:01.089203 UTC [s=1c3e…;i=2a1;b=…]     -o verbose: a header, then the
//	    _TRANSPORT=stdout                                          fields indented by 4
//	    MESSAGE=	at com.example.Repo.load(Repo.java:42)
//
// The MESSAGE line is the dump's line (splitJournalExport,
// splitJournalVerbose); every other line of an entry is the journal's
// record (prefixShape.record), passed over. A message with no text is a
// blank line of the dump. The pin is the field's name: the journal's
// other processes are told apart by _PID, on a line of its own, which a
// line-by-line reader does not join to the message (said in the README's
// limits).

// journalMessage is the field every entry's text is in.
var journalMessage = []byte("MESSAGE=")

func splitJournalExport(line []byte, pl *prefixLine) bool {
	text, ok := bytes.CutPrefix(line, journalMessage)
	if !ok {
		return false
	}
	*pl = prefixLine{text: text, source: journalMessage, buf: pl.buf}
	return true
}

func splitJournalVerbose(line []byte, pl *prefixLine) bool {
	text, ok := bytes.CutPrefix(line, []byte("    MESSAGE="))
	if !ok {
		return false
	}
	*pl = prefixLine{text: text, source: journalMessage, buf: pl.buf}
	return true
}

// isJournalField reports whether line is "NAME=value" with a journal
// field's name: upper-case letters, digits and '_', not starting with a
// digit. A binary field (export's "NAME" alone, then its length and bytes)
// is not one: a dump written by a JVM or Go to stdout is text.
func isJournalField(line []byte) bool {
	eq := bytes.IndexByte(line, '=')
	if eq <= 0 || line[0] >= '0' && line[0] <= '9' {
		return false
	}
	for _, c := range line[:eq] {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func isJournalExportRecord(line []byte) bool {
	return len(bytes.TrimRight(line, "\r")) == 0 || isJournalField(line) && !bytes.HasPrefix(line, journalMessage)
}

func isJournalVerboseRecord(line []byte) bool {
	if len(bytes.TrimRight(line, "\r")) == 0 {
		return true
	}
	if f, ok := bytes.CutPrefix(line, []byte("    ")); ok {
		return isJournalField(f) && !bytes.HasPrefix(f, journalMessage)
	}
	// The entry's header: "Mon 2026-12-07 16:00:01.089203 UTC [s=…;i=…;b=…;m=…;t=…;x=…]".
	return bytes.HasSuffix(bytes.TrimRight(line, "\r"), []byte("]")) && bytes.Contains(line, []byte(" [s="))
}
