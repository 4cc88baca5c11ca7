package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// jcmd PID Thread.dump_to_file -format=json FILE (JDK 21+), also written by
// HotSpotDiagnosticMXBean.dumpThreads. Shapes, by JDK:
//
//	21: {"threadDump": {"processId": "3862", "time": "2026-01-25T15:46:04.439828Z",
//	     "runtimeVersion": "21.0.10+7-LTS", "threadContainers": [{"container": "<root>",
//	     "parent": null, "owner": null, "threads": [{"tid": "9", "name": "Reference Handler",
//	     "stack": ["java.base\/java.lang.ref.Reference.waitForReferencePendingList(Native Method)", ...]}],
//	     "threadCount": "8"}]}}
//	25: threads also carry "time", "virtual": true, "state", "parkBlocker":
//	    {"object": "java.util.concurrent.locks.ReentrantLock$NonfairSync@1b6d3586", "owner": "23"},
//	    "blockedOn", "waitingOn", "monitorsOwned": [{"depth": 2, "locks": ["java.lang.Object@..."]}],
//	    "carrier": "22" (the carrier's tid, for a mounted virtual thread)
//	27: "formatVersion": 2, and numbers are JSON numbers instead of strings.
//
// Every container's threads are kept, in file order, each with its
// container name. The whole file is one dump.

// claimJVMJSON reports whether head starts a jcmd JSON thread dump.
func claimJVMJSON(head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	return bytes.Contains(head, []byte(`"threadDump"`))
}

// jsonInt is a JSON integer written as a number (JDK 27) or as a string
// of digits (JDK 21 and 25 write longs as strings).
type jsonInt int64

func (n *jsonInt) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	b = bytes.Trim(b, `"`)
	v, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("not an integer: %s", b)
	}
	*n = jsonInt(v)
	return nil
}

type jsonDump struct {
	ThreadDump *struct {
		FormatVersion    jsonInt         `json:"formatVersion"`
		ProcessID        jsonInt         `json:"processId"`
		Time             string          `json:"time"`
		RuntimeVersion   string          `json:"runtimeVersion"`
		ThreadContainers []jsonContainer `json:"threadContainers"`
	} `json:"threadDump"`
}

type jsonContainer struct {
	Container string       `json:"container"`
	Parent    *string      `json:"parent"`
	Owner     *jsonInt     `json:"owner"`
	Threads   []jsonThread `json:"threads"`
}

type jsonThread struct {
	TID         jsonInt  `json:"tid"`
	Name        string   `json:"name"`
	Virtual     bool     `json:"virtual"`
	State       string   `json:"state"`
	Stack       []string `json:"stack"`
	ParkBlocker *struct {
		Object string   `json:"object"`
		Owner  *jsonInt `json:"owner"`
	} `json:"parkBlocker"`
	BlockedOn     string `json:"blockedOn"`
	WaitingOn     string `json:"waitingOn"`
	MonitorsOwned []struct {
		Depth int       `json:"depth"`
		Locks []*string `json:"locks"`
	} `json:"monitorsOwned"`
	Carrier *jsonInt `json:"carrier"`
}

// parseJVMJSON reads a jcmd JSON thread dump. A syntax error is returned as
// a *SyntaxError with the line of the offending byte; JSON without a
// "threadDump" object is errUnrecognized.
func parseJVMJSON(name string, data []byte, in *interner) ([]*Dump, error) {
	var jd jsonDump
	if err := json.Unmarshal(data, &jd); err != nil {
		line := 0
		if se, ok := err.(*json.SyntaxError); ok {
			line = 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		}
		return nil, &SyntaxError{File: name, Line: line, Msg: "jcmd JSON thread dump: " + err.Error()}
	}
	td := jd.ThreadDump
	if td == nil {
		return nil, errUnrecognized
	}
	d := &Dump{
		Format:    FormatJVMJSON,
		Source:    Source{File: name},
		Version:   td.RuntimeVersion,
		ProcessID: int(td.ProcessID),
	}
	if td.Time != "" {
		if t, err := time.Parse(time.RFC3339Nano, td.Time); err == nil {
			d.Time = t
		} else {
			d.Skipped = append(d.Skipped, Skipped{Text: td.Time, Reason: "time is not RFC 3339"})
		}
	}
	byID := make(map[int64]*Thread)
	type pending struct {
		t       *Thread
		carrier int64
		owner   int64 // owner of the park blocker; the lock is the first of t.Locks
	}
	var later []pending
	for _, c := range td.ThreadContainers {
		container := in.str(c.Container)
		for _, jt := range c.Threads {
			t := &Thread{
				ID:     int64(jt.TID),
				State:  in.str(jt.State),
				JVM:    &JVM{Name: in.str(jt.Name), Virtual: jt.Virtual, Container: container},
				Weight: 1,
			}
			for _, s := range jt.Stack {
				f := parseFrame([]byte(s), in)
				if f == nil {
					d.Skipped = append(d.Skipped, Skipped{Text: truncate(s), Reason: "stack element of thread " + strconv.Quote(jt.Name) + " is not a frame"})
					continue
				}
				t.Frames = append(t.Frames, f)
			}
			p := pending{t: t}
			if jt.ParkBlocker != nil {
				t.JVM.Locks = append(t.JVM.Locks, jsonLock(LockParking, jt.ParkBlocker.Object, 0, in))
				if jt.ParkBlocker.Owner != nil {
					p.owner = int64(*jt.ParkBlocker.Owner)
				}
			}
			if jt.BlockedOn != "" {
				t.JVM.Locks = append(t.JVM.Locks, jsonLock(LockWaitingTo, jt.BlockedOn, 0, in))
			}
			if jt.WaitingOn != "" {
				t.JVM.Locks = append(t.JVM.Locks, jsonLock(LockWaitingOn, jt.WaitingOn, 0, in))
			}
			for _, m := range jt.MonitorsOwned {
				for _, o := range m.Locks {
					if o == nil {
						t.JVM.Locks = append(t.JVM.Locks, Lock{Kind: LockEliminated, Frame: m.Depth})
						continue
					}
					t.JVM.Locks = append(t.JVM.Locks, jsonLock(LockHeld, *o, m.Depth, in))
				}
			}
			if jt.Carrier != nil {
				p.carrier = int64(*jt.Carrier)
			}
			if p.carrier != 0 || p.owner != 0 {
				later = append(later, p)
			}
			if t.ID != 0 {
				byID[t.ID] = t
			}
			d.Threads = append(d.Threads, t)
		}
	}
	// Carriers and owners are tids; name them once every thread is known.
	for _, p := range later {
		if p.carrier != 0 {
			p.t.Carrier = threadNameByID(byID, p.carrier)
			if c := byID[p.carrier]; c != nil && c.MountedVirtual == 0 {
				c.MountedVirtual = p.t.ID
			}
		}
		if p.owner != 0 {
			p.t.JVM.Locks[0].Owner = threadNameByID(byID, p.owner)
			p.t.JVM.Locks[0].OwnerID = p.owner // the owner's tid
		}
	}
	return []*Dump{d}, nil
}

// threadNameByID names the thread with the given tid, or "#tid" when it is
// not in the dump (or has an empty name, as virtual threads often do).
func threadNameByID(byID map[int64]*Thread, id int64) string {
	if t := byID[id]; t != nil && t.Name() != "" {
		return t.Name()
	}
	return "#" + strconv.FormatInt(id, 10)
}

// jsonLock reads an object identity string, "java.lang.Object@1b6d3586".
func jsonLock(kind LockKind, obj string, frame int, in *interner) Lock {
	l := Lock{Kind: kind, Frame: frame}
	if at := lastByte(obj, '@'); at > 0 {
		l.Class = in.str(obj[:at])
		l.Address = in.str(obj[at+1:])
	} else {
		l.Class = in.str(obj)
	}
	return l
}

func lastByte(s string, c byte) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func truncate(s string) string {
	if len(s) > 200 {
		return s[:200]
	}
	return s
}
