package model

import (
	"math"
	"testing"
	"time"
)

// serviceHealth is the judgement of each service of s's run, by name.
func serviceHealth(s *stoch) map[string]Metrics {
	out := map[string]Metrics{}
	for i, m := range s.graph.health.verdicts(s.p0) {
		out[s.p.Graph.Services[i]] = m
	}
	return out
}

// outageFanOut is a gateway calling a and b in parallel (needing need) at
// 100 requests a second, 1 s ticks, a 3 s health window, for 20 s; a's
// server is out from 5 s to 10 s, b is never touched.
func outageFanOut(need string) Scenario {
	sc := graphScenario(100, 20*time.Second,
		[]GraphService{service("gateway", "parallel", need), backend("a", 0), backend("b", 0)},
		[]Layer{edge("", "gateway", 1), edge("gateway", "a", 1), edge("gateway", "b", 1)})
	sc.Health.Window = Duration(3 * time.Second)
	sc.Fault = []Fault{{Kind: "outage", Start: Duration(5 * time.Second), Length: Duration(5 * time.Second), Factor: 1, Service: "a"}}
	return sc
}

// TestServiceHealthOutage: a's outage fails every call made to it in
// ticks 5–9 (a loss server out serves none) and none after. Over a 3 s
// window a is first unhealthy in tick 5 (200 of 300 calls succeeded),
// and last in tick 11 (ticks 9–11: 200 of 300): healthy for good from
// 12 s, 2 s after the fault's end. b, called as often, answers every call:
// recovered in 0 s, never unhealthy. The gateway needing both is judged on
// the users' requests, as the run is, and fails as a does; needing either,
// it is never unhealthy.
func TestServiceHealthOutage(t *testing.T) {
	for _, c := range []struct {
		need                   string
		gwRecovery, gwCollapse float64
	}{{"all", 2, 5}, {"any", 0, math.NaN()}} {
		s := graphRunOf(t, outageFanOut(c.need), 1)
		h := serviceHealth(s)
		run := s.metrics()
		check := func(name string, v Verdict, rec, col float64) {
			t.Helper()
			m := h[name]
			if m.Verdict != v || !same(m.RecoveryS, rec) || !same(m.CollapseS, col) {
				t.Errorf("need %s: %s %v, recovery %g s, collapse %g s; want %v, %g s, %g s", c.need, name, m.Verdict, m.RecoveryS, m.CollapseS, v, rec, col)
			}
		}
		check("a", Recovered, 2, 5)
		check("b", Recovered, 0, math.NaN())
		check("gateway", Recovered, c.gwRecovery, c.gwCollapse)
		if gw := h["gateway"]; gw.Verdict != run.Verdict || !same(gw.RecoveryS, run.RecoveryS) || !same(gw.CollapseS, run.CollapseS) {
			t.Errorf("need %s: the gateway is judged %v, %g s, %g s; the run %v, %g s, %g s", c.need, gw.Verdict, gw.RecoveryS, gw.CollapseS, run.Verdict, run.RecoveryS, run.CollapseS)
		}
	}
}

// runCell runs sc as a grid cell seeded seed (runWith), with its plan.
func runCell(t *testing.T, sc Scenario, seed uint64, opt Options) (*Plan, Result) {
	t.Helper()
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return p, runWith(t, sc, seed, opt)
}

// same reports whether a and b are equal, NaN equal to NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestServiceHealthPerCall: a service is judged on calls, not tries. A
// backend failing a share p = 0.2 of the tries it serves, called with 2
// attempts, fails p² = 4% of its calls: 96% of the calls succeed, above
// the goodput of 95%, though only 0.96 / 1.2 = 80% of its tries do; with
// 1 attempt 80% of its calls succeed. At 1,000,000 calls a second, a
// second's successes (the first tries of its calls that succeed, and the
// retries of the last second's that do) are within some 540 of their mean
// (one standard error: √(1,000,000 × 0.8 × 0.2 × (1 + 0.64) + 200,000 ×
// 0.8 × 0.2)), 0.054%, far from the 1% margin, so the first is healthy in
// every tick but the first (a retry goes the tick after its failed try,
// so in tick 0 only the 80% that succeeded at once are answered) and the
// second in none.
func TestServiceHealthPerCall(t *testing.T) {
	for _, c := range []struct {
		attempts int
		want     Verdict
		collapse float64
		lastBad  int64
	}{{2, Recovered, 0, 0}, {1, Stuck, 0, 19}} {
		sc := graphScenario(1e6, 20*time.Second,
			[]GraphService{service("gateway", "parallel", "all"), backend("a", 0.2), backend("b", 0)},
			[]Layer{edge("", "gateway", 1), edge("gateway", "a", c.attempts), edge("gateway", "b", 1)})
		s := graphRunOf(t, sc, 1)
		h := serviceHealth(s)
		if a := h["a"]; a.Verdict != c.want || !same(a.CollapseS, c.collapse) {
			t.Errorf("%d attempts: a %v, collapse %g s; want %v, %g s", c.attempts, a.Verdict, a.CollapseS, c.want, c.collapse)
		}
		if last := s.graph.health.svc[1].lastBad; last != c.lastBad {
			t.Errorf("%d attempts: a last unhealthy in tick %d, want %d", c.attempts, last, c.lastBad)
		}
		// Without a fault the run is judged from its second tick: the calls
		// made to a from then on are the requests (one call each).
		gh := &s.graph.health.svc[1]
		if want := s.c.requests - 1e6; gh.demand != want || h["b"].Verdict != Recovered {
			t.Errorf("%d attempts: %d calls made to a after the first tick, want %d; b %v", c.attempts, gh.demand, want, h["b"].Verdict)
		}
	}
}

// TestServiceHealthSharedStuck: a database that fails every call makes
// both services calling it, and the front, stuck: none of their calls
// ever succeeds, and the database holds no backlog that could drain
// (each try is answered at once). First unhealthy in the first tick (a
// 1 s window). A database that never fails leaves all four recovered.
func TestServiceHealthSharedStuck(t *testing.T) {
	for _, c := range []struct {
		p        float64
		want     Verdict
		collapse float64
	}{{1, Stuck, 0}, {0, Recovered, math.NaN()}} {
		s := graphRunOf(t, sharedDatabase("parallel", 3, c.p), 1)
		for name, m := range serviceHealth(s) {
			if m.Verdict != c.want || !same(m.CollapseS, c.collapse) {
				t.Errorf("database failing %g: %s %v, collapse %g s; want %v, %g s", c.p, name, m.Verdict, m.CollapseS, c.want, c.collapse)
			}
		}
	}
}

// TestServiceHealthColumns: the columns <service>.verdict, .recovery_s
// and .collapse_s, over replicates, are aggregated as the run's verdict,
// recovery_s and collapse_s: the gateway's, judged on the users'
// requests, equal them, mean and spread, in a cell whose replicates
// differ (a backend failing 5% of its calls sits on the goodput of 95%).
func TestServiceHealthColumns(t *testing.T) {
	sc := outageFanOut("all")
	sc.Replicates = 8
	sc.Graph.Service[2].Server.FailureProbability = 0.05
	p, r := runCell(t, sc, 3, Options{})
	ms := GraphMetrics(p.Graph)
	col := func(name string) (mean, sd float64) {
		t.Helper()
		m, ok := metricNamed(ms, name)
		if !ok {
			t.Fatalf("no column %s", name)
		}
		if m.SD == nil {
			return m.Value(&r), math.NaN()
		}
		return m.Value(&r), m.SD(&r)
	}
	if !(r.RecoveredShare > 0 && r.RecoveredShare < 1) {
		t.Fatalf("%g of the replicates recovered: the test needs them to differ", r.RecoveredShare)
	}
	v, _ := col("gateway.verdict")
	rec, recSD := col("gateway.recovery_s")
	coll, collSD := col("gateway.collapse_s")
	if Verdict(v) != r.Verdict || !same(rec, r.RecoveryS) || !same(recSD, r.SD.RecoveryS) || !same(coll, r.CollapseS) || !same(collSD, r.SD.CollapseS) {
		t.Errorf("gateway: %v, recovery %g ± %g, collapse %g ± %g; the cell: %v, %g ± %g, %g ± %g",
			Verdict(v), rec, recSD, coll, collSD, r.Verdict, r.RecoveryS, r.SD.RecoveryS, r.CollapseS, r.SD.CollapseS)
	}
	if v, _ := col("a.verdict"); Verdict(v) != Recovered {
		t.Errorf("a: %v, want recovered in every replicate", Verdict(v))
	}
	if m, _ := metricNamed(ms, "b.verdict"); m.Kind != "verdict" || m.SD != nil {
		t.Errorf("b.verdict: kind %q, a spread %v; want a verdict without", m.Kind, m.SD != nil)
	}
}

// TestAggregateGraphHealth: a service's columns over replicates follow
// the cell's rules. Recovered after 2 s and after 4 s, and stuck: stuck
// (cellVerdict), recovery 3 ± √2 s over the two that recovered, collapse
// over the ones that collapsed; a replicate not judged is left out of the
// verdict; all recovered, recovered.
func TestAggregateGraphHealth(t *testing.T) {
	sc := outageFanOut("all")
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	ms := GraphMetrics(p.Graph)
	at := map[string]int{}
	for i, m := range ms {
		at[m.Name] = i
	}
	nan := math.NaN()
	row := func(v Verdict, rec, col float64) []float64 {
		x := make([]float64, len(ms))
		x[at["a.verdict"]], x[at["a.recovery_s"]], x[at["a.collapse_s"]] = float64(v), rec, col
		return x
	}
	for _, c := range []struct {
		runs         [][]float64
		v            Verdict
		rec, recSD   float64
		coll, collSD float64
	}{
		{[][]float64{row(Recovered, 2, 5), row(Recovered, 4, 7), row(Stuck, nan, 5)}, Stuck, 3, math.Sqrt2, 17.0 / 3, math.Sqrt(4.0 / 3)},
		{[][]float64{row(Recovered, 2, nan), row(NotJudged, nan, nan), row(Recovered, 2, 5)}, Recovered, 2, 0, 5, 0},
		{[][]float64{row(Draining, nan, 1), row(Recovered, 1, 3)}, Draining, 1, 0, 2, math.Sqrt2},
	} {
		out := aggregateGraph(p.Graph, c.runs)
		v, rec, coll := out[at["a.verdict"]], out[at["a.recovery_s"]], out[at["a.collapse_s"]]
		if Verdict(v.Mean) != c.v || math.Abs(rec.Mean-c.rec) > 1e-12 || math.Abs(rec.SD-c.recSD) > 1e-12 ||
			math.Abs(coll.Mean-c.coll) > 1e-12 || math.Abs(coll.SD-c.collSD) > 1e-12 {
			t.Errorf("%v: %v, recovery %g ± %g, collapse %g ± %g; want %v, %g ± %g, %g ± %g",
				c.runs, Verdict(v.Mean), rec.Mean, rec.SD, coll.Mean, coll.SD, c.v, c.rec, c.recSD, c.coll, c.collSD)
		}
	}
}

// TestServiceHealthDraining: the shared database's outage (10 s at 60 s,
// 300 calls a second, two services calling it for each of 100 requests a
// second) leaves a queue that is still falling when an 80 s run ends:
// the cell is draining, and so is each service, whose backlog is the
// database's queue its calls wait in; the front, judged on the users'
// requests, is the cell exactly.
func TestServiceHealthDraining(t *testing.T) {
	db := backend("db", 0)
	db.Server.Capacity, db.Server.Queue = 300, "fifo"
	edges := []Layer{edge("", "front", 1), edge("front", "orders", 1), edge("front", "users", 1), edge("orders", "db", 1), edge("users", "db", 1)}
	edges[0].Timeout = Duration(2 * time.Second)
	edges[3].Timeout, edges[4].Timeout = Duration(300*time.Millisecond), Duration(300*time.Millisecond)
	sc := graphScenario(100, 80*time.Second,
		[]GraphService{service("front", "parallel", "all"), service("orders", "parallel", "all"), service("users", "parallel", "all"), db}, edges)
	sc.Tick, sc.Arrivals, sc.Replicates = Duration(10*time.Millisecond), "poisson", 5
	sc.Health.Window = Duration(10 * time.Second)
	sc.Fault = []Fault{{Kind: "outage", Start: Duration(60 * time.Second), Length: Duration(10 * time.Second), Factor: 1, Service: "db"}}
	p, r := runCell(t, sc, 7, Options{})
	if r.Verdict != Draining {
		t.Fatalf("the cell is %v; the test needs it draining", r.Verdict)
	}
	ms := GraphMetrics(p.Graph)
	for _, name := range p.Graph.Services {
		m, _ := metricNamed(ms, name+".verdict")
		if v := Verdict(m.Value(&r)); v != Draining {
			t.Errorf("%s %v, want draining", name, v)
		}
	}
	c, _ := metricNamed(ms, "front.collapse_s")
	if got := c.Value(&r); got != r.CollapseS {
		t.Errorf("front collapsed at %g s, the cell at %g s", got, r.CollapseS)
	}
}

// TestServiceSeries: each service's series in outageFanOut, a row a
// second: 100 calls a second to each backend; a's 100 fail in each second
// of its outage (5 s to 10 s) and succeed otherwise, and a is unhealthy
// from 5 s to 12 s (a 3 s window); b never fails; the gateway's calls are
// the users' requests and its health the run's, row by row.
func TestServiceSeries(t *testing.T) {
	sc := outageFanOut("all")
	_, r := runCell(t, sc, 1, Options{Series: true})
	ss := r.Series.Services
	if len(ss) != 3 || ss[0].Name != "gateway" || ss[1].Name != "a" || ss[2].Name != "b" {
		t.Fatalf("services %+v", ss)
	}
	for j, row := range r.Series.Rows {
		a, b, gw := ss[1].Rows[j], ss[2].Rows[j], ss[0].Rows[j]
		out := j >= 5 && j < 10
		want := ServiceRow{Calls: 100, Succeeded: 100, Tries: 100, Unhealthy: j >= 5 && j < 12}
		if out {
			want.Succeeded, want.Failed = 0, 100
		}
		if a != want {
			t.Errorf("row %d: a %+v, want %+v", j, a, want)
		}
		if b != (ServiceRow{Calls: 100, Succeeded: 100, Tries: 100}) {
			t.Errorf("row %d: b %+v", j, b)
		}
		if gw.Calls != row.Requests || gw.Succeeded != row.Successes || gw.Unhealthy != row.Unhealthy {
			t.Errorf("row %d: the gateway %+v; the run %g requests, %g successes, unhealthy %v", j, gw, row.Requests, row.Successes, row.Unhealthy)
		}
	}
	if len(ss[1].Rows) != 20 {
		t.Errorf("%d rows, want 20", len(ss[1].Rows))
	}
}

// TestServiceSeriesIdle: rows of ten 100 ms ticks, and a load of 3
// requests a second (Poisson), so that most ticks are idle stretches: each
// service's rows sum to its columns, and the gateway's health, row by
// row, is the run's; a chain's series has no services.
func TestServiceSeriesIdle(t *testing.T) {
	sc := outageFanOut("all")
	sc.Load, sc.Arrivals, sc.Tick = 3, "poisson", Duration(100*time.Millisecond)
	sc.Duration = Duration(60 * time.Second)
	p, r := runCell(t, sc, 5, Options{Series: true})
	ms := GraphMetrics(p.Graph)
	bad := 0
	for _, s := range r.Series.Services {
		var tries, failed float64
		for j, row := range s.Rows {
			tries += row.Tries
			failed += row.Failed
			if s.Name == "gateway" && row.Unhealthy != r.Series.Rows[j].Unhealthy {
				t.Errorf("row %d: the gateway unhealthy %v, the run %v", j, row.Unhealthy, r.Series.Rows[j].Unhealthy)
			}
			if s.Name == "gateway" && row.Unhealthy {
				bad++
			}
		}
		mt, _ := metricNamed(ms, s.Name+".tries")
		mf, _ := metricNamed(ms, s.Name+".failed")
		if tries != mt.Value(&r) || failed != mf.Value(&r) || len(s.Rows) != 60 {
			t.Errorf("%s: %d rows, %g tries and %g failed; its columns %g and %g", s.Name, len(s.Rows), tries, failed, mt.Value(&r), mf.Value(&r))
		}
	}
	if bad == 0 {
		t.Error("the gateway was never unhealthy: the test needs the outage to show")
	}
	chain := Default()
	chain.Engine = "stochastic"
	if c, err := Run(chain, 1, true); err != nil || c.Series == nil || c.Series.Services != nil {
		t.Errorf("a chain's series: %v, services %v", err, c.Series != nil && c.Series.Services != nil)
	}
}
