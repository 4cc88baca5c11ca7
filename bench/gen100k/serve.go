package main

import (
	"fmt"
	"log"
	"math"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"runtime/metrics"

	"github.com/dumpdiff/dumpdiff/handler"
)

// serve makes this process the target of bench/capture-cost.sh: the
// goroutines started by main, net/http/pprof (and package handler when
// asked) on 127.0.0.1, and /stw, which reports the stops of the world the
// process has had so far, from its own runtime/metrics:
//
//	goroutines=100001 other_count=12 other_s=2.613 gc_count=3 gc_s=0.0012
//
// "other" is /sched/pauses/total/other:seconds, the stops that are not the
// garbage collector's: runtime.Stack(buf, true) (pprof's debug=2), the
// goroutine profile's short stops (debug=0 and 1). The seconds are summed
// from the histogram's buckets (each counted at its midpoint; the buckets
// are a few percent wide).
func serve(addrFile string, withHandler bool) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	if withHandler {
		mux.Handle(handler.Path, handler.New())
	}
	mux.HandleFunc("/stw", func(w http.ResponseWriter, r *http.Request) {
		other, gc := pauses("/sched/pauses/total/other:seconds"), pauses("/sched/pauses/total/gc:seconds")
		fmt.Fprintf(w, "goroutines=%d other_count=%d other_s=%.4f gc_count=%d gc_s=%.4f\n",
			runtime.NumGoroutine(), other.Count, other.Seconds, gc.Count, gc.Seconds)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(addrFile+".tmp", []byte(ln.Addr().String()), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(addrFile+".tmp", addrFile); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.Serve(ln, mux))
}

type pauseSum struct {
	Count   uint64
	Seconds float64
}

func pauses(name string) pauseSum {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return pauseSum{}
	}
	h := s[0].Value.Float64Histogram()
	var p pauseSum
	for i, c := range h.Counts {
		if c == 0 {
			continue
		}
		lo, hi := h.Buckets[i], h.Buckets[i+1]
		mid := (lo + hi) / 2
		switch {
		case math.IsInf(lo, -1):
			mid = hi
		case math.IsInf(hi, 1):
			mid = lo
		}
		p.Count += c
		p.Seconds += float64(c) * mid
	}
	return p
}
