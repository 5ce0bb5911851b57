package model

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// hangingScenario is sc with a dependency that hangs: a waiting room that
// serves nothing for the whole run (an outage from start to end), so a try
// at the bottom layer ends only when its caller gives up.
func hangingScenario(sc Scenario) Scenario {
	sc.Dependency.Queue, sc.Dependency.QueueLimit, sc.Dependency.DropExpired = "fifo", 0, false
	sc.Dependency.Capacity = max(sc.Dependency.Capacity, 1)
	sc.Dependency.LatencySlope, sc.Dependency.Collapse = 0, Collapse{}
	sc.Dependency.FailureProbability, sc.Dependency.FlakyShare = 0, 0
	sc.CancelAbandoned = false
	f := DefaultFault()
	f.Kind, f.Start, f.Length = "outage", 0, sc.Duration
	sc.Fault = []Fault{f}
	return sc
}

// TestBulkheadBoundsInFlight: a bulkhead of max m on the bottom layer, in
// front of a dependency that hangs, never has more than m tries in flight,
// counted apart from the limiter: the calls that reached the dependency
// less the bottom layer's tries given up on (the layers above wait
// forever, so only the bottom layer gives up), tick by tick, over random
// scenarios, rejecting or queueing at the limit.
func TestBulkheadBoundsInFlight(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 4))
	bound := 0
	for i := range 120 {
		sc := hangingScenario(randomScenario(r))
		sc.Clients = 0
		if sc.Arrivals == "closed" {
			sc.Arrivals, sc.Load = "poisson", 5+200*r.Float64()
		}
		for j := range sc.Layer {
			if j < len(sc.Layer)-1 {
				sc.Layer[j].Timeout = 0
			} else if sc.Layer[j].Timeout == 0 {
				sc.Layer[j].Timeout = ms(50 + r.IntN(1500))
			}
		}
		sc.Chain, sc.Layers = "nested", 0
		m := 1 + r.IntN(30)
		lim := DefaultLayer().Limiter
		if err := lim.SetTableKind("bulkhead"); err != nil {
			t.Fatal(err)
		}
		lim.Params = BulkheadParams{Max: m}
		lim.Scope = []string{"client", "layer"}[r.IntN(2)]
		lim.Full = []string{"reject", "queue"}[r.IntN(2)]
		lim.QueueLimit, lim.QueueTimeout = r.IntN(40), ms(1+r.IntN(800))
		sc.Layer[len(sc.Layer)-1].Limiter = lim
		p, err := sc.Resolve()
		if err != nil {
			t.Fatalf("scenario %d: %v\n%+v", i, err, sc)
		}
		s := newStoch(p, r.Uint64(), false)
		s.begin()
		var timeouts, most int64
		for tick := range p.Ticks {
			s.advance(tick + 1)
			if s.now == tick {
				timeouts += s.tk.timeouts
			}
			in := s.c.calls - timeouts
			most = max(most, in)
			if in > int64(m) {
				t.Fatalf("scenario %d: %d tries in flight at tick %d behind a bulkhead of %d\n%+v", i, in, tick, m, sc)
			}
		}
		s.r.release()
		if most == int64(m) {
			bound++
		}
	}
	if bound < 60 {
		t.Errorf("the bulkhead was full in %d of 120 scenarios; the test needs more where it binds", bound)
	}
}

// limiterCase is the small case of TestLimiterRejectVsQueue: one client,
// 10 new requests a second, one attempt with a 3 s timeout, a dependency
// that hangs, a bulkhead of 4, five 1 s ticks.
func limiterCase(full string) Scenario {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Load, sc.Duration = 10, Duration(5*time.Second)
	sc.Layer[0].Timeout = Duration(3 * time.Second)
	sc.Layer[0].Limiter = Limiter{Kind: "bulkhead", Scope: "client", Full: full, QueueLimit: 5, QueueTimeout: Duration(2 * time.Second),
		Params: BulkheadParams{Max: 4}}
	return hangingScenario(sc)
}

// TestLimiterRejectVsQueue works both ends of a full bulkhead out by hand.
// Tries sent in tick 0 are given up at the end of tick 3, their slots free
// for tick 4. Rejecting: 4 of tick 0's 10 go, 6 are refused; ticks 1-3
// refuse all 30; tick 4 sends 4 and refuses 6: 8 calls, 42 refused, 46
// failed (the refused and the 4 given up on), 4 pending.
// Queueing (at most 5 waiting, 2 s each): tick 0 sends 4, queues 5 and
// refuses 1; tick 1 refuses 10 (the queue is full); in tick 2 the first 5
// have waited 2 s and fail, then 5 of the new queue and 5 are refused;
// tick 3 refuses 10; in tick 4 the freed slots take 4 of the waiting 5,
// the fifth has waited 2 s and fails, and of the new 10, 5 queue and 5 are
// refused: 8 calls, 1+10+10+10+6 = 37 refused, 41 failed, 9 pending (4 in
// flight, 5 waiting).
func TestLimiterRejectVsQueue(t *testing.T) {
	for _, c := range []struct {
		full                                     string
		calls, refused, failed, pending, success float64
	}{
		{"reject", 8, 42, 46, 4, 0},
		{"queue", 8, 37, 41, 9, 0},
	} {
		m := runOne(t, limiterCase(c.full), 1)
		if m.Requests != 50 || m.Calls != c.calls || m.RefusedLimiter != c.refused || m.RetriesRefused != c.refused ||
			m.Failed != c.failed || m.Pending != c.pending || m.Successful != c.success {
			t.Errorf("full = %q: %v requests, %v calls, %v refused by the limiter (%v in all), %v failed, %v pending, %v ok; want 50, %v, %v, %v, %v, %v",
				c.full, m.Requests, m.Calls, m.RefusedLimiter, m.RetriesRefused, m.Failed, m.Pending, m.Successful,
				c.calls, c.refused, c.failed, c.pending, c.success)
		}
	}
}

// TestAIMDSteps follows AIMDLimit's rule sample by sample: +1 for a
// success sent with at least half the limit in flight, × backoff_ratio
// (truncated) for a drop or an answer later than rtt_timeout, within
// min_limit..max_limit; a group of k samples is k steps.
func TestAIMDSteps(t *testing.T) {
	p := LimiterPlan{Kind: "aimd", TickNs: int64(10 * time.Millisecond), Params: AIMDParams{InitialLimit: 10, MinLimit: 5, MaxLimit: 14,
		BackoffRatio: 0.9, RTTTimeout: Duration(time.Second)}}
	a := p.rule()
	for i, s := range []struct {
		k, rtt, inflight int64
		drop             bool
		want             int64
		why              string
	}{
		{1, 3, 5, false, 11, "5 × 2 ≥ 10: +1"},
		{1, 3, 5, false, 11, "5 × 2 < 11: stays"},
		{1, 3, 6, false, 12, "6 × 2 ≥ 11: +1"},
		{1, 3, 6, true, 10, "a drop: ⌊12 × 0.9⌋"},
		{1, 101, 9, false, 9, "a success after rtt_timeout (100 ticks) is a drop: ⌊10 × 0.9⌋"},
		{1, 100, 9, false, 10, "at rtt_timeout it is a success: +1"},
		{3, 3, 6, false, 13, "three successes: 11, 12, 13 (6 × 2 ≥ 12)"},
		{5, 3, 6, false, 13, "6 × 2 < 13: stays"},
		{10, 3, 100, false, 14, "ten successes, held at max_limit"},
		{2, 3, 100, true, 10, "two drops: ⌊14 × 0.9⌋ = 12, then ⌊12 × 0.9⌋ = 10"},
	} {
		a.sample(int64(i), s.k, s.rtt, s.inflight, s.drop)
		if got := a.limit(int64(i)); got != s.want {
			t.Fatalf("step %d (%s): limit %d, want %d", i, s.why, got, s.want)
		}
	}
	a.sample(10, 100, 3, 100, true)
	if got := a.limit(10); got != 5 {
		t.Errorf("a hundred drops: limit %d, want min_limit 5", got)
	}
}

// TestGradientFallsWithLatency: with the RTT steady the gradient limit
// grows by smoothing × queue_size a tick (while at least half the limit is
// in flight) up to max_limit; when the RTT triples it falls, by at most
// half of smoothing a tick, and it stands while little is in flight.
func TestGradientFallsWithLatency(t *testing.T) {
	p := LimiterPlan{Kind: "gradient", TickNs: int64(10 * time.Millisecond), Params: GradientParams{InitialLimit: 20, MinLimit: 5, MaxLimit: 60,
		Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600, QueueSize: 4}}
	g := p.rule()
	tick := int64(0)
	feed := func(n int, rtt, inflight int64) {
		for range n {
			g.sample(tick, 10, rtt, inflight, false)
			tick++
		}
		g.limit(tick) // the last tick's samples apply
	}
	feed(1, 9, 100)
	if got := g.limit(tick); got != 20 { // 20 × 0.8 + (20 × 1 + 4) × 0.2 = 20.8
		t.Fatalf("one steady tick: limit %d, want 20 (20.8)", got)
	}
	feed(100, 9, 100)
	steady := g.limit(tick)
	if steady != 60 {
		t.Fatalf("a hundred steady ticks: limit %d, want max_limit 60", steady)
	}
	feed(1, 29, 100)                     // the RTT triples: long = 10 × (1 − 2/601) + 30 × 2/601 ≈ 10.07, gradient 1.5 × 10.07 / 30 ≈ 0.503
	if got := g.limit(tick); got != 54 { // 60 × 0.8 + (60 × 0.503 + 4) × 0.2 ≈ 54.84
		t.Fatalf("a tick at three times the RTT: limit %d, want 54 (54.84)", got)
	}
	feed(20, 29, 100)
	high := g.limit(tick)
	if high >= 54 || high < 5 {
		t.Fatalf("twenty more ticks at three times the RTT: limit %d, want it falling below 54", high)
	}
	feed(5, 29, 1) // app limited: it stands
	if got := g.limit(tick); got != high {
		t.Errorf("with 1 in flight the limit moved from %d to %d; it should stand", high, got)
	}
}

// TestGradientRisesOnSteadyTimeouts: Gradient2Limit reads latency, not
// drops, so tries that all time out at the same RTT (an outage behind a
// fixed timeout) look like a steady latency once the long-term RTT has
// caught up with it: the gradient returns to 1 and the limit climbs by
// smoothing × queue_size a sample, to max_limit.
func TestGradientRisesOnSteadyTimeouts(t *testing.T) {
	p := LimiterPlan{Kind: "gradient", TickNs: int64(10 * time.Millisecond), Params: GradientParams{InitialLimit: 20, MinLimit: 20, MaxLimit: 200,
		Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600, QueueSize: 4}}
	g := p.rule()
	for tick := range int64(100) { // healthy: answered in 3 ticks
		g.sample(tick, 5, 3, 20, false)
	}
	least := g.limit(100)
	for tick := int64(100); tick < 3100; tick++ { // an outage: every try given up after 50 ticks
		g.sample(tick, 5, 50, g.limit(tick), true)
		least = min(least, g.limit(tick+1))
	}
	if got := g.limit(3100); got != 200 || least != 20 {
		t.Errorf("30 s of tries timing out: the limit fell to %d and ended at %d; want it held at min_limit 20 at first, then at max_limit 200", least, got)
	}
}

// TestGradientFallsInARun: in the engine, a gradient limit in front of a
// queue whose service slows down four times falls, within the first two
// seconds of the slowdown, below half of where it stood before it, and the
// limiter then refuses tries. (It does not stay down: with one sample a
// tick of 10 ms, the long-term RTT averages over 600 ticks, and catches up
// with the slow RTT within seconds, as the library's does over 600
// requests.)
func TestGradientFallsInARun(t *testing.T) {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Tick, sc.Duration = ms(10), Duration(60*time.Second)
	sc.Load, sc.Arrivals = 200, "poisson"
	sc.Dependency.Capacity, sc.Dependency.Latency = 400, ms(100)
	sc.Layer[0].Timeout = Duration(2 * time.Second)
	sc.Layer[0].Limiter = Limiter{Kind: "gradient", Scope: "layer", Full: "reject", QueueTimeout: Duration(time.Second),
		Params: GradientParams{InitialLimit: 40, MinLimit: 5, MaxLimit: 200, Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600, QueueSize: 4}}
	f := DefaultFault()
	f.Kind, f.Start, f.Length, f.Factor = "slowdown", Duration(30*time.Second), Duration(10*time.Second), 4
	sc.Fault = []Fault{f}
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	s := newStoch(p, 7, false)
	defer s.r.release()
	s.begin()
	from := int64(30 * time.Second / time.Duration(sc.Tick))
	s.advance(from)
	before := s.lims.of(0, 0).rule.limit(from)
	refused, least := s.c.refusedBy[byLimiter], before
	for tick := from; tick < from+200; tick++ {
		s.advance(tick + 1)
		least = min(least, s.lims.of(0, 0).rule.limit(tick+1))
	}
	if least >= before/2 || s.c.refusedBy[byLimiter] == refused {
		t.Errorf("gradient limit %d before a 4× slowdown, at least %d in its first 2 s, %d tries refused then; want it below half, and refusals",
			before, least, s.c.refusedBy[byLimiter]-refused)
	}
	t.Logf("limit %d before, down to %d in the slowdown's first 2 s", before, least)
}

// TestLimiterRefusals: a limiter on a layer that hedges (or on a flat
// chain that does), or a change that sets a limiter's key, is refused
// naming the key; the queue engine refuses
// every kind but none by name.
func TestLimiterRefusals(t *testing.T) {
	sc := limiterCase("reject")
	sc.Layer[0].Hedge = Hedge{Delay: ms(100), MaxShare: 0.1}
	if err := Check(&sc); err == nil || !strings.Contains(err.Error(), "layer.0.limiter.kind") {
		t.Errorf("a limiter on a hedging layer: %v; want it refused", err)
	}
	sc = limiterCase("reject")
	sc.Chain, sc.Layer = "flat", append(sc.Layer, DefaultLayer())
	sc.Layer[1].Hedge = Hedge{Delay: ms(100), MaxShare: 0.1}
	if err := Check(&sc); err == nil || !strings.Contains(err.Error(), "layer.0.limiter.kind") {
		t.Errorf("a limiter on a flat chain whose bottom layer hedges: %v; want it refused", err)
	}
	sc = limiterCase("reject")
	sc.Change = []Change{{At: Duration(2 * time.Second), Set: map[string]any{"layer.0.limiter.max": 8}}}
	then := sc
	then.Change = nil
	sc.Change[0].Then = &then
	if err := Check(&sc); err == nil || !strings.Contains(err.Error(), "change.0.set.layer.0.limiter.max") {
		t.Errorf("a change of a limiter's key: %v; want it refused", err)
	}
	for _, k := range kindsOf(limiterKinds()) {
		sc = limiterCase("reject")
		sc.Engine = "queue"
		if err := sc.Layer[0].Limiter.SetTableKind(k.Name); err != nil {
			t.Fatal(err)
		}
		err := Check(&sc)
		if k.Engines.Has("queue") != (err == nil) || err != nil && !strings.Contains(err.Error(), `"`+k.Name+`" (a concurrency limiter) needs engine`) {
			t.Errorf("limiter %s on the queue engine: %v", k.Name, err)
		}
	}
}
