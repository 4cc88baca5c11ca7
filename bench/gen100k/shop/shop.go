// Package shop is the make-believe service whose goroutines fill the 100k
// dump: request handlers waiting for a connection pool, workers selecting on
// job queues, cache readers behind a locked shard, pollers sleeping, socket
// readers in IO wait. Every chain goes through a few middleware layers whose
// count varies, so stacks are 5 to 31 frames deep.
package shop

import (
	"net"
	"sync"
	"time"
)

// Service holds the primitives the goroutines block on; the dump generator
// keeps it reachable until the dump is written.
type Service struct {
	Pool   *ConnPool
	Jobs   chan Job
	Quit   chan struct{}
	Events chan Event
	Cache  *Cache
	Index  *Index
	Batch  *Batch
}

// Job is a unit of background work.
type Job struct{ ID int }

// Event is published by handlers.
type Event struct{ Kind string }

// ConnPool hands out database connections; it has none to give.
type ConnPool struct{ slots chan struct{} }

// Cache is a sharded cache whose shards are all locked by a slow writer.
type Cache struct{ shards [16]sync.Mutex }

// Index is rebuilt under a write lock while readers wait.
type Index struct{ mu sync.RWMutex }

// Batch collects items until a flush that never comes.
type Batch struct {
	mu    sync.Mutex
	cond  *sync.Cond
	ready bool
	wg    sync.WaitGroup
}

// NewService returns a service whose every primitive is blocked: the pool is
// empty, the cache shards and the index are locked, the batch never flushes.
func NewService() *Service {
	s := &Service{
		Pool:   &ConnPool{slots: make(chan struct{})},
		Jobs:   make(chan Job),
		Quit:   make(chan struct{}),
		Events: make(chan Event),
		Cache:  &Cache{},
		Index:  &Index{},
		Batch:  &Batch{},
	}
	for i := range s.Cache.shards {
		s.Cache.shards[i].Lock()
	}
	s.Index.mu.Lock()
	s.Batch.cond = sync.NewCond(&s.Batch.mu)
	s.Batch.wg.Add(1)
	return s
}

// Acquire waits for a free connection (chan receive).
//
//go:noinline
func (p *ConnPool) Acquire(tenant int) struct{} {
	return <-p.slots
}

// QueryOrders runs a query on a pooled connection.
//
//go:noinline
func (s *Service) QueryOrders(tenant, page int) int {
	s.Pool.Acquire(tenant)
	return page
}

// RunWorker takes jobs until told to quit (select).
//
//go:noinline
func (s *Service) RunWorker(id int) {
	for {
		select {
		case j := <-s.Jobs:
			_ = j
		case <-s.Quit:
			return
		}
	}
}

// Publish sends an event nobody consumes (chan send).
//
//go:noinline
func (s *Service) Publish(kind string) {
	s.Events <- Event{Kind: kind}
}

// Get reads key from its shard (sync.Mutex.Lock).
//
//go:noinline
func (c *Cache) Get(key int) int {
	m := &c.shards[key%len(c.shards)]
	m.Lock()
	defer m.Unlock()
	return key
}

// Lookup reads the index (sync.RWMutex.RLock).
//
//go:noinline
func (ix *Index) Lookup(term int) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return term
}

// AwaitFlush waits for the batch to be flushed (sync.Cond.Wait).
//
//go:noinline
func (b *Batch) AwaitFlush() {
	b.mu.Lock()
	for !b.ready {
		b.cond.Wait()
	}
	b.mu.Unlock()
}

// AwaitAll waits for the batch's writers (sync.WaitGroup.Wait).
//
//go:noinline
func (b *Batch) AwaitAll() { b.wg.Wait() }

// PollUpstream polls every minute (sleep).
//
//go:noinline
func PollUpstream(every time.Duration) {
	for {
		time.Sleep(every)
	}
}

// ReadFrames reads a peer's frames until it hangs up (IO wait).
//
//go:noinline
func ReadFrames(c net.Conn) error {
	buf := make([]byte, 4096)
	for {
		if _, err := c.Read(buf); err != nil {
			return err
		}
	}
}
