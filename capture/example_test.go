package capture_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/dumpdiff/dumpdiff/capture"
)

// How a command wires a capture: Ctrl-C and SIGTERM cancel the context, Run
// keeps what it has, writes the manifest and says what was kept.
func ExampleRun() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	headers := http.Header{}
	headers.Set("Authorization", "Bearer "+os.Getenv("PPROF_TOKEN")) // never recorded
	plan := capture.Plan{
		Targets: []capture.Target{
			capture.PprofTarget("api", "http://127.0.0.1:6060"),
			capture.JVMTarget("", 4242),
			capture.ExecTarget("pod", "kubectl exec pod-0 -- jcmd 1 Thread.print -l"),
		},
		Load:    "hey -z 30s http://127.0.0.1:8080/", // before, during-1.. every 5s, after
		Every:   5 * time.Second,
		OutDir:  "dumps",
		Headers: headers,
	}
	m, err := capture.Run(ctx, plan, capture.NewProgress(os.Stderr))
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture:", err)
	}
	if m != nil {
		fmt.Printf("%d moments, %d failed files\n", len(m.Moments), m.Failed())
	}
}

// Reading a capture folder back, in moment order, primary dumps only.
func ExampleReadManifest() {
	m, err := capture.ReadManifest("dumps")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	for _, t := range m.Targets {
		for _, f := range m.Dumps(t.Name) {
			fmt.Println(t.Name, f.Moment, f.Kind, f.Path)
		}
	}
}
