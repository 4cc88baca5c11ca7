// Command load is the open-model load generator for the JVM fixture scenarios: it starts
// requests at a fixed arrival rate whatever the server does (a slow server does not slow the
// arrivals, as with real users), sends at most -max of them, gives each its own client
// timeout, and prints one summary line when every request has ended. It only talks to
// loopback addresses.
//
//	go run ./testdata/gen/load -url http://127.0.0.1:18080/product/%d -rate 50 -duration 20s -timeout 10s
//
// A %d in the URL is replaced by the request's sequence number.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// result is what one request ended with.
type result struct {
	status  int           // HTTP status; 0 when no response arrived
	timeout bool          // the client timeout fired first
	err     error         // any other transport error
	latency time.Duration // from start to end (response body read, or failure)
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	target := fs.String("url", "", "URL to GET; %d is replaced by the request number")
	rate := fs.Float64("rate", 10, "requests started per second")
	duration := fs.Duration("duration", 10*time.Second, "how long to keep starting requests")
	maxReqs := fs.Int("max", 2000, "upper bound on requests started")
	timeout := fs.Duration("timeout", 10*time.Second, "client timeout of each request")
	name := fs.String("name", "load", "label for the summary line")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkLoopback(*target); err != nil {
		return err
	}
	if *rate <= 0 || *duration <= 0 || *maxReqs <= 0 {
		return errors.New("-rate, -duration and -max must be positive")
	}

	client := &http.Client{Transport: &http.Transport{
		MaxIdleConnsPerHost: 64,
		DialContext:         (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
	}}
	interval := time.Duration(float64(time.Second) / *rate)
	start := time.Now()
	results := make(chan result, *maxReqs)
	var wg sync.WaitGroup
	sent := 0
	var lag time.Duration // how late the latest-started request was against its schedule
	for sent < *maxReqs {
		due := time.Duration(sent) * interval
		if due >= *duration {
			break
		}
		// Request i is due at start + i*interval; a late loop catches up instead of
		// dropping arrivals, and the lag is reported so a starved run can be told apart.
		if wait := due - time.Since(start); wait > 0 {
			time.Sleep(wait)
		} else {
			lag = max(lag, -wait)
		}
		u := *target
		if strings.Contains(u, "%d") {
			u = fmt.Sprintf(u, sent)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- get(client, u, *timeout)
		}()
		sent++
	}
	sendWindow := time.Since(start)
	wg.Wait()
	close(results)

	var all []result
	for r := range results {
		all = append(all, r)
	}
	fmt.Println(summarize(*name, all, sendWindow, time.Since(start), lag))
	return nil
}

// get runs one request with its own deadline and reads the whole body.
func get(client *http.Client, u string, timeout time.Duration) result {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	begin := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return result{err: err, latency: time.Since(begin)}
	}
	resp, err := client.Do(req)
	if err != nil {
		return result{timeout: errors.Is(err, context.DeadlineExceeded), err: err, latency: time.Since(begin)}
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	r := result{status: resp.StatusCode, latency: time.Since(begin)}
	if err != nil {
		r.timeout = errors.Is(err, context.DeadlineExceeded)
		r.err = err
	}
	return r
}

// summarize renders one line: counts by outcome (with each status's fastest..slowest
// latency) and latency quantiles over all requests.
func summarize(name string, all []result, sendWindow, total, lag time.Duration) string {
	byStatus := map[int]int{}
	statusMin := map[int]time.Duration{}
	statusMax := map[int]time.Duration{}
	timeouts, errs := 0, 0
	lat := make([]time.Duration, 0, len(all))
	for _, r := range all {
		switch {
		case r.timeout:
			timeouts++
		case r.err != nil:
			errs++
		default:
			if byStatus[r.status] == 0 || r.latency < statusMin[r.status] {
				statusMin[r.status] = r.latency
			}
			statusMax[r.status] = max(statusMax[r.status], r.latency)
			byStatus[r.status]++
		}
		lat = append(lat, r.latency)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	var b strings.Builder
	fmt.Fprintf(&b, "%s: sent=%d in %.1fs (send-lag-max=%.3fs), done after %.1fs;", name, len(all),
		sendWindow.Seconds(), lag.Seconds(), total.Seconds())
	codes := make([]int, 0, len(byStatus))
	for c := range byStatus {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	for _, c := range codes {
		fmt.Fprintf(&b, " http%d=%d (%v..%v)", c, byStatus[c],
			statusMin[c].Round(time.Millisecond), statusMax[c].Round(time.Millisecond))
	}
	fmt.Fprintf(&b, " client-timeouts=%d errors=%d", timeouts, errs)
	if len(lat) > 0 {
		q := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))].Round(time.Millisecond) }
		fmt.Fprintf(&b, "; latency p50=%v p90=%v max=%v", q(0.5), q(0.9), q(1))
	}
	return b.String()
}

// checkLoopback refuses any target that is not a loopback address: this tool is for
// fixtures on this machine only.
func checkLoopback(target string) error {
	u, err := url.Parse(strings.ReplaceAll(target, "%d", "0"))
	if err != nil {
		return fmt.Errorf("bad -url: %w", err)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-url %q: only loopback targets are allowed", target)
	}
	return nil
}
