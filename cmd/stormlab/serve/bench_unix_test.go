//go:build unix

package serve

import (
	"context"
	"net/http"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stormlab/stormlab/model"
)

// discard is a ResponseWriter for an event stream that nobody reads: it
// counts the rows sent and calls at at each.
type discard struct {
	h    http.Header
	rows int
	at   func(rows int, event string)
}

func (d *discard) Header() http.Header { return d.h }
func (d *discard) WriteHeader(int)     {}
func (d *discard) Flush()              {}
func (d *discard) Write(p []byte) (int, error) {
	s := string(p)
	switch {
	case strings.HasPrefix(s, "event: rows"):
		d.rows += strings.Count(s, `"t":`)
		d.at(d.rows, "rows")
	case strings.HasPrefix(s, "event: end"):
		d.at(d.rows, "end")
	}
	return len(p), nil
}

// BenchmarkStream streams ten minutes of the FIG. 1 server, a row per
// event as at 10×, through the server's stream: simulated ahead in chunks,
// judged, encoded as JSON and written as Server-Sent Events, with a 3 s
// outage at 60 s and a switch to the token-bucket budget at 120 s, each
// simulated again from the start. One op is the whole run; cpu-ns/sim-s is
// the process's CPU time (every goroutine, the collector's too) per
// simulated second, and core%@10x the share of one core that streaming at
// 10× real time takes.
//
//	go test -run '^$' -bench Stream -count 6 ./cmd/stormlab/serve
func BenchmarkStream(b *testing.B) {
	const length = 600
	srv, err := New(Options{Files: []string{fig1}, MaxLength: length * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	srv.batch, srv.frame = 1, 0
	var cpu time.Duration
	for b.Loop() {
		tl, err := newLive(srv.cat, setup{Experiment: "server-60", Policy: "immediate"})
		if err != nil {
			b.Fatal(err)
		}
		r, err := srv.add(tl)
		if err != nil {
			b.Fatal(err)
		}
		max := fastest
		if err := r.control(&max, nil, nil); err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		w := &discard{h: http.Header{}}
		w.at = func(rows int, event string) {
			switch {
			case event == "end":
				cancel()
			case rows == 60:
				if err := r.intervene(intervention{Fault: outage(3), Label: "outage 3s"}, ""); err != nil {
					b.Error(err)
				}
			case rows == 120:
				set, err := r.policyChange("token-bucket budget")
				if err == nil {
					err = r.intervene(intervention{Set: set, Label: "budget"}, "token-bucket budget")
				}
				if err != nil {
					b.Error(err)
				}
			}
		}
		before := cpuTime()
		if err := r.stream(ctx, newSSE(w)); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - before
		if w.rows != length {
			b.Fatalf("%d rows streamed, want %d", w.rows, length)
		}
		srv.remove(r.id)
	}
	perSec := float64(cpu.Nanoseconds()) / float64(b.N) / length
	b.ReportMetric(perSec, "cpu-ns/sim-s")
	b.ReportMetric(perSec*10/1e9*100, "core%@10x")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// outage is an outage of length seconds.
func outage(length float64) *model.Fault {
	return &model.Fault{Kind: "outage", Length: model.Seconds(length), Factor: 1}
}

// BenchmarkInterventions posts 1,000 interventions, faults and changes in
// turn, to one run paused at 300 s, through the HTTP handlers, as a page
// flooding the server would; the run takes 100 and refuses the rest with
// its limit. max-ms is the slowest answer, heap-MB the heap in use after
// them (the engine holds the run's state at 300 s, not its past),
// cpu-ms/taken the process's CPU time per intervention taken (reading the
// run's file back, which grows with each), and stream-ms the wall time the
// run then takes to stream its next 60 s at full speed: what the 100
// interventions cost, the run from then on.
//
//	go test -run '^$' -bench Interventions -benchtime 3x ./cmd/stormlab/serve
func BenchmarkInterventions(b *testing.B) {
	var slowest, streamed, cpu time.Duration
	var heap uint64
	for b.Loop() {
		srv, hs := testServer(b, Options{})
		id := startRun(b, hs, nil)
		r, err := srv.get(id)
		if err != nil {
			b.Fatal(err)
		}
		api := hs.URL + "/api/runs/" + id
		ctx, cancel := context.WithCancel(context.Background())
		w := &discard{h: http.Header{}}
		at := make(chan int, 1024)
		w.at = func(rows int, _ string) { at <- rows }
		go func() { _ = r.stream(ctx, newSSE(w)) }()
		waitRows := func(n int) {
			for rows := range at {
				if rows >= n {
					return
				}
			}
		}
		if code, text := call(b, "POST", api+"/control", map[string]any{"speed": "max", "pause_at": 300}); code != 204 {
			b.Fatal(code, text)
		}
		waitRows(300)
		taken := 0
		before := cpuTime()
		for i := range 1000 {
			var code int
			var text string
			start := time.Now()
			if i%2 == 0 {
				code, text = call(b, "POST", api+"/fault", map[string]any{"kind": "outage", "length": "1s"})
			} else {
				code, text = call(b, "POST", api+"/change", map[string]any{"set": map[string]any{"layer.0.attempts": 2 + i%4}})
			}
			slowest = max(slowest, time.Since(start))
			switch {
			case code == 204:
				taken++
			case code != 400 || !strings.Contains(text, "at most 100 faults and changes"):
				b.Fatalf("intervention %d: %d %s", i, code, text)
			}
		}
		cpu += cpuTime() - before
		if taken != maxInterventions {
			b.Fatalf("%d interventions taken, want %d", taken, maxInterventions)
		}
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		heap = max(heap, ms.HeapInuse)
		start := time.Now()
		if code, text := call(b, "POST", api+"/control", map[string]any{"pause_at": 360, "paused": false}); code != 204 {
			b.Fatal(code, text)
		}
		waitRows(360)
		streamed = max(streamed, time.Since(start))
		cancel()
	}
	b.ReportMetric(float64(slowest.Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
	b.ReportMetric(float64(streamed.Microseconds())/1000, "stream-ms")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N*maxInterventions), "cpu-ms/taken")
}
