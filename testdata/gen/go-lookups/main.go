// Command go-lookups looks names up in loops, with Go's own resolver and
// with the C library's (cgo), at a DNS server it runs on 127.0.0.1:53;
// gen.sh runs it in a mount namespace whose resolv.conf names only
// 127.0.0.1 (options timeout:30 attempts:5), so no name leaves the
// machine. It writes its own debug=2 goroutine dumps at 65, 70 and 75 s
// (the runtime prints a wait in minutes from one minute, dated at a
// garbage collection after the goroutine blocked: churn keeps it
// collecting) into -out as 1.txt, 2.txt, 3.txt.
//
// stuck: the DNS server receives and never answers: each lookup waits
// up to the resolver's 30 s × 5 attempts.
//
// healthy: it answers every A query with 127.0.0.1 at once; the loops
// look up every 500 ms.
package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"
)

// dnsServer receives queries on 127.0.0.1:53 and, when answer, replies
// with one A record 127.0.0.1 for the question's name.
type dnsServer struct {
	conn   *net.UDPConn
	answer bool
}

func (s *dnsServer) serve() {
	buf := make([]byte, 512)
	for {
		n, from, err := s.conn.ReadFromUDP(buf)
		if err != nil {
			return
		}
		if s.answer && n >= 12 {
			s.conn.WriteToUDP(reply(buf[:n]), from)
		}
	}
}

// reply is q with the answer bit set and one A record pointing at its
// question's name (a compression pointer to offset 12).
func reply(q []byte) []byte {
	r := append([]byte(nil), q...)
	r[2], r[3] = 0x81, 0x80
	binary.BigEndian.PutUint16(r[6:], 1)
	binary.BigEndian.PutUint16(r[8:], 0)
	binary.BigEndian.PutUint16(r[10:], 0)
	if binary.BigEndian.Uint16(q[len(q)-4:]) != 1 { // not an A question: no answer record
		binary.BigEndian.PutUint16(r[6:], 0)
		return r
	}
	return append(r, 0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1)
}

// refresh looks name up for ever with r, every 500 ms.
func refresh(r *net.Resolver, name string) {
	for {
		lookup(r, name)
		time.Sleep(500 * time.Millisecond)
	}
}

func lookup(r *net.Resolver, name string) []string {
	addrs, _ := r.LookupHost(context.Background(), name)
	return addrs
}

// churn allocates 64 KiB a millisecond and drops it every 64: the
// collector runs a few times a second, as in a service.
func churn() {
	var keep [][]byte
	for {
		keep = append(keep, make([]byte, 1<<16))
		if len(keep) > 64 {
			keep = nil
		}
		time.Sleep(time.Millisecond)
	}
}

func main() {
	mode := flag.String("mode", "stuck", "stuck or healthy")
	out := flag.String("out", ".", "folder for 1.txt, 2.txt, 3.txt")
	flag.Parse()
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 53})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go (&dnsServer{conn: conn, answer: *mode == "healthy"}).serve()
	pure := &net.Resolver{PreferGo: true}
	go refresh(pure, "db.internal")
	go refresh(pure, "cache.internal")
	go refresh(net.DefaultResolver, "queue.internal") // cgo: GODEBUG=netdns=cgo
	begin := time.Now()
	// The runtime dates a goroutine's wait (the minutes debug=2 prints)
	// at a collection after it blocked; a service allocates and collects
	// as it runs, this program hardly does: churn stands for that.
	go churn()
	for i := 1; i <= 3; i++ {
		time.Sleep(time.Until(begin.Add(time.Duration(60+5*i) * time.Second)))
		f, err := os.Create(filepath.Join(*out, fmt.Sprintf("%d.txt", i)))
		if err != nil {
			panic(err)
		}
		if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
			panic(err)
		}
		f.Close()
	}
}
