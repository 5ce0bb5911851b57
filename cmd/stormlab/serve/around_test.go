package serve

import (
	"context"
	"encoding/json"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/model"
)

// TestAround asks for the phase diagram around the FIG. 1 server's point
// through the page's API, with immediate retries and then behind the
// token-bucket budget: 500 cells, the progress on the stream, and the
// answer at its load in one sentence.
func TestAround(t *testing.T) {
	_, hs := testServer(t, Options{})
	id := startRun(t, hs, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openStream(t, ctx, hs, id)
	api := hs.URL + "/api/runs/" + id
	diagram := func() *aroundResult {
		t.Helper()
		if code, text := call(t, "POST", api+"/around", nil); code != 202 {
			t.Fatalf("around: %d %s", code, text)
		}
		stages := map[string]bool{}
		for {
			name, data := s.next(t)
			if name != "around" {
				continue
			}
			var p aroundProgress
			if err := json.Unmarshal(data, &p); err != nil {
				t.Fatal(err)
			}
			stages[p.Stage] = true
			switch p.Stage {
			case "failed":
				t.Fatal(p.Problem)
			case "done":
				if !stages["waiting"] || !stages["cells"] {
					t.Errorf("stages seen: %v", stages)
				}
				if p.Done != p.Total || p.Total != aroundLoads*aroundBlips+1 {
					t.Errorf("progress %d of %d", p.Done, p.Total)
				}
				return p.Result
			}
		}
	}
	a := diagram()
	if a.Cells != 500 || len(a.Loads) != 25 || len(a.Blips) != 20 || len(a.Recovered) != 25 || len(a.Recovered[0]) != 20 {
		t.Fatalf("%d cells, %d loads × %d blips", a.Cells, len(a.Loads), len(a.Blips))
	}
	// No fault injected yet: the experiment's own, a 3 s outage, is the
	// point, and lengths go up to twice it.
	if a.Load != 40 || a.Blip != 3 || a.Fault != "outage" || a.Loads[0] != 20 || a.Loads[24] != 60 || a.Blips[19] != 10 {
		t.Errorf("loads %v..%v around %v, %s lengths up to %v around %v", a.Loads[0], a.Loads[24], a.Load, a.Fault, a.Blips[19], a.Blip)
	}
	// The article: a 1 s outage recovers, a 3 s one does not; the
	// tipping-server experiment puts it at 1.4 s over 20 replicates.
	if a.Status != "found" || a.Critical == nil || *a.Critical < 1 || *a.Critical > 2.5 {
		t.Errorf("status %s, critical %v", a.Status, a.Critical)
	}
	if !strings.HasPrefix(a.Sentence, "At 40 requests/s an outage longer than ") || !strings.HasSuffix(a.Sentence, "s tips it: beyond that, half of 8 seeded runs never recover.") {
		t.Errorf("sentence: %s", a.Sentence)
	}
	at40 := 10 // Loads[10] = 40
	if !a.Recovered[at40][0] || a.Recovered[at40][5] {
		t.Errorf("at 40/s: a 0.5 s outage recovered %v, a 3 s one %v", a.Recovered[at40][0], a.Recovered[at40][5])
	}

	if code, text := call(t, "POST", api+"/change", map[string]any{"policy": "token-bucket budget"}); code != 204 {
		t.Fatalf("%d %s", code, text)
	}
	b := diagram()
	if b.Status != "none in range" || !strings.Contains(b.Sentence, "no outage up to 10s tips it") {
		t.Errorf("behind the budget: %s: %s", b.Status, b.Sentence)
	}

	// A slowdown injected: the diagram sweeps its length, at its factor.
	if code, text := call(t, "POST", api+"/fault", map[string]any{"kind": "slowdown", "factor": 4, "length": "2s"}); code != 204 {
		t.Fatalf("%d %s", code, text)
	}
	c := diagram()
	if c.Fault != "slowdown ×4" || c.Blip != 2 || !strings.Contains(c.Sentence, "slowdown ×4") || strings.Contains(c.Sentence, "outage") {
		t.Errorf("after a slowdown ×4 for 2 s: the diagram sweeps %q around %v s: %s", c.Fault, c.Blip, c.Sentence)
	}
}

// TestJudge: the status of a row.
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		r       rowCounts
		faulted bool
		want    status
	}{
		{rowCounts{req: 40, cap: 60, ok: true}, true, healthy},
		{rowCounts{req: 27, cap: 0, ok: true}, true, overloaded},
		{rowCounts{req: 40, ok: false, succ: 0, cap: 0}, true, overloaded},
		{rowCounts{req: 70, ok: false, succ: 50, cap: 60}, false, overloaded},
		{rowCounts{req: 40, ok: false, succ: 59, cap: 60}, false, recovering},
		{rowCounts{req: 40, ok: false, succ: 6, cap: 60, retries: 190}, false, metastable},
		{rowCounts{req: 70, ok: false, succ: 20, cap: 100}, false, recovering},
		// After a burst: nothing arrives, nothing is in flight or called.
		{rowCounts{cap: 0, ok: true}, false, idle},
		{rowCounts{cap: 60, ok: true}, true, idle},
		{rowCounts{cap: 60, ok: true, inflight: 3}, false, healthy},
	} {
		r := c.r.row()
		if got := judge(&r, 1, c.faulted, true); got != c.want {
			t.Errorf("%+v faulted %v: %s, want %s", c.r, c.faulted, got, c.want)
		}
	}
	// In a graph the row's capacity is one server's of several: a load
	// above it is no overload, and the health decides.
	for _, c := range []struct {
		r       rowCounts
		faulted bool
		want    status
	}{
		{rowCounts{req: 70, cap: 60, ok: true}, false, healthy},
		{rowCounts{req: 70, cap: 0, ok: false, succ: 10}, true, overloaded},
		{rowCounts{req: 40, ok: false, succ: 6, cap: 60, retries: 190}, false, metastable},
	} {
		r := c.r.row()
		if got := judge(&r, 1, c.faulted, false); got != c.want {
			t.Errorf("a graph's %+v faulted %v: %s, want %s", c.r, c.faulted, got, c.want)
		}
	}
}

// BenchmarkAround is the phase diagram around the FIG. 1 server's point:
// 500 cells of 50 simulated seconds on the worker pool, then the boundary
// search at its load over 8 replicates. One op is one diagram, with as
// many workers as GOMAXPROCS (-cpu 2 for two cores).
//
//	go test -run '^$' -bench Around -count 6 -cpu 2 ./cmd/stormlab/serve
func BenchmarkAround(b *testing.B) {
	cat, err := newCatalog([]string{fig1})
	if err != nil {
		b.Fatal(err)
	}
	l, err := newLive(cat, setup{Experiment: "server-60", Policy: "immediate"})
	if err != nil {
		b.Fatal(err)
	}
	e, err := l.parse(60, nil)
	if err != nil {
		b.Fatal(err)
	}
	a := newAroundSpec(l.now(e), l.seed, 40, nil, 3)
	for b.Loop() {
		r, err := a.compute(context.Background(), runtime.GOMAXPROCS(0), 0, nil)
		if err != nil || r.Cells != 500 || math.IsNaN(*r.Critical) {
			b.Fatal(err)
		}
	}
}

// rowCounts are the counts of a row that judge reads.
type rowCounts struct {
	req, succ, cap, retries, inflight float64
	ok                                bool
}

func (c rowCounts) row() model.SeriesRow {
	return model.SeriesRow{Requests: c.req, Successes: c.succ, Capacity: c.cap, Retries: c.retries, InFlight: c.inflight, Unhealthy: !c.ok}
}
