package model

import (
	"testing"
	"time"
)

// oneHop is the retry-budget lab's one-hop setup ("Retries can make an
// outage worse: designing a retry budget"): fifty callers at once against
// one origin answering every call at once, up to attempts tries each, with
// the lab's per-origin budget — a bucket of 10 tokens, starting full, 0.1
// earned per request (deposit = "request"), or per success when deposit
// says so — or none (deposit "").
func oneHop(attempts int, deposit string, origin func(d *Dependency)) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(10 * time.Second)
	s.Arrivals, s.Clients = "burst", 50
	s.Layer[0].Attempts = attempts
	s.Dependency = Dependency{Capacity: 1e6, Queue: "none", Network: Network{Kind: "none"}}
	origin(&s.Dependency)
	if deposit != "" {
		s.Budget = Budget{Kind: "token_bucket", Scope: "chain", Params: TokenBucketParams{Ratio: 0.1, MaxTokens: 10, Deposit: deposit}}
	}
	return s
}

// TestOneHopLab reproduces the lab's one-hop tables exactly: calls at the
// origin, callers served, retries the budget refused. The bucket earning
// per request, as the lab's does, or per success gives the same rows: the
// fifty requests arrive at once into a full bucket, so what they earn is
// lost to its cap, and the flaky callers' retries never empty it.
func TestOneHopLab(t *testing.T) {
	always := func(d *Dependency) { d.Capacity = 0 } // 503 to everything
	flaky := func(d *Dependency) { d.FlakyShare, d.FlakyFailures = 0.1, 1 }
	twice := func(d *Dependency) { d.FlakyShare, d.FlakyFailures = 1, 2 }
	for _, c := range []struct {
		name               string
		sc                 Scenario
		calls, ok, refused float64
	}{
		{"always 503, no retries", oneHop(1, "", always), 50, 0, 0},
		{"always 503, 3 attempts", oneHop(3, "", always), 150, 0, 0},
		{"always 503, 3 attempts, budget", oneHop(3, "request", always), 60, 0, 50},
		{"always 503, 3 attempts, budget per success", oneHop(3, "success", always), 60, 0, 50},
		{"five flaky, 3 attempts", oneHop(3, "", flaky), 55, 50, 0},
		{"five flaky, 3 attempts, budget", oneHop(3, "request", flaky), 55, 50, 0},
		{"five flaky, 3 attempts, budget per success", oneHop(3, "success", flaky), 55, 50, 0},
		{"fail twice, 3 attempts", oneHop(3, "", twice), 150, 50, 0},
		{"fail twice, 3 attempts, budget", oneHop(3, "request", twice), 60, 0, 50},
		{"fail twice, 3 attempts, budget per success", oneHop(3, "success", twice), 60, 0, 50},
	} {
		m := runOne(t, c.sc, 1)
		if m.Calls != c.calls || m.Successful != c.ok || m.RetriesRefused != c.refused || m.Requests != 50 {
			t.Errorf("%s: %v calls, %v ok, %v refused; want %v, %v, %v", c.name, m.Calls, m.Successful, m.RetriesRefused, c.calls, c.ok, c.refused)
		}
	}
}

// labChain is the lab's chain: ten callers at once at the top of three
// services, every hop's client making up to three attempts, over an origin
// that fails everything: four layers of three.
func labChain(set func(l *Layer)) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.Tick = ms(10)
	s.Duration = Duration(time.Minute)
	s.Arrivals, s.Clients = "burst", 10
	l := DefaultLayer()
	l.Attempts = 3
	set(&l)
	s.Layer, s.Layers = []Layer{l}, 4
	s.Dependency = Dependency{Capacity: 0, Queue: "none", Network: Network{Kind: "none"}}
	return s
}

// TestLabChain reproduces the lab's chain: with no budget and no breaker
// the origin sees 3⁴ calls per caller, 810. With the lab's breaker at every
// hop (five failures open it for 30 s), placed as the lab's client places
// it, outside the retry: the last hop's ten calls all pass it before any
// has failed and make their three tries each, 30 calls; their ten failures
// open it, and every hop above, its retries failed at once by the breaker
// below, fails its ten calls and opens in turn. With each hop's budget
// too (10 tokens, 0.1 earned per call), the last hop's bucket pays for ten
// retries, 20 calls. Inside the retry the breaker counts the ten first
// tries, opens, and refuses every retry: 10 calls either way.
func TestLabChain(t *testing.T) {
	m := runOne(t, labChain(func(l *Layer) {}), 1)
	if m.Calls != 810 || m.Failed != 10 {
		t.Fatalf("no budget, no breaker: %v", m)
	}
	budget := Budget{Kind: "token_bucket", Scope: "layer", Params: TokenBucketParams{Ratio: 0.1, MaxTokens: 10, Deposit: "request"}}
	for _, c := range []struct {
		placement                  string
		budget                     bool
		calls, byBreaker, byBudget float64
	}{
		// Outside: each of the three hops above has both retries of its
		// ten calls failed at once by the open breaker below (60). With
		// the budgets only their first retries get that far (30): every
		// hop's bucket, the last hop's included, pays for ten retries and
		// refuses the second ones (40).
		{"outside_retry", false, 30, 60, 0},
		{"outside_retry", true, 20, 30, 40},
		// Inside: each hop's two retries of ten calls fail at once.
		{"inside_retry", false, 10, 40, 0},
		{"inside_retry", true, 10, 40, 0},
	} {
		sc := labChain(func(l *Layer) {
			l.Breaker = Breaker{Kind: "consecutive", Open: Duration(30 * time.Second), Probes: 1, Placement: c.placement, Params: ConsecutiveParams{Threshold: 5}}
		})
		if c.budget {
			sc.Budget = budget
		}
		m := runOne(t, sc, 1)
		if m.Calls != c.calls || m.RefusedBreaker != c.byBreaker || m.RefusedBudget != c.byBudget || m.Failed != 10 {
			t.Errorf("breaker %s, budget %v: %v calls, %v refused by breakers, %v by budgets, %v failed; want %v, %v, %v, 10",
				c.placement, c.budget, m.Calls, m.RefusedBreaker, m.RefusedBudget, m.Failed, c.calls, c.byBreaker, c.byBudget)
		}
	}
}

// TestRetryAtOneLayer: three layers of three attempts over a dependency
// that fails everything put 27 calls per request on it; retrying at the
// edge only, or at the bottom only, puts 3.
func TestRetryAtOneLayer(t *testing.T) {
	for _, c := range []struct {
		at   string
		want float64
	}{{"every", 27}, {"edge", 3}, {"bottom", 3}} {
		sc := labChain(func(l *Layer) {})
		sc.Layers = 3
		sc.RetryAt = c.at
		if m := runOne(t, sc, 1); m.Calls != c.want*10 {
			t.Errorf("retry_at %s: %v calls for 10 requests, want %v each", c.at, m.Calls, c.want)
		}
	}
}

// TestFatalErrors: errors not worth retrying are not retried at any layer,
// and are counted.
func TestFatalErrors(t *testing.T) {
	sc := labChain(func(l *Layer) {})
	sc.Dependency.FatalShare = 1
	m := runOne(t, sc, 1)
	if m.Calls != 10 || m.NotRetryable != 40 || m.Failed != 10 {
		t.Errorf("every error fatal: %v calls, %v not retried (want 10 and 40: one at each of the four layers)", m.Calls, m.NotRetryable)
	}
}

// TestDeadline: a deadline shorter than the tries' own timeouts cuts every
// try short and stops new ones: the storm below a slow dependency is
// bounded by the edge's patience, and tries refused for it are counted.
func TestDeadline(t *testing.T) {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Tick = ms(10)
	sc.Duration = Duration(2 * time.Minute)
	sc.Layer = []Layer{DefaultLayer()}
	sc.Layer[0].Attempts = 3
	sc.Layer[0].Timeout = Duration(2 * time.Second)
	sc.Layers = 3
	sc.Dependency.Capacity = 0 // a queue that never moves: every try times out
	sc.Load = 10
	plain := runOne(t, sc, 1)
	sc.Deadline = Duration(3 * time.Second)
	dl := runOne(t, sc, 1)
	if !(dl.Calls < plain.Calls/3) || dl.RefusedDeadline == 0 {
		t.Errorf("deadline 3 s: %v calls (%v without), %v refused for the deadline", dl.Calls, plain.Calls, dl.RefusedDeadline)
	}
	// With 2 s tries under a 3 s deadline every layer times out at 2 s and
	// retries once, cut short at 3 s: a call at 0 s and three at 2 s (the
	// bottom's retry and the new calls of the two layers above), then
	// nothing has time left.
	if got := dl.Calls / dl.Requests; got > 4.01 {
		t.Errorf("deadline 3 s: %.2f calls per request, want at most 4", got)
	}
}

// TestPushback: above its pushback threshold the dependency answers at once
// "overloaded, don't retry": retries stop, and are counted.
func TestPushback(t *testing.T) {
	sc := serverCase(func(s *Scenario) { s.Layer[0].Attempts = 5 })
	plain := runOne(t, sc, 1)
	sc.Dependency.Pushback = 10
	pb := runOne(t, sc, 1)
	if pb.PeakQueue > 20 || pb.RefusedPushback == 0 || !(pb.Calls < plain.Calls) {
		t.Errorf("pushback above 10: %v (refused %v); without: %v", pb, pb.RefusedPushback, plain)
	}
}

// TestLoadShapes: a ramp's arrivals are its integral; a burst is its
// clients at the start and nothing after.
func TestLoadShapes(t *testing.T) {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Duration = Duration(100 * time.Second)
	sc.Shape = []Point{{At: Duration(10 * time.Second), Load: 0}, {At: Duration(60 * time.Second), Load: 100}}
	// 0 until 10 s, a ramp to 100/s at 60 s, then 100/s: 2,500 + 4,000.
	if m := runOne(t, sc, 1); m.Requests < 6400 || m.Requests > 6500 {
		t.Errorf("ramp: %v requests, want about 6,500", m.Requests)
	}
	sc.Arrivals = "poisson"
	if m := runOne(t, sc, 1); m.Requests < 6200 || m.Requests > 6800 {
		t.Errorf("Poisson ramp: %v requests, want about 6,500", m.Requests)
	}
	b := oneHop(1, "", func(d *Dependency) {})
	if m := runOne(t, b, 1); m.Requests != 50 || m.Successful != 50 {
		t.Errorf("burst of 50: %v", m)
	}
}
