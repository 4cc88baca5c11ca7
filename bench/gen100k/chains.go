package main

import (
	"net"
	"sync"
	"time"

	"dumpdiff-bench/gen100k/shop"
)

// The middleware layers a request passes through; which ones and how many
// vary per goroutine, so the dump holds many distinct stacks.

//go:noinline
func withRecover(depth, id int, next func()) {
	layer(depth-1, id, next)
}

//go:noinline
func withTracing(depth, id int, next func()) {
	layer(depth-1, id, next)
}

//go:noinline
func withAuth(depth, id int, next func()) {
	layer(depth-1, id, next)
}

//go:noinline
func withRateLimit(depth, id int, next func()) {
	layer(depth-1, id, next)
}

//go:noinline
func withTenant(depth, id int, next func()) {
	layer(depth-1, id, next)
}

// layer calls depth more layers, then next.
//
//go:noinline
func layer(depth, id int, next func()) {
	if depth <= 0 {
		next()
		return
	}
	switch (depth + id) % 5 {
	case 0:
		withRecover(depth, id, next)
	case 1:
		withTracing(depth, id, next)
	case 2:
		withAuth(depth, id, next)
	case 3:
		withRateLimit(depth, id, next)
	default:
		withTenant(depth, id, next)
	}
}

func handleRequest(s *shop.Service, id, depth int, started *sync.WaitGroup) {
	started.Done()
	layer(depth, id, func() { listOrders(s, id) })
}

//go:noinline
func listOrders(s *shop.Service, id int) {
	s.QueryOrders(id%97, id%13)
}

func startWorker(s *shop.Service, id, depth int, started *sync.WaitGroup) {
	started.Done()
	layer(depth, id, func() { s.RunWorker(id) })
}

func cacheReader(s *shop.Service, id, depth int, started *sync.WaitGroup) {
	started.Done()
	layer(depth, id, func() { s.Cache.Get(id) })
}

func indexReader(s *shop.Service, id, depth int, started *sync.WaitGroup) {
	started.Done()
	layer(depth, id, func() { searchProducts(s, id) })
}

//go:noinline
func searchProducts(s *shop.Service, id int) {
	s.Index.Lookup(id)
}

func publisher(s *shop.Service, id, depth int, started *sync.WaitGroup) {
	started.Done()
	layer(depth, id, func() { s.Publish("order.created") })
}

func batchWaiter(s *shop.Service, id, depth int, started *sync.WaitGroup) {
	started.Done()
	layer(depth, id, func() { s.Batch.AwaitFlush() })
}

func batchJoiner(s *shop.Service, id, depth int, started *sync.WaitGroup) {
	started.Done()
	layer(depth, id, func() { s.Batch.AwaitAll() })
}

func poller(id, depth int, started *sync.WaitGroup) {
	started.Done()
	layer(depth, id, func() { shop.PollUpstream(time.Minute) })
}

func serveConn(c net.Conn, depth int, started *sync.WaitGroup) {
	started.Done()
	layer(depth, depth, func() { shop.ReadFrames(c) })
}
