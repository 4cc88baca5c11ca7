// Command redis is the program of testdata/libs/go-redis: a go-redis v9
// client with a pool of 3 connections, all taken by blocking BLPOPs, and more
// commands queued for a pool turn.
//
//	redis -addr-file F -redis 127.0.0.1:PORT
//
// What it runs, all on 127.0.0.1:
//
//   - redis.NewClient with PoolSize 3 and PoolTimeout 10 minutes (so that
//     the waiters keep waiting instead of failing after the default
//     ReadTimeout+1s).
//   - main.startConsumers starts 3 main.consume goroutines running
//     BLPOP jobs:empty 0 (no timeout) on a key nobody pushes to; each holds a
//     connection and waits in a socket read. main waits until
//     client.PoolStats().TotalConns is 3.
//   - main.runCommands then starts 12 main.get goroutines (GET cache:I);
//     they wait for a pool turn.
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

	"github.com/redis/go-redis/v9"
)

// consume waits for the next job on the queue, for ever.
func consume(ctx context.Context, rdb *redis.Client) {
	if _, err := rdb.BLPop(ctx, 0, "jobs:empty").Result(); err != nil {
		log.Printf("consume: %v", err)
	}
}

// get reads one cache key.
func get(ctx context.Context, rdb *redis.Client, key string) {
	if _, err := rdb.Get(ctx, key).Result(); err != nil && !errors.Is(err, redis.Nil) {
		log.Printf("get %s: %v", key, err)
	}
}

func startConsumers(rdb *redis.Client, n int) {
	for i := 0; i < n; i++ {
		go consume(context.Background(), rdb)
	}
}

func runCommands(rdb *redis.Client, n int) {
	for i := 0; i < n; i++ {
		go get(context.Background(), rdb, fmt.Sprintf("cache:%d", i))
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the pprof address to this file")
	addr := flag.String("redis", "", "redis-server address (127.0.0.1:PORT)")
	flag.Parse()
	if *addrFile == "" || *addr == "" {
		log.Fatal("usage: redis -addr-file FILE -redis 127.0.0.1:PORT")
	}

	rdb := redis.NewClient(&redis.Options{
		Addr:        *addr,
		PoolSize:    3,
		PoolTimeout: 10 * time.Minute,
	})
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		log.Fatal(err)
	}
	startConsumers(rdb, 3)
	for deadline := time.Now().Add(20 * time.Second); rdb.PoolStats().TotalConns < 3 || rdb.PoolStats().IdleConns > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			log.Fatalf("consumers did not take 3 connections: %+v", rdb.PoolStats())
		}
	}
	runCommands(rdb, 12)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.Serve(ln, nil))
}
