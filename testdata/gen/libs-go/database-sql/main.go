// Command database-sql is the program of testdata/libs/go-database-sql: a
// database/sql pool over the pgx driver (github.com/jackc/pgx/v5/stdlib)
// with 4 connections, all taken by slow queries, and more queries queued
// for a connection.
//
//	database-sql -addr-file F -dsn postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable
//
// What it runs, all on 127.0.0.1:
//
//   - sql.Open("pgx", DSN) with db.SetMaxOpenConns(4).
//   - main.startHolders starts 4 main.query goroutines running
//     SELECT pg_sleep(60); each holds a connection and waits in a socket read
//     for the server's answer. main waits until db.Stats().InUse is 4.
//   - main.runQueries then starts 20 more main.query goroutines with the
//     same query; they wait for a connection in database/sql.(*DB).conn.
//   - net/http/pprof on http.DefaultServeMux, served by main.
//
// The address of the pprof server is written to F once every goroutine is
// started.
package main

import (
	"context"
	"database/sql"
	"flag"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// query runs one slow query, with a 5-minute deadline as a request would
// have, and scans its answer.
func query(ctx context.Context, db *sql.DB) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	var s string
	if err := db.QueryRowContext(ctx, "SELECT pg_sleep(60)::text").Scan(&s); err != nil {
		log.Printf("query: %v", err)
	}
}

func startHolders(db *sql.DB, n int) {
	for i := 0; i < n; i++ {
		go query(context.Background(), db)
	}
}

func runQueries(db *sql.DB, n int) {
	for i := 0; i < n; i++ {
		go query(context.Background(), db)
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the pprof address to this file")
	dsn := flag.String("dsn", "", "PostgreSQL URL")
	flag.Parse()
	if *addrFile == "" || *dsn == "" {
		log.Fatal("usage: database-sql -addr-file FILE -dsn URL")
	}

	db, err := sql.Open("pgx", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	db.SetMaxOpenConns(4)
	if err := db.Ping(); err != nil {
		log.Fatal(err)
	}

	startHolders(db, 4)
	for deadline := time.Now().Add(20 * time.Second); db.Stats().InUse < 4; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			log.Fatalf("holders did not take 4 connections: %+v", db.Stats())
		}
	}
	runQueries(db, 20)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.Serve(ln, nil))
}
