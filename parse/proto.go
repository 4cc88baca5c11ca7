package parse

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// Go goroutine profiles in the pprof protocol buffer form
// (/debug/pprof/goroutine?debug=0, pprof.Lookup("goroutine").WriteTo(w, 0)),
// including the goroutineleak profile of Go 1.26+. Parse has already undone
// the gzip layer when claimProto sees the head.

// protoFieldWire gives, for each field number of perftools.profiles.Profile,
// the wire type Go and pprof write: 2 (length-delimited) or 0 (varint).
// Field 13 (comment) is packed (2) or, from some writers, a varint (0).
var protoFieldWire = [...]int8{
	1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, // sample_type, sample, mapping, location, function, string_table
	7: 0, 8: 0, 9: 0, 10: 0, // drop_frames, keep_frames, time_nanos, duration_nanos
	11: 2, 12: 0, 13: -1, 14: 0, // period_type, period, comment, default_sample_type
	15: 0, 16: 2, // doc_url, ...
}

// claimProto reports whether head is the start of a pprof Profile message.
// It walks the protobuf wire format over the whole head: every field must
// be a Profile field with its own wire type, the first must be a
// sample_type or period_type, and those must hold a ValueType (varint
// fields 1 and 2). Text
// (even text starting with a newline, 0x0a) fails within a few bytes: its
// bytes decode to unknown fields or wire types 1, 3-7.
func claimProto(head []byte) bool {
	// Go writes period_type (field 11, 0x5a) first, other writers sample_type (field 1, 0x0a).
	if len(head) < 4 || head[0] != 0x0a && head[0] != 0x5a {
		return false
	}
	i := 0
	for n := 0; i < len(head); n++ {
		tag, w := protoVarint(head[i:])
		if w == 0 {
			return n > 0 && len(head)-i < 10 // a varint cut by the end of head
		}
		i += w
		field, wire := tag>>3, int8(tag&7)
		if field == 0 || field >= uint64(len(protoFieldWire)) {
			return false
		}
		if want := protoFieldWire[field]; want >= 0 && want != wire || want < 0 && wire != 0 && wire != 2 {
			return false
		}
		if wire == 0 {
			_, w := protoVarint(head[i:])
			if w == 0 {
				return n > 0 && len(head)-i < 10
			}
			i += w
			continue
		}
		size, w := protoVarint(head[i:])
		if w == 0 {
			return n > 0 && len(head)-i < 10
		}
		i += w
		if (field == 1 || field == 11) && (size > 64 || !protoValueType(head[i:min(len(head), i+int(size))])) {
			return false
		}
		if size > uint64(len(head)-i) {
			return true // the field runs past the head: what was seen is a Profile
		}
		i += int(size)
	}
	return true
}

// protoValueType reports whether b is a ValueType body: varint fields 1 and 2.
func protoValueType(b []byte) bool {
	for len(b) > 0 {
		tag, w := protoVarint(b)
		if w == 0 || tag != 1<<3 && tag != 2<<3 {
			return false
		}
		b = b[w:]
		_, w = protoVarint(b)
		if w == 0 {
			return false
		}
		b = b[w:]
	}
	return true
}

// protoVarint decodes a base-128 varint; w is 0 when b holds none.
func protoVarint(b []byte) (v uint64, w int) {
	for i := 0; i < len(b) && i < 10; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// parseProto reads a goroutine profile. A profile that does not decode, or
// is not a goroutine/goroutineleak profile, is errUnrecognized when it
// could still be text, else an error naming what it is.
func parseProto(name string, data []byte, in *interner) ([]*Dump, error) {
	p, err := profile.ParseUncompressed(data)
	if err != nil {
		return nil, errUnrecognized
	}
	if err := p.CheckValid(); err != nil {
		return nil, &SyntaxError{File: name, Msg: "malformed pprof profile: " + err.Error()}
	}
	kind := ""
	if len(p.SampleType) == 0 {
		return nil, &NoDumpError{File: name, Looks: "pprof profile without sample types is not a goroutine profile"}
	}
	switch st := p.SampleType[0].Type; st {
	case "goroutine":
	case "goroutineleak":
		kind = "goroutineleak"
	default:
		return nil, &NoDumpError{File: name, Looks: fmt.Sprintf("pprof %q profile is not a goroutine profile", st)}
	}
	d := &Dump{
		Source:  Source{File: name},
		Format:  FormatGoProto,
		Kind:    kind,
		Threads: make([]*Thread, 0, len(p.Sample)),
	}
	if p.TimeNanos != 0 {
		d.Time = time.Unix(0, p.TimeNanos).UTC()
	}
	threads := make([]Thread, len(p.Sample))
	locFrames := make(map[uint64][]*Frame, len(p.Location))
	for i, s := range p.Sample {
		t := &threads[i]
		t.Weight = 1
		if len(s.Value) > 0 {
			t.Weight = int(s.Value[0])
		}
		for _, loc := range s.Location {
			fs, ok := locFrames[loc.ID]
			if !ok {
				fs = protoLocationFrames(loc, in)
				locFrames[loc.ID] = fs
				if loc.Address != 0 && len(loc.Line) > 0 {
					if d.PCFrames == nil {
						d.PCFrames = make(map[uint64][]*Frame, len(p.Location))
					}
					d.PCFrames[loc.Address] = fs
				}
			}
			t.Frames = append(t.Frames, fs...)
		}
		t.Labels = protoLabels(s, in)
		goroutineLabels(t, s, in) // CockroachDB's debug=3 (proto_debug3.go)
		d.Threads = append(d.Threads, t)
	}
	return []*Dump{d}, nil
}

// protoLocationFrames returns the frames of one location, innermost
// inlined function first (pprof's Line order); an unsymbolized location is
// one frame named by its address.
func protoLocationFrames(loc *profile.Location, in *interner) []*Frame {
	if len(loc.Line) == 0 {
		return []*Frame{in.frame(in.str("0x"+strconv.FormatUint(loc.Address, 16)), "", 0, "", "")}
	}
	fs := make([]*Frame, 0, len(loc.Line))
	for _, l := range loc.Line {
		fn, file := "", ""
		if l.Function != nil {
			fn, file = in.str(l.Function.Name), in.str(l.Function.Filename)
		}
		fs = append(fs, in.frame(fn, file, int(l.Line), "", ""))
	}
	return fs
}

// protoLabels turns string labels (several values joined by ",") and
// numeric labels (with their unit, if any) into Labels; nil if none.
func protoLabels(s *profile.Sample, in *interner) map[string]string {
	if len(s.Label) == 0 && len(s.NumLabel) == 0 {
		return nil
	}
	m := make(map[string]string, len(s.Label)+len(s.NumLabel))
	for k, vs := range s.Label {
		m[in.str(k)] = in.str(strings.Join(vs, ","))
	}
	for k, vs := range s.NumLabel {
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i] = strconv.FormatInt(v, 10)
			if u := s.NumUnit[k]; i < len(u) && u[i] != "" {
				parts[i] += " " + u[i]
			}
		}
		m[in.str(k)] = in.str(strings.Join(parts, ","))
	}
	return m
}
