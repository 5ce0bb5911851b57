package model

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// then gives sc a change at `at` whose scenario is sc with edit applied, as
// the loader builds it from the change's settings.
func then(sc Scenario, at time.Duration, set map[string]any, edit func(s *Scenario)) Scenario {
	next := sc
	next.Layer = append([]Layer(nil), sc.Layer...)
	next.Change = nil
	edit(&next)
	sc.Change = append(append([]Change(nil), sc.Change...), Change{At: Duration(at), Set: set, Then: &next})
	return sc
}

// TestSwitchToBudget: the FIG. 1 server stuck after a 3 s blip under
// immediate retries comes back within a few seconds once every client
// switches to the token bucket; switching to backoff, or backoff with
// jitter, leaves it stuck.
func TestSwitchToBudget(t *testing.T) {
	stuck := server60("immediate", 3*time.Second)
	base := runOne(t, stuck, 1)
	if base.Recovered() {
		t.Fatalf("the immediate policy recovered from the 3 s blip: %v", base)
	}
	for _, c := range []struct {
		name      string
		recovers  bool
		set       map[string]any
		edit      func(s *Scenario)
		recoveryS float64 // at most, after the blip's end (the switch is 20 s after it)
	}{
		{"budget", true, map[string]any{"budget.kind": "token_bucket"}, func(s *Scenario) {
			s.Budget = server60("budget", 0).Budget
		}, 20 + 5},
		{"backoff", false, map[string]any{"layer.0.backoff.kind": "exponential"}, func(s *Scenario) {
			s.Layer[0].Backoff = server60("backoff", 0).Layer[0].Backoff
		}, 0},
		{"jitter", false, map[string]any{"layer.0.backoff.jitter": "full"}, func(s *Scenario) {
			s.Layer[0].Backoff = server60("jitter", 0).Layer[0].Backoff
		}, 0},
	} {
		m := runOne(t, then(stuck, 43*time.Second, c.set, c.edit), 1)
		switch {
		case m.Recovered() != c.recovers:
			t.Errorf("switch to %s at 43 s: recovered %v, want %v: %v", c.name, m.Recovered(), c.recovers, m)
		case c.recovers && (m.RecoveryS < 20 || m.RecoveryS > c.recoveryS):
			t.Errorf("switch to %s 20 s after the blip: recovered after %v s, want within 5 s of the switch", c.name, m.RecoveryS)
		}
	}
}

// TestChangeBothEngines: turning retries off mid-storm in the 30-second-blip
// system gives the same run in both engines (constant arrivals, whole
// ticks): the storm stops growing, and the backlog left then drains at
// capacity − load = 30 calls/s.
func TestChangeBothEngines(t *testing.T) {
	var got []Metrics
	for _, engine := range []string{"queue", "stochastic"} {
		sc := then(blipStorm(engine, time.Hour), 100*time.Second, map[string]any{"layer.0.attempts": 1}, func(s *Scenario) { s.Layer[0].Attempts = 1 })
		m := runOne(t, sc, 1)
		got = append(got, m)
		// The queue peaks as the retries already due arrive, then drains;
		// healthy again once it is down to capacity × timeout.
		want := 10 + (m.PeakQueue-100)/30
		if !m.Recovered() || math.Abs(m.RecoveryS-want) > 2 {
			t.Errorf("%s: %v; want a recovery after about %.0f s (a backlog of %v draining at 30/s)", engine, m, want, m.PeakQueue)
		}
	}
	if got[0].String() != got[1].String() {
		t.Errorf("engines differ:\nqueue      %v\nstochastic %v", got[0], got[1])
	}
}

// TestChangeSettings: changes at impossible times or of keys that shape the
// run are refused where they are written.
func TestChangeSettings(t *testing.T) {
	sc := server60("immediate", 3*time.Second)
	same := func(*Scenario) {}
	for _, c := range []struct {
		sc   Scenario
		want string
	}{
		{then(sc, 200*time.Second, map[string]any{"load": 1}, same), "change.0.at: must be inside the run"},
		{then(then(sc, 50*time.Second, map[string]any{"load": 1}, same), 40*time.Second, map[string]any{"load": 2}, same), "change.1.at: changes must come in time order"},
		{then(sc, 50*time.Second, map[string]any{"tick": "1ms"}, same), "change.0.set.tick: tick cannot change during a run"},
		{then(sc, 50*time.Second, map[string]any{"fault": []any{}}, same), "change.0.set.fault: fault cannot change"},
		{then(sc, 50*time.Second, map[string]any{"layer.0.attempts": -1}, func(s *Scenario) { s.Layer[0].Attempts = -1 }), "change.0.set.layer.0.attempts"},
		{then(sc, 50*time.Second, map[string]any{"dependency.capacity": 0}, func(s *Scenario) {
			s.Dependency.Capacity, s.Dependency.LatencySlope = 0, Duration(time.Millisecond)
		}), "change.0.set"},
		{then(sc, 50*time.Second, map[string]any{}, same), "change.0.set: sets nothing"},
	} {
		_, err := c.sc.Resolve()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// A change's own settings are listed flat, in order.
	ch := Change{Set: map[string]any{"budget": map[string]any{"kind": "ratio", "ratio": 0.1}, "load": 5.0}}
	var paths []string
	for _, s := range ch.Settings() {
		paths = append(paths, s.Path)
	}
	if strings.Join(paths, " ") != "budget.kind budget.ratio load" {
		t.Errorf("settings %v", paths)
	}
}

// blipStorm is the 30-second blip of "Retry Storms: Simulate How a
// 30-Second Blip Becomes an Outage That Never Ends" with 27 attempts on an
// engine, d long: 70 requests/s at constant arrivals against 100/s, a 1 s
// timeout, an outage from 60 s to 90 s, 1 s ticks. It never recovers.
func blipStorm(engine string, d time.Duration) Scenario {
	sc := Default()
	sc.Engine = engine
	sc.Tick = Duration(time.Second)
	sc.Duration = Duration(d)
	sc.Load = 70
	sc.Layer = []Layer{DefaultLayer()}
	sc.Layer[0].Attempts = 27
	sc.Dependency.Capacity = 100
	sc.Fault = []Fault{{Kind: "outage", Start: Duration(60 * time.Second), Length: Duration(30 * time.Second), Factor: 1}}
	return sc
}

// withChange gives sc a change halfway through: fewer attempts at one
// layer, another budget, more or less capacity or load, another backoff.
func withChange(r *rand.Rand, sc Scenario) Scenario {
	at := time.Duration(sc.Duration) / 2
	return then(sc, at, map[string]any{"(random)": true}, func(s *Scenario) {
		l := &s.Layer[r.IntN(len(s.Layer))]
		l.Attempts = 1 + r.IntN(l.Attempts)
		switch r.IntN(4) {
		case 0:
			s.Budget = []Budget{{Kind: "none", Scope: "chain"}, {Kind: "per_tick", Scope: "chain", Params: PerTickParams{Ratio: 0.2}},
				{Kind: "ratio", Scope: "chain", Params: RatioParams{Ratio: 0.2}}, {Kind: "token_bucket", Scope: "chain", Params: TokenBucketParams{Ratio: 0.2, MaxTokens: 10}}}[r.IntN(4)]
		case 1:
			if s.Dependency.Capacity > 0 {
				s.Dependency.Capacity *= 0.5 + r.Float64()
			}
		case 2:
			if s.Load > 0 {
				s.Load *= 0.5 + r.Float64()
			}
		case 3:
			l.Backoff = Backoff{Kind: "exponential", Base: ms(50), Factor: 2, Cap: ms(800), Jitter: "full"}
			if s.Engine == "queue" { // whole ticks, no jitter
				l.Backoff = Backoff{Kind: "exponential", Base: s.Tick, Factor: 2, Cap: 8 * s.Tick, Jitter: "none"}
			}
		}
	})
}

// TestChangeInvariants: random scenarios with a change keep the engines'
// invariants, and never touch a group the engine let go of.
func TestChangeInvariants(t *testing.T) {
	long(t)
	t.Parallel()
	r := rand.New(rand.NewPCG(91, 92))
	for i := range 150 {
		sc := withChange(r, randomScenario(r))
		if sc.Engine == "queue" {
			continue
		}
		if _, ok := checkInvariants(t, i, sc, r.Uint64()); !ok {
			return
		}
		checkRecycling(t, i, sc, 3)
	}
	r = rand.New(rand.NewPCG(93, 94))
	for i := range 150 {
		if _, ok := checkInvariants(t, i, withChange(r, randomQueueScenario(r)), r.Uint64()); !ok {
			return
		}
	}
}

// TestChangeDropExpired: a change that makes the dependency drop expired
// work discards the abandoned calls already waiting, not only those
// abandoned from then on. In the 30-second-blip storm (27 attempts, 1 s
// timeout, stuck after the outage with 383,460 calls waiting) the waiting
// room keeps only the calls whose callers still wait, the last two ticks'
// 1,890 each, from the switch on, and the system comes back; the waiting
// room's counts stay exact (poisoned groups, checked every tick).
func TestChangeDropExpired(t *testing.T) {
	sc := then(blipStorm("stochastic", 10*time.Minute), 5*time.Minute, map[string]any{"dependency.drop_expired": true}, func(s *Scenario) { s.Dependency.DropExpired = true })
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	p.poison = true
	m, ser, _ := runStochastic(p, 1, true, nil)
	before, at := ser.Rows[299].Queue, ser.Rows[300].Queue
	if before < 380_000 || at > 2*1890 {
		t.Errorf("queue %v before the switch and %v at it; want the storm's backlog, then at most two ticks of calls", before, at)
	}
	if !m.Recovered() || m.AfterChangeS > 180 {
		t.Errorf("%v, healthy %v s after the switch; want within 3 minutes", m, m.AfterChangeS)
	}
}

// TestChangeStartsHedging: a change that turns hedging on in a chain: the
// tries in flight then were sent with no hedger to stamp them, so their
// latency is unknown and none of it reaches the new hedger (the engine
// read a send tick they never had, and stopped). One caller with a 100 ms
// timeout before a server answering in an exponential 20 ms: with a
// 50 ms delay, e^−2.5 ≈ 8.2% of calls are hedged from the change on, none
// before; at the 90th percentile of the answers, the delay settles near
// 20 ms · ln 10 ≈ 46 ms, some 10% of calls.
func TestChangeStartsHedging(t *testing.T) {
	for _, c := range []struct {
		name   string
		hedge  Hedge
		set    map[string]any
		lo, hi float64 // hedges per request after the change
	}{
		{"delay", Hedge{Delay: ms(50), MaxShare: 0.5}, map[string]any{"layer.0.hedge.delay": "50ms", "layer.0.hedge.max_share": 0.5},
			0.9 * math.Exp(-2.5), 1.1 * math.Exp(-2.5)},
		{"percentile", Hedge{Delay: ms(50), Percentile: 90, MaxShare: 0.5}, map[string]any{"layer.0.hedge.delay": "50ms", "layer.0.hedge.percentile": 90, "layer.0.hedge.max_share": 0.5},
			0.07, 0.13},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := Default()
			sc.Engine, sc.Tick, sc.Arrivals, sc.Duration, sc.Load = "stochastic", ms(1), "poisson", Duration(200*time.Second), 1000
			sc.Layer = []Layer{DefaultLayer()}
			sc.Layer[0].Timeout = ms(100)
			sc.Dependency.Capacity, sc.Dependency.Latency, sc.Dependency.Service = 1e6, ms(20), Service{Kind: "exponential"}
			const at = 100
			sc = then(sc, at*time.Second, c.set, func(s *Scenario) { s.Layer[0].Hedge = c.hedge })
			p, err := sc.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			res, err := RunPlan(t.Context(), p, 3, Options{Series: true})
			if err != nil {
				t.Fatal(err)
			}
			var hedges, requests float64
			for _, r := range res.Series.Rows {
				switch {
				case r.T < at && r.Hedges > 0:
					t.Fatalf("%g hedges at %g s, before the change", r.Hedges, r.T)
				case r.T >= at:
					hedges, requests = hedges+r.Hedges, requests+r.Requests
				}
			}
			if share := hedges / requests; share < c.lo || share > c.hi {
				t.Errorf("%.4f hedges per request after the change, want %.4f to %.4f", share, c.lo, c.hi)
			} else {
				t.Logf("%.4f hedges per request after the change", share)
			}
		})
	}
}
