// Command pgxpool is the program of testdata/libs/go-pgxpool: a pgxpool.Pool
// (github.com/jackc/pgx/v5/pgxpool, over puddle) with 3 connections, all
// taken by slow queries, and more queries queued in Acquire.
//
//	pgxpool -addr-file F -dsn postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable
//
// What it runs, all on 127.0.0.1:
//
//   - pgxpool.NewWithConfig with MaxConns 3.
//   - main.startHolders starts 3 main.query goroutines running
//     SELECT pg_sleep(60) through pool.QueryRow; each holds a connection and
//     waits in a socket read for the server's answer. main waits until
//     pool.Stat().AcquiredConns() is 3.
//   - main.runQueries then starts 12 more main.query goroutines with the
//     same query; they wait in pgxpool.(*Pool).Acquire.
//   - net/http/pprof on http.DefaultServeMux, served by main.
//
// The address of the pprof server is written to F once every goroutine is
// started.
package main

import (
	"context"
	"flag"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// query runs one slow query, with a 5-minute deadline as a request would
// have, and scans its answer.
func query(ctx context.Context, pool *pgxpool.Pool) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	var s string
	if err := pool.QueryRow(ctx, "SELECT pg_sleep(60)::text").Scan(&s); err != nil {
		log.Printf("query: %v", err)
	}
}

func startHolders(pool *pgxpool.Pool, n int) {
	for i := 0; i < n; i++ {
		go query(context.Background(), pool)
	}
}

func runQueries(pool *pgxpool.Pool, n int) {
	for i := 0; i < n; i++ {
		go query(context.Background(), pool)
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the pprof address to this file")
	dsn := flag.String("dsn", "", "PostgreSQL URL")
	flag.Parse()
	if *addrFile == "" || *dsn == "" {
		log.Fatal("usage: pgxpool -addr-file FILE -dsn URL")
	}

	cfg, err := pgxpool.ParseConfig(*dsn)
	if err != nil {
		log.Fatal(err)
	}
	cfg.MaxConns = 3
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		log.Fatal(err)
	}
	if err := pool.Ping(context.Background()); err != nil {
		log.Fatal(err)
	}

	startHolders(pool, 3)
	for deadline := time.Now().Add(20 * time.Second); pool.Stat().AcquiredConns() < 3; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			log.Fatalf("holders did not take 3 connections: %d acquired", pool.Stat().AcquiredConns())
		}
	}
	runQueries(pool, 12)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.Serve(ln, nil))
}
