package capture

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// actuatorBody is a Spring Boot 3 /actuator/threaddump answer to
// "Accept: application/json", in the shape of ThreadDumpEndpoint's
// ThreadDumpDescriptor: {"threads": [...]} of java.lang.management.ThreadInfo
// as Jackson serializes it (two threads of a monitor deadlock, abridged to
// the fields a ThreadInfo has).
const actuatorBody = `{
  "threads" : [ {
    "threadName" : "deadLock1",
    "threadId" : 21,
    "blockedTime" : -1,
    "blockedCount" : 1,
    "waitedTime" : -1,
    "waitedCount" : 0,
    "lockName" : "java.lang.Object@5b7e9c8d",
    "lockOwnerId" : 22,
    "lockOwnerName" : "deadLock2",
    "daemon" : false,
    "inNative" : false,
    "suspended" : false,
    "threadState" : "BLOCKED",
    "priority" : 5,
    "stackTrace" : [ {
      "classLoaderName" : "app",
      "methodName" : "run",
      "fileName" : "Deadlock.java",
      "lineNumber" : 18,
      "nativeMethod" : false,
      "className" : "com.example.Deadlock$1"
    } ],
    "lockedMonitors" : [ {
      "className" : "java.lang.Object",
      "identityHashCode" : 1234567,
      "lockedStackDepth" : 0,
      "lockedStackFrame" : {
        "classLoaderName" : "app",
        "methodName" : "run",
        "fileName" : "Deadlock.java",
        "lineNumber" : 18,
        "nativeMethod" : false,
        "className" : "com.example.Deadlock$1"
      }
    } ],
    "lockedSynchronizers" : [ ],
    "lockInfo" : {
      "className" : "java.lang.Object",
      "identityHashCode" : 1535024269
    }
  }, {
    "threadName" : "deadLock2",
    "threadId" : 22,
    "blockedTime" : -1,
    "blockedCount" : 1,
    "waitedTime" : -1,
    "waitedCount" : 0,
    "lockName" : "java.lang.Object@12d687",
    "lockOwnerId" : 21,
    "lockOwnerName" : "deadLock1",
    "daemon" : false,
    "inNative" : false,
    "suspended" : false,
    "threadState" : "BLOCKED",
    "priority" : 5,
    "stackTrace" : [ ],
    "lockedMonitors" : [ ],
    "lockedSynchronizers" : [ ],
    "lockInfo" : {
      "className" : "java.lang.Object",
      "identityHashCode" : 1234567
    }
  } ]
}`

// A real HTTP server on 127.0.0.1 at Spring's path: the endpoint is asked
// for JSON with the plan's auth header, nothing is appended to its path,
// and each moment is a .json file holding the body as served.
func TestActuatorTarget(t *testing.T) {
	t.Parallel()
	const token = "Bearer actuator-token-42"
	var mu sync.Mutex // both targets ask at once
	var paths, accepts []string
	s := newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths, accepts = append(paths, r.URL.Path), append(accepts, r.Header.Get("Accept"))
		mu.Unlock()
		if r.Header.Get("Authorization") != token {
			http.Error(w, `{"error":"Unauthorized"}`, http.StatusUnauthorized)
			return
		}
		if r.URL.Path != "/actuator/threaddump" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(actuatorBody))
	})
	if !IsActuatorURL(s.URL+"/actuator/threaddump") || IsActuatorURL(s.URL) || IsActuatorURL(s.URL+"/debug/pprof") {
		t.Error("IsActuatorURL does not tell the Actuator endpoint by its path")
	}
	dir := t.TempDir()
	m, _, err := run(t, context.Background(), Plan{
		Targets: []Target{ActuatorTarget("spring", s.URL+"/actuator/threaddump"), ActuatorTarget("root", s.URL)},
		Count:   2, Every: time.Millisecond, OutDir: dir,
		Headers: http.Header{"Authorization": {token}},
	}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkOutDir(t, dir, m)
	for _, name := range []string{"spring", "root"} {
		d := m.Dumps(name)
		if len(d) != 2 || d[0].Kind != FileActuator || d[0].Path != name+"__1.json" {
			t.Fatalf("%s dumps %+v, want 2 actuator-threads .json", name, d)
		}
		if got := readFile(t, dir, d[1].Path); got != actuatorBody {
			t.Errorf("%s differs from the body served", d[1].Path)
		}
	}
	if m.Targets[0].Kind != KindActuator || m.Targets[0].Source != s.URL+"/actuator/threaddump" {
		t.Errorf("target record %+v", m.Targets[0])
	}
	for i := range paths {
		if paths[i] != "/actuator/threaddump" || accepts[i] != "application/json" {
			t.Errorf("request %d: %s with Accept %q, want /actuator/threaddump with application/json", i, paths[i], accepts[i])
		}
	}
	if strings.Contains(readFile(t, dir, ManifestName), "actuator-token-42") {
		t.Error("the manifest holds the auth header")
	}
}

// Boot 1.x answers a top-level array; a server that answers text, a login
// page or a cut body, and one that wants authentication, fail with a line
// naming the endpoint's trouble.
func TestActuatorBodies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		status     int
		want       string // "" for a dump kept
	}{
		{"boot 1.x array", `[ {"threadName" : "main", "threadId" : 1, "threadState" : "RUNNABLE", "stackTrace" : [ ]} ]`, 200, ""},
		{"text instead of JSON", "2026-11-29 17:53:08\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n", 200, "not an Actuator JSON thread dump"},
		{"login page", "<html><form>login</form></html>", 200, "not an Actuator JSON thread dump"},
		{"other JSON", `{"status":"UP"}`, 200, `a JSON object without "threads"`},
		{"cut", actuatorBody[:len(actuatorBody)/2], 200, "truncated Actuator thread dump"},
		{"401", `{"error":"Unauthorized"}`, 401, "the Actuator endpoint needs authentication"},
		{"404", `{"error":"Not Found"}`, 404, "management.endpoints.web.exposure.include=threaddump"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newHandlerServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			})
			m, _, err := run(t, context.Background(), Plan{Targets: []Target{ActuatorTarget("a", s.URL+"/manage/threaddump")}, Count: 1}, nil)
			if tt.want == "" {
				if err != nil || len(m.Dumps("a")) != 1 {
					t.Errorf("Run: %v, dumps %+v", err, m.Files)
				}
				return
			}
			if len(m.Files) != 1 || !strings.HasPrefix(m.Files[0].Error, "a at 1: actuator threaddump: ") || !strings.Contains(m.Files[0].Error, tt.want) {
				t.Errorf("files %+v, want one error with %q", m.Files, tt.want)
			}
		})
	}
}

func TestActuatorURL(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"http://h:8080", "http://h:8080/actuator/threaddump"},
		{"h:8080/", "http://h:8080/actuator/threaddump"},
		{"http://h:8080/actuator/threaddump/?x=1", "http://h:8080/actuator/threaddump"},
		{"https://h/manage", "https://h/manage/threaddump"},
		{"https://h/manage/threaddump", "https://h/manage/threaddump"},
	} {
		if got, err := actuatorURL(tt.in); err != nil || got != tt.want {
			t.Errorf("actuatorURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
