package model

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// A blip too short to make the system unhealthy has recovered after 0 s
// (the article's script crashes on it); a run without a fault (or with a
// blip of 0 s, which is none) is healthy at the end, with no recovery time.
func TestShortBlipRecoversAtOnce(t *testing.T) {
	sc := blip(27)
	sc.Fault[0].Length = Duration(time.Second)
	if r, err := Run(sc, 1, false); err != nil || !r.Recovered() || r.RecoveryS != 0 {
		t.Errorf("blip 1s: %v, recovered=%v after %v s, want after 0 s", err, r.Recovered(), r.RecoveryS)
	}
	sc.Fault[0].Length = 0
	none := blip(27)
	none.Fault = nil
	for _, sc := range []Scenario{sc, none} {
		if r, err := Run(sc, 1, false); err != nil || !r.Recovered() || !math.IsNaN(r.RecoveryS) {
			t.Errorf("no fault (%d faults): %v, recovered=%v after %v s, want healthy at the end with no recovery time", len(sc.Fault), err, r.Recovered(), r.RecoveryS)
		}
	}
}

// randomQueueScenario draws a scenario the queue engine accepts, over every
// setting it models.
func randomQueueScenario(r *rand.Rand) Scenario {
	sc := Default()
	sc.Duration = Duration(time.Duration(60+r.IntN(540)) * time.Second)
	sc.Load = float64(r.IntN(200)) + []float64{0, 0.5, 0.25}[r.IntN(3)]
	if r.IntN(3) == 0 {
		sc.Arrivals = "poisson"
	}
	sc.Dependency.Capacity = float64(1 + r.IntN(200))
	sc.Dependency.Queue = []string{"fifo", "lifo", "none"}[r.IntN(3)]
	if r.IntN(3) == 0 {
		sc.Dependency.QueueLimit = r.IntN(500)
	}
	sc.Dependency.DropExpired = r.IntN(2) == 0
	if r.IntN(4) == 0 {
		sc.Dependency.Collapse = Collapse{Slope: r.Float64(), Floor: r.Float64() / 2}
	}
	sc.Layers = 1 + r.IntN(3)
	l := DefaultLayer()
	l.Attempts = 1 + r.IntN(5)
	l.Timeout = Duration(time.Duration(1+r.IntN(4)) * time.Second)
	switch r.IntN(3) {
	case 1:
		l.Backoff = Backoff{Kind: "constant", Base: Duration(time.Duration(1+r.IntN(3)) * time.Second), Factor: 2, Jitter: "none"}
	case 2:
		l.Backoff = Backoff{Kind: "exponential", Base: Duration(time.Second), Factor: 2, Cap: Duration(time.Duration(r.IntN(20)) * time.Second), Jitter: "none"}
	}
	sc.Layer = []Layer{l}
	switch r.IntN(3) {
	case 1:
		sc.Budget = Budget{Kind: "per_tick", Scope: "chain", Params: PerTickParams{Ratio: r.Float64() / 2}}
	case 2:
		sc.Budget = Budget{Kind: "ratio", Scope: "chain", Params: RatioParams{Ratio: r.Float64() / 2}}
	}
	for range r.IntN(3) {
		f := DefaultFault()
		f.Kind = []string{"outage", "degradation", "slowdown", "spike"}[r.IntN(4)]
		f.Start = Duration(time.Duration(r.IntN(60)) * time.Second)
		f.Length = Duration(time.Duration(r.IntN(60)) * time.Second)
		f.Capacity = float64(r.IntN(100))
		f.Factor = 1 + 4*r.Float64()
		sc.Fault = append(sc.Fault, f)
	}
	return sc
}

// TestQueueInvariants: on random scenarios, every request is accounted for
// (succeeded, failed, or still pending, and the engine's own state agrees
// about the pending ones), calls never exceed requests × the product of the
// attempts, work served never exceeds calls, and a seed gives one answer.
func TestQueueInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := range n {
		sc := randomQueueScenario(r)
		if err := Check(&sc); err != nil {
			t.Fatalf("scenario %d invalid: %v", i, err)
		}
		seed := r.Uint64()
		p, err := sc.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		s := newQueueSim(p, seed, false)
		m := s.run()
		// The engine's own state: calls still waiting within their timeout,
		// retries due, retries due after the run.
		var live int64
		for _, r := range s.rows {
			for _, co := range r {
				live += co.n
			}
		}
		if s.timeout < 0 {
			live += s.backlog
		}
		for _, due := range s.due {
			for _, d := range due {
				live += d.n
			}
		}
		live += s.late
		switch {
		case m.Requests != m.Successful+m.Failed+m.Pending || m.Pending < 0:
			t.Errorf("scenario %d: requests %v ≠ ok %v + failed %v + pending %v", i, m.Requests, m.Successful, m.Failed, m.Pending)
		case m.Pending != float64(live):
			t.Errorf("scenario %d: pending %v but the engine holds %d requests (%+v)", i, m.Pending, live, sc)
		case m.Calls > m.Requests*float64(sc.FlatAttempts()):
			t.Errorf("scenario %d: calls %v > requests %v × attempts %d", i, m.Calls, m.Requests, sc.FlatAttempts())
		case m.Served > m.Calls || m.WastedServed > m.Served || m.Successful > m.Served:
			t.Errorf("scenario %d: served %v, wasted %v, ok %v, calls %v", i, m.Served, m.WastedServed, m.Successful, m.Calls)
		case m.RetriesRefused > m.Failed:
			t.Errorf("scenario %d: refused %v > failed %v", i, m.RetriesRefused, m.Failed)
		}
		again := newQueueSim(p, seed, false).run()
		if again.String() != m.String() || math.IsNaN(again.RecoveryS) != math.IsNaN(m.RecoveryS) {
			t.Errorf("scenario %d: two runs with one seed differ", i)
		}
	}
}

// TestFlatChainCount: when every call fails (an outage for the whole run), a
// chain of d layers of r attempts puts r^d calls on the dependency per
// request, unless the run ends first.
func TestFlatChainCount(t *testing.T) {
	for _, c := range []struct{ layers, attempts int }{{1, 3}, {2, 3}, {3, 3}, {4, 3}, {2, 5}} {
		sc := Default()
		sc.Load = 1
		sc.Duration = Duration(time.Hour)
		sc.Layers = c.layers
		sc.Layer[0].Attempts = c.attempts
		sc.Dependency.Queue = "none" // fail at once, retry next tick
		sc.Fault = []Fault{{Kind: "outage", Start: 0, Length: sc.Duration, Factor: 1}}
		r, err := Run(sc, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		want := math.Pow(float64(c.attempts), float64(c.layers))
		// Requests that arrived too late to use all their attempts are
		// still pending; the others made exactly r^d calls.
		done := r.Failed
		if got := r.Calls; got < done*want || got > r.Requests*want {
			t.Errorf("%d×%d: %v calls for %v failed requests, want %v each", c.layers, c.attempts, got, done, want)
		}
		if r.Failed+r.Pending != r.Requests || r.Successful != 0 {
			t.Errorf("%d×%d: ok %v failed %v pending %v of %v", c.layers, c.attempts, r.Successful, r.Failed, r.Pending, r.Requests)
		}
		if r.Failed != r.Requests-want+1 {
			t.Errorf("%d×%d: %v failed, want all but the last %v requests", c.layers, c.attempts, r.Failed, want-1)
		}
	}
}

// TestHorizonWarnings: a recovery in the last tenth of the run, and a fault
// after its end, are flagged.
func TestHorizonWarnings(t *testing.T) {
	sc := blip(1)
	sc.Duration = Duration(170 * time.Second) // the 66 s drain ends at 156 s of 170
	r, err := Run(sc, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "last 14 s") {
		t.Errorf("warnings %q, want one about the last 14 s", r.Warnings)
	}
	sc.Fault[0].Start = Duration(time.Hour)
	if r, _ = Run(sc, 1, false); len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "no effect") {
		t.Errorf("warnings %q, want one about a fault after the run", r.Warnings)
	}
	if r, _ = Run(blip(1), 1, false); len(r.Warnings) != 0 {
		t.Errorf("the article's hour: unexpected warnings %q", r.Warnings)
	}
}
