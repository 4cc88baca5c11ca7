package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one message on stdio: a request is a few hundred bytes;
// a line past this is answered as invalid and dropped, not buffered whole.
const maxLine = 4 << 20

// Stdio is the transport on in and out (the process's stdin and stdout)
// that keeps the server up through a malformed line: the SDK's own stdio
// transport ends the session at a line that is not JSON-RPC, so a client's
// one bad write would stop the server. Each line is checked first: one
// that is not JSON is answered with JSON-RPC's parse error (-32700), one
// that is JSON but no message with invalid request (-32600), and the next
// lines are read as usual. Good lines pass to the SDK unchanged.
func Stdio(in io.Reader, out io.Writer) mcp.Transport {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(screen(in, pw, w))
	}()
	return &mcp.IOTransport{Reader: pr, Writer: w, MaxLineLength: maxLine}
}

// screen copies the good lines of in to pass and answers the bad ones on out.
func screen(in io.Reader, pass io.Writer, out io.Writer) error {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if why, code := check(line, tooLong); why != "" {
				b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": why}})
				if _, err := out.Write(append(b, '\n')); err != nil {
					return err
				}
			} else if _, err := pass.Write(append(line, '\n')); err != nil {
				return err
			}
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// readLine reads one line without its newline, at most maxLine bytes of it
// (tooLong: the rest was read and dropped).
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		part, isPrefix, err := br.ReadLine()
		if len(line)+len(part) > maxLine {
			tooLong = true
		} else {
			line = append(line, part...)
		}
		if err != nil || !isPrefix {
			return line, tooLong, err
		}
	}
}

// check says what is wrong with a line, and the JSON-RPC error code; "" when
// it is a message (or a batch) for the SDK.
func check(line []byte, tooLong bool) (string, int) {
	if tooLong {
		return fmt.Sprintf("invalid request: a message over %d bytes", maxLine), -32600
	}
	if !json.Valid(line) {
		return "parse error: the line is not JSON; one JSON-RPC message a line", -32700
	}
	t := bytes.TrimSpace(line)
	if t[0] == '[' {
		return "", 0 // a batch: the SDK answers what it holds
	}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if t[0] != '{' || json.Unmarshal(t, &m) != nil || m.JSONRPC != "2.0" || m.Method == "" && m.ID == nil {
		return `invalid request: not a JSON-RPC 2.0 message (want {"jsonrpc":"2.0","method":...})`, -32600
	}
	return "", 0
}

// lockedWriter writes whole messages: the SDK writes each in one Write,
// and screen's answers must not land inside one.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }
