package parse

import (
	"encoding/json"
	"time"
)

// threadJSON is a Thread as `dumpdiff parse --format json` prints it: one
// flat object with every field, in the model's order from before the JVM
// and rare Go fields went behind pointers, so that the output did not
// change shape when the struct did.
type threadJSON struct {
	ID             int64
	Name           string
	NativeID       string
	TID            string
	Daemon         bool
	Priority       int
	OSPriority     int
	State          string
	StateDetail    string
	WaitMinutes    int
	CPU            time.Duration
	Elapsed        time.Duration
	Allocated      int64
	Flags          []string
	WaitAddr       string
	Bubble         int64
	Labels         map[string]string
	Frames         []*Frame
	FramesElided   bool
	ElidedCount    int
	NoStack        bool
	Locks          []Lock
	CreatedBy      *Creator
	Ancestors      []Ancestor
	Carrier        string
	MountedVirtual int64
	Virtual        bool
	Container      string
	Weight         int
	Line           int
}

// MarshalJSON writes t as one flat object (threadJSON).
func (t *Thread) MarshalJSON() ([]byte, error) {
	j, x := t.Java(), t.Extra()
	return json.Marshal(threadJSON{
		ID: t.ID, Name: t.Name(), NativeID: j.NativeID, TID: j.TID, Daemon: j.Daemon, Priority: j.Priority,
		OSPriority: j.OSPriority, State: t.State, StateDetail: j.StateDetail, WaitMinutes: t.WaitMinutes,
		CPU: j.CPU, Elapsed: j.Elapsed, Allocated: j.Allocated, Flags: t.Flags(), WaitAddr: t.WaitAddr,
		Bubble: x.Bubble, Labels: t.Labels, Frames: t.Frames, FramesElided: x.FramesElided,
		ElidedCount: x.ElidedCount, NoStack: t.NoStack, Locks: t.Locks(), CreatedBy: t.CreatedBy,
		Ancestors: x.Ancestors, Carrier: j.Carrier, MountedVirtual: j.MountedVirtual, Virtual: j.Virtual,
		Container: j.Container, Weight: t.Weight, Line: t.Line,
	})
}
