package analyze

import (
	"strings"

	"github.com/dumpdiff/dumpdiff/parse"
)

// entryPoint returns where a thread's work enters the application: from
// the culprit (the first application frame from the top) down through the
// application frames, to the last one before the server or framework that
// called it (a servlet's doGet, a controller method, a Go handler under
// its middleware). Library frames between application frames (collections,
// Spring AOP proxies, sync.Once) are passed over; dispatcher frames (servlet
// containers, executors, reflection, net/http, gRPC) end the walk, and
// generated frames ($$Lambda, CGLIB) are never the entry. For Go, the
// creator is added when it is application code and not the entry itself:
// "main.handleSearch.func1 (main.go:40) ← main.handleSearch". A health,
// readiness or liveness check anywhere in the stack is the entry (probe
// true), even when its frame is a framework's (Spring's
// DataSourceHealthIndicator). "" when the stack has no application frame.
//
// Once per distinct stack (the builder caches it): one pass over the frames.
func entryPoint(rt parse.Runtime, t *parse.Thread) (entry string, probe bool) {
	for i := len(t.Frames) - 1; i >= 0; i-- {
		if f := t.Frames[i]; isProbeFrame(f.Func) {
			return FrameString(f), true
		}
	}
	if rt == parse.RuntimeGo && t.CreatedBy != nil && isProbeFrame(t.CreatedBy.Func) {
		return t.CreatedBy.Func, true
	}
	// last is the deepest application frame of the walk; for Go, named
	// functions win over closures (middleware is usually a closure around
	// the handler: main.logging.func1 calls main.(*server).handleItems).
	var last, lastAny *parse.Frame
	for _, f := range t.Frames {
		switch {
		case isAppFrame(rt, f):
			if isGeneratedFrame(f.Func) {
				continue
			}
			lastAny = f
			if rt != parse.RuntimeGo || !isGoClosure(f.Func) {
				last = f
			}
			continue
		case lastAny == nil:
			continue // above the culprit: the library it waits in
		case isDispatcher(rt, f.Func):
		default:
			continue // a library between application frames
		}
		break
	}
	if last == nil {
		last = lastAny
	}
	creatorApp := rt == parse.RuntimeGo && t.CreatedBy != nil && isAppFrame(rt, &parse.Frame{Func: t.CreatedBy.Func})
	if last == nil {
		if creatorApp {
			return "created by " + t.CreatedBy.Func, false
		}
		return "", false
	}
	entry = FrameString(last)
	if creatorApp && t.CreatedBy.Func != last.Func && !strings.HasPrefix(last.Func, t.CreatedBy.Func+".") {
		entry += " ← " + t.CreatedBy.Func
	}
	return entry, false
}

// dispatchers are the frames that call into the application: below them
// the thread belongs to a server, an executor or a framework.
// Not a [roles] key: it names a finding's entry line, no verdict.
var dispatchers = map[parse.Runtime][]string{
	parse.RuntimeJVM: {"javax.servlet.", "jakarta.servlet.", "org.apache.catalina.", "org.apache.coyote.", "org.apache.tomcat.",
		"org.springframework.web.", "org.springframework.scheduling.", "org.eclipse.jetty.", "io.undertow.", "io.netty.", "reactor.",
		"io.grpc.", "java.util.concurrent.", "java.lang.Thread.run", "java.lang.VirtualThread.", "java.lang.reflect.",
		"jdk.internal.reflect.", "sun.reflect.", "org.junit.", "java.util.TimerThread.", "jdk.internal.vm.Continuation."},
	parse.RuntimeGo: {"net/http.", "google.golang.org/grpc", "golang.org/x/net/http2", "runtime.", "reflect.", "testing.",
		"github.com/gin-gonic/gin", "github.com/labstack/echo", "github.com/go-chi/chi", "github.com/gorilla/mux", "github.com/valyala/fasthttp",
		"github.com/gofiber/fiber"},
}

func isDispatcher(rt parse.Runtime, fn string) bool {
	for _, p := range dispatchers[rt] {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// isGoClosure reports whether fn is a Go function literal:
// "main.serve.labeled.func1", "main.(*s).run.func2.1".
func isGoClosure(fn string) bool {
	i := strings.LastIndex(fn, ".func")
	if i < 0 {
		return false
	}
	for _, c := range fn[i+len(".func"):] {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}

// isGeneratedFrame: frames the JVM or a framework generates, which no one
// wrote: lambdas' forms, CGLIB and JDK proxies.
func isGeneratedFrame(fn string) bool {
	return strings.Contains(fn, "$$Lambda") || strings.Contains(fn, "$$SpringCGLIB$$") ||
		strings.Contains(fn, "$$EnhancerBy") || strings.HasPrefix(fn, "jdk.proxy") || strings.Contains(fn, ".$Proxy")
}

// probeWords mark a health, readiness or liveness check in a function name,
// as a whole word (case-insensitive, ending where a lower-case letter does
// not follow: HealthServlet, doHealthCheck, handleHealthz, readyz; not
// Healthcare): a load balancer or an orchestrator calls these, and when
// they wait the instance is taken out.
// Not a [roles] key: words of a convention (Kubernetes' and Spring's probe
// names), not one team's frames.
var probeWords = []string{"healthz", "health", "readiness", "liveness", "readyz", "livez"}

func isProbeFrame(fn string) bool {
	// Only the last element (type and method), not the package path: a
	// module named "healthcare" is not a probe.
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		fn = fn[i+1:]
	}
	// JVM: drop the package, keep Class.method.
	if i := strings.LastIndexByte(fn, '.'); i >= 0 {
		if j := strings.LastIndexByte(fn[:i], '.'); j >= 0 && !strings.Contains(fn[j:i], "(") {
			fn = fn[j+1:]
		}
	}
	lower := strings.ToLower(fn)
	for _, w := range probeWords {
		for off := 0; ; {
			i := strings.Index(lower[off:], w)
			if i < 0 {
				break
			}
			end := off + i + len(w)
			if end == len(fn) || fn[end] < 'a' || fn[end] > 'z' {
				return true
			}
			off = end
		}
	}
	return false
}
