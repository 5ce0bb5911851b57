package model

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestBreakerConsecutive: trips after threshold failures in a row (a
// success resets the run), fails calls at once while open, lets probes
// through half-open, closes on a probe's success and opens again on its
// failure.
func TestBreakerConsecutive(t *testing.T) {
	b := newBreaker(BreakerPlan{Kind: BreakerConsecutive, Threshold: 5, OpenTicks: 30, Probes: 2})
	b.record(0, 0, 4)
	b.record(0, 1, 0) // a success resets the run
	b.record(0, 0, 4)
	if got := b.allow(1, 10); got != 10 {
		t.Fatalf("4 failures in a row: %d of 10 allowed, want all", got)
	}
	b.record(1, 0, 1) // the fifth in a row
	if got := b.allow(2, 10); got != 0 {
		t.Fatalf("open: %d allowed", got)
	}
	b.record(2, 0, 3) // answers of calls made before: ignored
	if got := b.allow(30, 10); got != 0 {
		t.Fatalf("still open at tick 30: %d allowed", got)
	}
	if got := b.allow(31, 10); got != 2 {
		t.Fatalf("half-open at tick 31: %d allowed, want the 2 probes", got)
	}
	if got := b.allow(31, 10); got != 0 {
		t.Fatalf("probes spent: %d allowed", got)
	}
	b.record(32, 0, 1) // a probe fails: open again until 62
	if got := b.allow(61, 1); got != 0 {
		t.Fatalf("reopened: %d allowed at 61", got)
	}
	if got := b.allow(62, 5); got != 2 {
		t.Fatalf("half-open again at 62: %d", got)
	}
	b.record(63, 1, 0) // a probe succeeds: closed
	if got := b.allow(63, 50); got != 50 {
		t.Fatalf("closed: %d of 50 allowed", got)
	}
}

// TestBreakerRatio: trips when failures are at least ratio of the calls in
// the window, once min_calls were made; old slices leave the window.
func TestBreakerRatio(t *testing.T) {
	b := newBreaker(BreakerPlan{Kind: BreakerRatio, Ratio: 0.5, MinCalls: 10, SliceTicks: 1, OpenTicks: 5, Probes: 1})
	b.record(0, 1, 8) // 8 of 9: under min_calls
	if b.allow(0, 1) != 1 {
		t.Fatal("tripped before min_calls")
	}
	b.record(20, 6, 5) // the first calls left the window: 5 of 11 < 0.5
	if b.allow(20, 1) != 1 {
		t.Fatal("tripped on 5 failures of 11")
	}
	b.record(20, 0, 1) // 6 of 12
	if b.allow(21, 1) != 0 {
		t.Fatal("did not trip at half the calls failing")
	}
}

// breakerStep is one caller making up to three tries against a dependency
// that fails every call at once, one new request a second in 1 s ticks, a
// breaker that trips after two failures in a row, stays open 5 s and lets
// one probe through, placed as given.
func breakerStep(placement string) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Duration = Duration(14 * time.Second)
	s.Load = 1
	s.Layer[0].Attempts = 3
	s.Layer[0].Breaker = Breaker{Kind: "consecutive", Open: Duration(5 * time.Second), Probes: 1, Placement: placement, Params: ConsecutiveParams{Threshold: 2}}
	s.Dependency.Capacity = 0
	s.Dependency.Queue = "none"
	return s
}

// TestBreakerPlacement follows the two placements tick by tick (request i
// arrives at i s; a failed try retries in the next tick, before the tick's
// new request).
//
// Inside the retry every try asks the breaker and counts: request 0's first
// two tries fail (t 0, 1) and trip it; its third try and requests 1 to 5
// are refused; at t 6 request 6 is the probe, fails, and opens it again
// until t 11 (its retry and requests 7 to 10 refused), when request 11
// probes and fails: 14 tries refused.
//
// Outside the retry only a call's first try asks, and a call counts once,
// when its last try fails: request 0 fails at t 2 (one failure), request 1
// at t 3 (two: open until t 8). Request 2, let through at t 2, makes its
// last two tries while the breaker is open; requests 3 to 7 are refused.
// Request 8 is the probe: its three tries (t 8, 9, 10) all go, and only its
// failure at t 10 opens the breaker again (request 9 is refused meanwhile,
// the probe being out), until t 15, after the run: 10 calls refused.
func TestBreakerPlacement(t *testing.T) {
	for _, c := range []struct {
		placement string
		calls     []float64 // calls at the dependency in ticks 0..13
		refused   float64
	}{
		{"inside_retry", []float64{1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0}, 14},
		{"outside_retry", []float64{1, 2, 3, 2, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0}, 10},
	} {
		res, err := Run(breakerStep(c.placement), 1, true)
		if err != nil {
			t.Fatal(err)
		}
		var calls []float64
		for _, row := range res.Series.Rows {
			calls = append(calls, row.Calls)
		}
		if fmt.Sprint(calls) != fmt.Sprint(c.calls) || res.Metrics.RefusedBreaker != c.refused {
			t.Errorf("%s: calls by tick %v, %v refused by the breaker; want %v and %v", c.placement, calls, res.Metrics.RefusedBreaker, c.calls, c.refused)
		}
	}
}

// withBreakers gives the layers of sc random breakers, of either kind and
// either placement (or none), and a token bucket of either deposit rule
// half the time.
func withBreakers(r *rand.Rand, sc Scenario) Scenario {
	sc.Layer = append([]Layer(nil), sc.Layer...)
	for i := range sc.Layer {
		b := &sc.Layer[i].Breaker
		b.Kind = []string{"none", "consecutive", "ratio"}[r.IntN(3)]
		b.Placement = []string{"inside_retry", "outside_retry"}[r.IntN(2)]
		b.Params = nil
		switch threshold, ratio, calls, window := 1+r.IntN(10), 0.1+0.9*r.Float64(), 1+r.IntN(20), ms(100+r.IntN(5000)); b.Kind {
		case "consecutive":
			b.Params = ConsecutiveParams{Threshold: threshold}
		case "ratio":
			b.Params = FailureRatioParams{Ratio: ratio, MinCalls: calls, Window: window}
		}
		b.Open = ms(10 + r.IntN(5000))
		b.Probes = 1 + r.IntN(3)
	}
	if r.IntN(2) == 0 {
		sc.Budget = Budget{Kind: "token_bucket", Scope: sc.Budget.Scope, Params: TokenBucketParams{Ratio: 0.1, MaxTokens: 10, Deposit: []string{"success", "request"}[r.IntN(2)]}}
	}
	return sc
}

// TestPlacementInvariants: random scenarios with breakers inside or
// outside the retry and token buckets of either deposit rule keep the
// engines' invariants (calls ≤ requests × the attempts allowed among them),
// and never touch a group the engine let go of; the queue engine's
// invariants hold with either deposit rule.
func TestPlacementInvariants(t *testing.T) {
	long(t)
	t.Parallel()
	r := rand.New(rand.NewPCG(81, 82))
	var refused, perCall int
	for i := range 200 {
		sc := withBreakers(r, randomScenario(r))
		m, ok := checkInvariants(t, i, sc, r.Uint64())
		if !ok {
			return
		}
		if m.RefusedBreaker > 0 {
			refused++
			for _, l := range sc.Layer {
				if l.Breaker.Kind != "none" && l.Breaker.Placement == "outside_retry" {
					perCall++
					break
				}
			}
		}
		checkRecycling(t, i, sc, 3)
	}
	if refused < 40 || perCall < 20 {
		t.Errorf("only %d of 200 random scenarios had a breaker refuse a call (%d with one outside the retry)", refused, perCall)
	}
	r = rand.New(rand.NewPCG(83, 84))
	for i := range 100 {
		sc := randomQueueScenario(r)
		sc.Budget = Budget{Kind: "token_bucket", Scope: "chain", Params: TokenBucketParams{Ratio: r.Float64(), MaxTokens: 1 + 20*r.Float64(),
			Deposit: []string{"success", "request"}[r.IntN(2)]}}
		if _, ok := checkInvariants(t, i, sc, r.Uint64()); !ok {
			return
		}
	}
}

// TestPlacementKeys: the placement and deposit keys take only their
// values, and the queue engine, which models no breaker, refuses one
// outside the retry as it refuses any, naming the key.
func TestPlacementKeys(t *testing.T) {
	for _, c := range []struct {
		set  func(s *Scenario)
		want string
	}{
		{func(s *Scenario) { s.Engine = "stochastic"; s.Layer[0].Breaker.Placement = "per_call" },
			`layer.0.breaker.placement: "per_call" is not allowed; use one of inside_retry, outside_retry`},
		{func(s *Scenario) {
			s.Engine = "stochastic"
			s.Budget = Budget{Kind: "token_bucket", Scope: "chain", Params: TokenBucketParams{Ratio: 0.1, MaxTokens: 10, Deposit: "call"}}
		}, `budget.deposit: "call" is not allowed; use one of success, request`},
		{func(s *Scenario) {
			s.Layer[0].Breaker = Breaker{Kind: "consecutive", Open: Duration(time.Second), Probes: 1, Placement: "outside_retry", Params: ConsecutiveParams{Threshold: 5}}
		}, `layer.0.breaker.kind: "consecutive" (a circuit breaker) needs engine = "stochastic"; the queue engine does not model it`},
	} {
		sc := Default()
		c.set(&sc)
		if err := Check(&sc); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
	sc := Default()
	sc.Budget = Budget{Kind: "token_bucket", Scope: "chain", Params: TokenBucketParams{Ratio: 0.1, MaxTokens: 10, Deposit: "request"}}
	if err := Check(&sc); err != nil {
		t.Errorf("the queue engine with a token bucket earning per request: %v", err)
	}
}
