package watch

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/dumpdiff/dumpdiff/analyze"
	"github.com/dumpdiff/dumpdiff/capture"
	"github.com/dumpdiff/dumpdiff/parse"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are watch's Prometheus metrics, on their own registry (with the
// Go and process collectors). The verdict's series (threads, findings,
// rings) are a collector of their own that reads the last verdict of each
// target under one lock: a scrape never sees half a verdict.
type metrics struct {
	reg *prometheus.Registry

	up               *prometheus.GaugeVec
	captureSeconds   *prometheus.HistogramVec
	pause            *prometheus.HistogramVec
	analysisSeconds  *prometheus.HistogramVec
	errors           *prometheus.CounterVec
	skipped          *prometheus.CounterVec
	incidents        *prometheus.CounterVec
	incidentOpen     *prometheus.GaugeVec
	incidentsRefused *prometheus.CounterVec
	lastCapture      *prometheus.GaugeVec
	build            *prometheus.GaugeVec

	mu       sync.Mutex
	threads  map[string][]threadSeries // target → its series
	findings map[string][]findingSeries
	// categories is a target's last moment's threads by category
	// (waiting, idle, running, other): every category a series, 0 too.
	categories map[string]map[analyze.Category]int
	rings      map[string][2]float64 // target → moments, bytes
	// scheds is a JDK 24+ target's virtual-thread scheduler at its last
	// moment (jcmd Thread.vthread_scheduler); none for other targets.
	scheds map[string]parse.VThreadScheduler

	threadsDesc, findingsDesc, ringMomentsDesc, ringBytesDesc *prometheus.Desc
	categoryDesc, findingsOpenDesc                            *prometheus.Desc
	schedParallelismDesc, schedMountedDesc, schedQueuedDesc   *prometheus.Desc
}

// Categories are the values of dumpdiff_thread_categories' category label,
// each served (0 too) while a target is up: an alert on idle == 0 needs
// the zero.
var Categories = []analyze.Category{analyze.Waiting, analyze.Idle, analyze.Running, analyze.Other}

// severities are the values of dumpdiff_findings_open's severity label,
// each served (0 too) while a target is up.
var severities = []analyze.Severity{analyze.Critical, analyze.Warning, analyze.Info}

// Build names the dumpdiff that serves the metrics (dumpdiff_build_info).
type Build struct{ Version, Commit, GoVersion string }

type threadSeries struct {
	pool, state string
	n           int
}

type findingSeries struct{ kind, pool, severity string }

func newMetrics(b Build) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		up: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "dumpdiff_target_up",
			Help: "1 when the target's last moment gave a dump, 0 while it is down (retried with backoff)."}, []string{"target"}),
		captureSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "dumpdiff_capture_seconds",
			Help:    "Time to take one moment of a target (every file of it), when it gave a dump.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}, []string{"target"}),
		pause: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "dumpdiff_capture_pause_seconds",
			Help:    "Stop of the world a dump cost the target: measured (package handler, a JVM's safepoint time) where known, else the estimate the pause budget made.",
			Buckets: []float64{.0001, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}}, []string{"target"}),
		analysisSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "dumpdiff_analysis_seconds",
			Help:    "Time to read a new moment's analysis of the whole ring (the rolling verdict).",
			Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}, []string{"target"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dumpdiff_capture_errors_total",
			Help: "Files of a target that failed, by reason (refused, timeout, http-status, not-a-dump, too-large, redirect, gone, tool, disk, other)."}, []string{"target", "reason"}),
		skipped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dumpdiff_ticks_skipped_total",
			Help: "Ticks a target missed because its previous moment overran --every."}, []string{"target"}),
		incidents: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dumpdiff_incidents_total",
			Help: "Incident bundles opened."}, []string{"target"}),
		incidentsRefused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dumpdiff_incidents_refused_total",
			Help: "Incidents not recorded because the file system of --out had less than --min-free free."}, []string{"target"}),
		incidentOpen: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "dumpdiff_incident_open",
			Help: "1 while an incident bundle of the target is open."}, []string{"target"}),
		lastCapture: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "dumpdiff_last_capture_timestamp_seconds",
			Help: "Unix time of the target's last moment that gave a dump (time() minus it: how stale the verdict is)."}, []string{"target"}),
		build: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "dumpdiff_build_info",
			Help: "1, with the version, commit and Go version of the dumpdiff serving these metrics."}, []string{"version", "commit", "goversion"}),
		threads:    map[string][]threadSeries{},
		findings:   map[string][]findingSeries{},
		categories: map[string]map[analyze.Category]int{},
		rings:      map[string][2]float64{},
		scheds:     map[string]parse.VThreadScheduler{},
		schedParallelismDesc: prometheus.NewDesc("dumpdiff_vthread_scheduler_parallelism",
			"Carriers the JVM's virtual-thread scheduler runs virtual threads on at once, at the target's last moment (jcmd Thread.vthread_scheduler, JDK 24+; no series for older JVMs).",
			[]string{"target"}, nil),
		schedMountedDesc: prometheus.NewDesc("dumpdiff_vthread_scheduler_mounted",
			"Carriers running a virtual thread at the target's last moment (the scheduler's active count): equal to parallelism while it is saturated.",
			[]string{"target"}, nil),
		schedQueuedDesc: prometheus.NewDesc("dumpdiff_vthread_scheduler_queued",
			"Virtual threads waiting for a carrier at the target's last moment (the scheduler's queued tasks and submissions).",
			[]string{"target"}, nil),
		categoryDesc: prometheus.NewDesc("dumpdiff_thread_categories",
			"Threads (goroutines) of a target's last moment by what their state means for capacity: waiting (on I/O, a lock, a pool), idle (resting for work), running, other (runtime internals, unclassified); every category served, 0 too.",
			[]string{"target", "category"}, nil),
		findingsOpenDesc: prometheus.NewDesc("dumpdiff_findings_open",
			"Findings open at the target's last analysis (not recovered), by severity; every severity served, 0 too, so alerts see the first one.",
			[]string{"target", "severity"}, nil),
		threadsDesc: prometheus.NewDesc("dumpdiff_threads",
			"Threads (goroutines) of a target's last moment by pool and blocking state; the largest series of each target, the rest summed per state under pool \"other\".",
			[]string{"target", "pool", "state"}, nil),
		findingsDesc: prometheus.NewDesc("dumpdiff_findings",
			"1 for each finding open at the target's last analysis (not recovered), by kind, pool and severity.",
			[]string{"target", "kind", "pool", "severity"}, nil),
		ringMomentsDesc: prometheus.NewDesc("dumpdiff_ring_moments", "Moments the target's ring holds.", []string{"target"}, nil),
		ringBytesDesc:   prometheus.NewDesc("dumpdiff_ring_bytes", "Bytes of the target's ring on disk.", []string{"target"}, nil),
	}
	m.build.WithLabelValues(labelValue(b.Version), labelValue(b.Commit), labelValue(b.GoVersion)).Set(1)
	m.reg.MustRegister(m.up, m.captureSeconds, m.pause, m.analysisSeconds, m.errors, m.skipped, m.incidents, m.incidentOpen, m.incidentsRefused,
		m.lastCapture, m.build,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), verdictCollector{m})
	return m
}

func (m *metrics) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("dumpdiff watch: metrics at /metrics\n"))
	})
	return mux
}

func (m *metrics) captureError(target, reason string) {
	if reason == "" {
		reason = "other"
	}
	m.errors.WithLabelValues(target, reason).Inc()
}

func (m *metrics) incidentOpened(target string) {
	m.incidents.WithLabelValues(target).Inc()
	m.incidentOpen.WithLabelValues(target).Set(1)
}

func (m *metrics) incidentClosed(target string) { m.incidentOpen.WithLabelValues(target).Set(0) }

func (m *metrics) ring(target string, g *ring) {
	n, b := g.stats()
	m.mu.Lock()
	m.rings[target] = [2]float64{float64(n), float64(b)}
	m.mu.Unlock()
}

// verdict keeps the series of a target's new analysis: its last moment's
// threads by (pool, state), the top largest as they are and the rest
// summed per state under pool "other" (so a target has at most top +
// one series per state, and states are the signature table's ids: the
// cardinality is bounded whatever the service names its threads), and
// its open findings.
func (m *metrics) verdict(target string, r *analyze.Result, top int) {
	last := len(r.Moments) - 1
	var ts []threadSeries
	var fs []findingSeries
	cats := map[analyze.Category]int{}
	if last >= 0 {
		for _, p := range r.Pools {
			for _, g := range p.States {
				cats[g.Category] += g.Counts[last]
			}
		}
		// Label values must be UTF-8 or the whole scrape fails (a thread
		// name from a command's output or a pprof label may not be): made
		// so before they are summed, so two names made alike are one series.
		sums := map[[2]string]int{}
		for _, p := range r.Pools {
			for _, g := range p.States {
				if n := g.Counts[last]; n > 0 {
					sums[[2]string{labelValue(p.Name), labelValue(g.State)}] += n
				}
			}
		}
		for k, n := range sums {
			ts = append(ts, threadSeries{pool: k[0], state: k[1], n: n})
		}
		slices.SortFunc(ts, func(a, b threadSeries) int {
			return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.pool, b.pool), cmp.Compare(a.state, b.state))
		})
		if len(ts) > top {
			other := map[string]int{}
			for _, s := range ts[top:] {
				other[s.state] += s.n
			}
			ts = ts[:top]
			// A pool really named "other" among the top takes the rest of
			// its state: one series per label set.
			for i := range ts {
				if ts[i].pool == "other" {
					ts[i].n += other[ts[i].state]
					delete(other, ts[i].state)
				}
			}
			for _, state := range slices.Sorted(maps.Keys(other)) {
				ts = append(ts, threadSeries{pool: "other", state: state, n: other[state]})
			}
		}
		seen := map[findingSeries]bool{}
		for _, f := range r.Findings {
			s := findingSeries{kind: f.Kind, pool: labelValue(f.Pool), severity: f.Severity.String()}
			if !f.Recovered && !seen[s] {
				seen[s] = true
				fs = append(fs, s)
			}
		}
	}
	m.mu.Lock()
	m.threads[target], m.findings[target], m.categories[target] = ts, fs, cats
	if last >= 0 && r.Moments[last].Dump != nil && r.Moments[last].Dump.Scheduler != nil {
		m.scheds[target] = *r.Moments[last].Dump.Scheduler
	} else {
		delete(m.scheds, target) // a moment without a reading has none to serve
	}
	m.mu.Unlock()
}

// verdictCollector serves the verdict's series.
type verdictCollector struct{ m *metrics }

func (c verdictCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.m.threadsDesc
	ch <- c.m.findingsDesc
	ch <- c.m.ringMomentsDesc
	ch <- c.m.ringBytesDesc
	ch <- c.m.categoryDesc
	ch <- c.m.findingsOpenDesc
	ch <- c.m.schedParallelismDesc
	ch <- c.m.schedMountedDesc
	ch <- c.m.schedQueuedDesc
}

func (c verdictCollector) Collect(ch chan<- prometheus.Metric) {
	m := c.m
	m.mu.Lock()
	defer m.mu.Unlock()
	for target, ts := range m.threads {
		for _, s := range ts {
			ch <- prometheus.MustNewConstMetric(m.threadsDesc, prometheus.GaugeValue, float64(s.n), target, s.pool, s.state)
		}
	}
	for target, fs := range m.findings {
		open := map[string]int{}
		for _, f := range fs {
			ch <- prometheus.MustNewConstMetric(m.findingsDesc, prometheus.GaugeValue, 1, target, f.kind, f.pool, f.severity)
			open[f.severity]++
		}
		for _, sev := range severities {
			ch <- prometheus.MustNewConstMetric(m.findingsOpenDesc, prometheus.GaugeValue, float64(open[sev.String()]), target, sev.String())
		}
	}
	for target, cats := range m.categories {
		for _, c := range Categories {
			ch <- prometheus.MustNewConstMetric(m.categoryDesc, prometheus.GaugeValue, float64(cats[c]), target, string(c))
		}
	}
	for target, s := range m.scheds {
		ch <- prometheus.MustNewConstMetric(m.schedParallelismDesc, prometheus.GaugeValue, float64(s.Parallelism), target)
		if s.Mounted >= 0 { // -1: not printed
			ch <- prometheus.MustNewConstMetric(m.schedMountedDesc, prometheus.GaugeValue, float64(s.Mounted), target)
		}
		if s.Queued >= 0 {
			ch <- prometheus.MustNewConstMetric(m.schedQueuedDesc, prometheus.GaugeValue, float64(s.Queued), target)
		}
	}
	for target, r := range m.rings {
		ch <- prometheus.MustNewConstMetric(m.ringMomentsDesc, prometheus.GaugeValue, r[0], target)
		ch <- prometheus.MustNewConstMetric(m.ringBytesDesc, prometheus.GaugeValue, r[1], target)
	}
}

// labelValue is s as a valid UTF-8 label value.
func labelValue(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// clear drops a target's verdict series: a target that is down has no
// current threads or findings (its last ones would be served as if they
// were).
func (m *metrics) clear(target string) {
	m.mu.Lock()
	delete(m.threads, target)
	delete(m.findings, target)
	delete(m.categories, target)
	delete(m.scheds, target)
	m.mu.Unlock()
}

// zero makes a target's counters exist from the start, so that increase()
// sees their first event.
func (m *metrics) zero(target string) {
	m.incidents.WithLabelValues(target)
	m.incidentOpen.WithLabelValues(target)
	m.incidentsRefused.WithLabelValues(target)
	m.skipped.WithLabelValues(target)
	// Every reason a file can fail, 0 from the start: increase() and
	// rate() see the first refusal, and an alert on a reason has a series.
	for _, reason := range capture.Reasons {
		m.errors.WithLabelValues(target, reason)
	}
}
