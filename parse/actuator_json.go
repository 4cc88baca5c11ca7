package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Spring Boot Actuator's JSON thread dump: the ThreadInfo[] of
// ThreadMXBean.dumpAllThreads(true, true), serialized by Jackson as beans
// (every getter a property). Shapes:
//
//	Boot 2.x and later, GET /actuator/threaddump (Accept: application/json):
//	  {"threads":[{"threadName":"main","threadId":1,"blockedTime":-1,"blockedCount":0,
//	    "waitedTime":-1,"waitedCount":2,"lockName":null,"lockOwnerId":-1,"lockOwnerName":null,
//	    "daemon":false,"inNative":false,"suspended":false,"threadState":"RUNNABLE","priority":5,
//	    "stackTrace":[{"classLoaderName":null,"moduleName":"java.base","moduleVersion":"17.0.15",
//	      "methodName":"sleep","fileName":"Thread.java","lineNumber":-2,"nativeMethod":true,
//	      "className":"java.lang.Thread"}, ...],
//	    "lockedMonitors":[{"className":"...PriceCache","identityHashCode":149928006,
//	      "lockedStackDepth":2,"lockedStackFrame":{...}}],
//	    "lockedSynchronizers":[{"className":"java.util.concurrent.locks.ReentrantLock$NonfairSync",
//	      "identityHashCode":713338599}],
//	    "lockInfo":{"className":"...AuditLog","identityHashCode":1159190947}}]}
//	Boot 3.x: the same properties sorted by name, nulls left out (its
//	  endpoint ObjectMapper).
//	Boot 1.x, GET /dump: the bare array [{"threadName": ...}, ...]; on Java 8
//	  without daemon, priority and the stack elements' module and loader;
//	  snake_case where the service's Jackson names so ("thread_name",
//	  "lock_info", "lock_owner_name": spring-boot-admin#235's paste).
//	lockInfo not written (a serializer that leaves objects out): the wait
//	  is read from lockName, "class@hash" as LockInfo.toString prints it.
//
// Locks: lockInfo is what the thread waits for, after its first frame;
// its kind comes from the state and that frame, as jstack prints it (Object.wait:
// waiting on, or waiting to re-lock when BLOCKED; BLOCKED: waiting to lock;
// else parking to wait for), with lockOwnerName as its owner. lockedMonitors
// are held at their lockedStackDepth (a depth outside the stack, or a wait
// without frames, is listed after the stack: Frame -1); lockedSynchronizers
// are ownable synchronizers. Addresses are the identity hash codes in hex, as the
// Actuator's text form prints them ("<2a84aee7>"), so both forms of one
// dump name the same locks. Counts and times (blockedCount, waitedTime),
// inNative and suspended have no place in the model and are not kept.

// claimActuatorJSON reports whether head starts an Actuator JSON dump:
// {"threads": [ ... or a bare array whose first object has ThreadInfo
// properties.
func claimActuatorJSON(head []byte) bool {
	i := skipSpace(head, 0)
	if i >= len(head) {
		return false
	}
	switch head[i] {
	case '{':
		i = skipSpace(head, i+1)
		if !bytes.HasPrefix(head[i:], []byte(`"threads"`)) {
			return false
		}
		i = skipSpace(head, i+len(`"threads"`))
		if i >= len(head) || head[i] != ':' {
			return false
		}
		i = skipSpace(head, i+1)
		return i < len(head) && head[i] == '['
	case '[':
		i = skipSpace(head, i+1)
		return i < len(head) && head[i] == '{' &&
			(bytes.Contains(head, []byte(`"threadName"`)) || bytes.Contains(head, []byte(`"threadId"`)) ||
				bytes.Contains(head, []byte(`"thread_name"`)) || bytes.Contains(head, []byte(`"thread_id"`)))
	}
	return false
}

type actuatorThread struct {
	ThreadName          *string           `json:"threadName"`
	LockName            *string           `json:"lockName"` // "class@hash": the wait when lockInfo is not written
	ThreadID            *int64            `json:"threadId"`
	ThreadState         string            `json:"threadState"`
	Daemon              bool              `json:"daemon"`
	Priority            int               `json:"priority"`
	LockInfo            *actuatorLock     `json:"lockInfo"`
	LockOwnerID         int64             `json:"lockOwnerId"`
	LockOwnerName       *string           `json:"lockOwnerName"`
	StackTrace          []actuatorFrame   `json:"stackTrace"`
	LockedMonitors      []actuatorMonitor `json:"lockedMonitors"`
	LockedSynchronizers []actuatorLock    `json:"lockedSynchronizers"`
}

type actuatorLock struct {
	ClassName        string `json:"className"`
	IdentityHashCode int64  `json:"identityHashCode"`
}

type actuatorMonitor struct {
	actuatorLock
	LockedStackDepth int `json:"lockedStackDepth"`
}

type actuatorFrame struct {
	ModuleName    *string `json:"moduleName"`
	ModuleVersion *string `json:"moduleVersion"`
	ClassName     string  `json:"className"`
	MethodName    string  `json:"methodName"`
	FileName      *string `json:"fileName"`
	LineNumber    int     `json:"lineNumber"`
	NativeMethod  bool    `json:"nativeMethod"`
}

// parseActuatorJSON reads an Actuator JSON thread dump: one dump. The
// threads are decoded one at a time, so that an element that is not a
// thread is skipped with its line. A syntax error is a *SyntaxError with
// its line; JSON of another shape is errUnrecognized.
func parseActuatorJSON(name string, data []byte, in *interner) ([]*Dump, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	bad := func(err error) error {
		line := jsonErrorLine(data, err)
		if line == 0 {
			line = lineAt(dec.InputOffset())
		}
		return &SyntaxError{File: name, Line: line, Msg: "Spring Boot Actuator JSON thread dump: " + err.Error()}
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, bad(err)
	}
	if tok == json.Delim('{') {
		// {"threads": [...]} (and any other member, passed over)
		found := false
		for dec.More() && !found {
			key, err := dec.Token()
			if err != nil {
				return nil, bad(err)
			}
			if key == "threads" {
				found = true
				break
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, bad(err)
			}
		}
		if !found {
			return nil, errUnrecognized
		}
		if tok, err = dec.Token(); err != nil {
			return nil, bad(err)
		}
	}
	if tok != json.Delim('[') {
		return nil, errUnrecognized
	}
	d := &Dump{Format: FormatActuatorJSON, Source: Source{File: name}}
	// A service whose Jackson writes snake_case (Boot 1.x with
	// spring.jackson.property-naming-strategy=SNAKE_CASE: "thread_name",
	// "lock_owner_name", "lock_info", "class_name"): each thread's keys are
	// turned to camelCase before it is read, the same properties.
	snake := bytes.Contains(data[:min(len(data), 1<<16)], []byte(`"thread_name"`))
	for i := 0; dec.More(); i++ {
		line := lineAt(dec.InputOffset())
		var at actuatorThread
		if snake {
			var raw any
			if err := dec.Decode(&raw); err != nil {
				return nil, bad(err)
			}
			b, err := json.Marshal(camelKeys(raw))
			if err == nil {
				err = json.Unmarshal(b, &at)
			}
			if err != nil {
				return nil, bad(err)
			}
		} else if err := dec.Decode(&at); err != nil {
			return nil, bad(err)
		}
		if at.ThreadName == nil && at.ThreadID == nil {
			d.Skipped = append(d.Skipped, Skipped{Line: line, Reason: fmt.Sprintf("element %d of threads has neither threadName nor threadId", i)})
			continue
		}
		d.Threads = append(d.Threads, actuatorToThread(&at, in))
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return nil, bad(err)
	}
	return []*Dump{d}, nil
}

// jsonErrorLine returns the 1-based line of a JSON syntax or type error; 0
// if the error has no offset.
func jsonErrorLine(data []byte, err error) int {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if off < 0 {
		return 0
	}
	return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n"))
}

func actuatorToThread(at *actuatorThread, in *interner) *Thread {
	t := &Thread{
		State:  in.str(at.ThreadState),
		JVM:    &JVM{Daemon: at.Daemon, Priority: at.Priority},
		Weight: 1,
	}
	if at.ThreadName != nil {
		t.JVM.Name = in.str(*at.ThreadName)
	}
	if at.ThreadID != nil {
		t.ID = *at.ThreadID
	}
	for i := range at.StackTrace {
		t.Frames = append(t.Frames, actuatorFrameOf(&at.StackTrace[i], in))
	}
	if at.LockInfo == nil && at.LockName != nil {
		// ThreadInfo.getLockName() is LockInfo.toString(): "class@hash".
		if c, h, ok := strings.Cut(*at.LockName, "@"); ok && c != "" {
			if n, err := strconv.ParseUint(h, 16, 32); err == nil {
				at.LockInfo = &actuatorLock{ClassName: c, IdentityHashCode: int64(n)}
			}
		}
	}
	if at.LockInfo != nil {
		frame := 0
		if len(t.Frames) == 0 {
			frame = -1 // no frame to follow: listed after the stack
		}
		l := actuatorLockOf(waitKind(at), at.LockInfo, frame, in)
		if at.LockOwnerName != nil && at.LockOwnerID != -1 {
			l.Owner, l.OwnerID = in.str(*at.LockOwnerName), at.LockOwnerID
		}
		t.JVM.Locks = append(t.JVM.Locks, l)
	}
	// Monitors in frame order, as a text dump lists them.
	for depth := 0; depth < len(at.StackTrace); depth++ {
		for i := range at.LockedMonitors {
			if m := &at.LockedMonitors[i]; m.LockedStackDepth == depth {
				t.JVM.Locks = append(t.JVM.Locks, actuatorLockOf(LockHeld, &m.actuatorLock, depth, in))
			}
		}
	}
	for i := range at.LockedMonitors {
		if m := &at.LockedMonitors[i]; m.LockedStackDepth < 0 || m.LockedStackDepth >= len(at.StackTrace) {
			t.JVM.Locks = append(t.JVM.Locks, actuatorLockOf(LockHeld, &m.actuatorLock, -1, in)) // a depth outside the stack
		}
	}
	for i := range at.LockedSynchronizers {
		t.JVM.Locks = append(t.JVM.Locks, actuatorLockOf(LockOwnable, &at.LockedSynchronizers[i], -1, in))
	}
	if len(t.Frames) == 0 {
		t.NoStack = true
	}
	return t
}

// waitKind is the kind of the lock a thread waits for (its lockInfo).
func waitKind(at *actuatorThread) LockKind {
	inWait := len(at.StackTrace) > 0 && at.StackTrace[0].ClassName == "java.lang.Object" && at.StackTrace[0].MethodName == "wait"
	switch {
	case inWait && at.ThreadState == "BLOCKED":
		return LockReLocking
	case inWait:
		return LockWaitingOn
	case at.ThreadState == "BLOCKED":
		return LockWaitingTo
	}
	return LockParking
}

func actuatorLockOf(kind LockKind, l *actuatorLock, frame int, in *interner) Lock {
	return Lock{
		Kind:    kind,
		Class:   in.str(l.ClassName),
		Address: in.str(strconv.FormatUint(uint64(uint32(l.IdentityHashCode)), 16)),
		Frame:   frame,
	}
}

// actuatorFrameOf makes the frame StackTraceElement.toString would print,
// as the text form parses it: "java.base@17.0.15/java.lang.Thread.sleep(Native Method)".
func actuatorFrameOf(f *actuatorFrame, in *interner) *Frame {
	var module, file, note string
	if f.ModuleName != nil && *f.ModuleName != "" {
		module = *f.ModuleName
		if f.ModuleVersion != nil && *f.ModuleVersion != "" {
			module += "@" + *f.ModuleVersion
		}
	}
	line := 0
	switch {
	case f.NativeMethod:
		note = "Native Method"
	case f.FileName == nil:
		note = "Unknown Source"
	default:
		file = *f.FileName
		if f.LineNumber > 0 {
			line = f.LineNumber
		}
	}
	return in.frame(in.str(f.ClassName+"."+f.MethodName), in.str(file), line, in.str(module), in.str(note))
}

// camelKeys turns the object keys of a decoded JSON value from snake_case
// to camelCase ("lock_owner_name" → "lockOwnerName"), recursively.
func camelKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			var b strings.Builder
			up := false
			for _, r := range k {
				switch {
				case r == '_':
					up = true
				case up:
					b.WriteString(strings.ToUpper(string(r)))
					up = false
				default:
					b.WriteRune(r)
				}
			}
			out[b.String()] = camelKeys(e)
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = camelKeys(e)
		}
		return x
	}
	return v
}
