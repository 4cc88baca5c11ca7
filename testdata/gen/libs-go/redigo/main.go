// Command redigo is the program of testdata/libs/go-redigo: a redigo
// (github.com/gomodule/redigo) redis.Pool with MaxActive 3 and Wait true,
// all 3 connections taken by blocking BLPOPs, and more callers waiting for a
// connection.
//
//	redigo -addr-file F -redis 127.0.0.1:PORT
//
// What it runs, all on 127.0.0.1:
//
//   - a redis.Pool{MaxActive: 3, MaxIdle: 3, Wait: true} dialing the
//     redis-server.
//   - main.startConsumers starts 3 main.consume goroutines running
//     BLPOP jobs:empty 0 (no timeout) on a key nobody pushes to; each holds a
//     connection and waits in a socket read. main waits until
//     pool.Stats().ActiveCount is 3 with no idle connection.
//   - main.runCommands then starts 10 main.get goroutines (GET cache:I);
//     they wait in pool.GetContext for a connection.
//   - net/http/pprof on http.DefaultServeMux, served by main.
//
// The address of the pprof server is written to F once every goroutine is
// started.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"time"

	"github.com/gomodule/redigo/redis"
)

// consume waits for the next job on the queue, for ever.
func consume(ctx context.Context, pool *redis.Pool) {
	c, err := pool.GetContext(ctx)
	if err != nil {
		log.Printf("consume: %v", err)
		return
	}
	defer c.Close()
	if _, err := redis.Strings(c.Do("BLPOP", "jobs:empty", 0)); err != nil {
		log.Printf("consume: %v", err)
	}
}

// get reads one cache key.
func get(ctx context.Context, pool *redis.Pool, key string) {
	c, err := pool.GetContext(ctx)
	if err != nil {
		log.Printf("get %s: %v", key, err)
		return
	}
	defer c.Close()
	if _, err := redis.String(c.Do("GET", key)); err != nil && !errors.Is(err, redis.ErrNil) {
		log.Printf("get %s: %v", key, err)
	}
}

func startConsumers(pool *redis.Pool, n int) {
	for i := 0; i < n; i++ {
		go consume(context.Background(), pool)
	}
}

func runCommands(pool *redis.Pool, n int) {
	for i := 0; i < n; i++ {
		go get(context.Background(), pool, fmt.Sprintf("cache:%d", i))
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the pprof address to this file")
	addr := flag.String("redis", "", "redis-server address (127.0.0.1:PORT)")
	flag.Parse()
	if *addrFile == "" || *addr == "" {
		log.Fatal("usage: redigo -addr-file FILE -redis 127.0.0.1:PORT")
	}

	pool := &redis.Pool{
		MaxActive: 3,
		MaxIdle:   3,
		Wait:      true,
		Dial:      func() (redis.Conn, error) { return redis.Dial("tcp", *addr) },
	}
	c := pool.Get()
	if _, err := c.Do("PING"); err != nil {
		log.Fatal(err)
	}
	c.Close()

	startConsumers(pool, 3)
	for deadline := time.Now().Add(20 * time.Second); pool.Stats().ActiveCount < 3 || pool.Stats().IdleCount > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			log.Fatalf("consumers did not take 3 connections: %+v", pool.Stats())
		}
	}
	runCommands(pool, 10)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.Serve(ln, nil))
}
