//go:build unix

package serve

import (
	"context"
	"net/http"
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
