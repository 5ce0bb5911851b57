package model

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// failingFan is a gateway calling a, whose server fails every call, and b,
// which fails none, in parallel, at 100 requests a second over 100 s of
// 1 s ticks, each call with attempts tries: a try fails at once and is
// retried in the next tick.
func failingFan(attempts int) Scenario {
	return graphScenario(100, 100*time.Second,
		[]GraphService{service("gateway", "parallel", "all"), backend("a", 1), backend("b", 0)},
		[]Layer{edge("", "gateway", 1), edge("gateway", "a", attempts), edge("gateway", "b", attempts)})
}

// serviceIndex is the index of the service named name in p's graph.
func serviceIndex(t *testing.T, p *Plan, name string) int {
	t.Helper()
	for i, n := range p.Graph.Services {
		if n == name {
			return i
		}
	}
	t.Fatalf("no service %q", name)
	return -1
}

// TestGraphChange: a change in a graph switches each call to its edge's
// new policy at its tick, and the run goes on as the graph with that
// policy from the start runs: 2 s after the change (the retries of the
// calls made before it are out by then) every service's rows are that
// run's, while before it they are the run's without the change.
//   - attempts 1 → 3 on the call to a, which fails every call: a sees
//     exactly 1 try per call before, exactly 3 after;
//   - a per_tick budget of 0.5 retries per request per edge added, the
//     calls of 3 attempts: a's 200 retries a tick cut to 50, so 150 tries
//     per 100 calls;
//   - the budget per edge switched to one per callee, in the shared
//     database of two services of 3 attempts into a database that fails
//     every call: 2 × 100 retries a tick (each edge's budget of 1 retry per
//     request) become 100 (the database's one budget), 400 tries a tick
//     become 300. The budgets keep their kind and keys: only the calls
//     they cover change.
func TestGraphChange(t *testing.T) {
	perTick := func(s *Scenario, ratio float64, scope string) {
		s.Budget.Kind, s.Budget.Params, s.Budget.Scope = "per_tick", PerTickParams{Ratio: ratio}, scope
	}
	const at = 50
	for _, c := range []struct {
		name           string
		before         Scenario
		set            map[string]any
		edit           func(s *Scenario)
		svc            string
		triesPerCall   [2]float64 // at svc, before and after
		callsPerSecond float64
	}{
		{"attempts 1 → 3", failingFan(1), map[string]any{"graph.edge.1.attempts": 3}, func(s *Scenario) {
			s.Graph.Edge[1].Attempts = 3
		}, "a", [2]float64{1, 3}, 100},
		{"a budget per edge added", failingFan(3), map[string]any{"budget.kind": "per_tick", "budget.ratio": 0.5, "budget.scope": "edge"}, func(s *Scenario) {
			perTick(s, 0.5, "edge")
		}, "a", [2]float64{3, 1.5}, 100},
		{"budget per edge → per callee", func() Scenario {
			sc := sharedDatabase("parallel", 3, 1)
			perTick(&sc, 1, "edge")
			return sc
		}(), map[string]any{"budget.scope": "callee"}, func(s *Scenario) {
			s.Budget.Scope = "callee"
		}, "db", [2]float64{2, 1.5}, 200},
	} {
		after := c.before
		after.Graph.Edge = append([]Layer(nil), c.before.Graph.Edge...)
		c.edit(&after)
		changed := c.before
		changed.Graph.Edge = append([]Layer(nil), c.before.Graph.Edge...)
		changed = then(changed, at*time.Second, c.set, func(s *Scenario) {
			s.Graph.Edge = append([]Layer(nil), s.Graph.Edge...)
			c.edit(s)
		})
		beforeRows, beforeSvc := graphRows(t, c.before, 1)
		afterRows, afterSvc := graphRows(t, after, 1)
		rows, svc := graphRows(t, changed, 1)
		p, err := changed.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		if p.Graph == nil || len(p.Changes) != 1 {
			t.Fatalf("%s: resolved to a graph %v with %d changes", c.name, p.Graph != nil, len(p.Changes))
		}
		x := serviceIndex(t, p, c.svc)
		if !reflect.DeepEqual(svc[:at], beforeSvc[:at]) || !reflect.DeepEqual(rows[:at], beforeRows[:at]) {
			t.Errorf("%s: the rows before the change differ from the run's without it", c.name)
		}
		if !reflect.DeepEqual(svc[at+2:], afterSvc[at+2:]) {
			t.Errorf("%s: the services' rows from 2 s after the change differ from the run's with its policy from the start", c.name)
		}
		for r := at + 2; r < len(rows)-2; r++ { // the run's last ticks end with retries to come
			if a, b := rows[r].Calls, afterRows[r].Calls; a != b {
				t.Errorf("%s: %g tries at %d s, %g in the run with the policy from the start", c.name, a, r, b)
				break
			}
		}
		for r := 2; r < len(svc)-2; r++ {
			want := c.triesPerCall[0]
			if r >= at+2 {
				want = c.triesPerCall[1]
			} else if r >= at {
				continue
			}
			if row := svc[r][x]; row.Calls != c.callsPerSecond || row.Tries != want*row.Calls {
				t.Errorf("%s: %s at %d s: %g tries for %g calls, want %g per call", c.name, c.svc, r, row.Tries, row.Calls, want)
				break
			}
		}
	}
}

// TestGraphChangeShape: a change may set an edge's policy, a server's keys
// or the load, never the graph's shape: each setting that would is refused
// by its key, the change's index named.
func TestGraphChangeShape(t *testing.T) {
	for _, c := range []struct {
		path string
		set  any
		edit func(s *Scenario)
		want string
	}{
		{"graph.edge.1.to", "b", func(s *Scenario) { s.Graph.Edge[1].To = "b" }, "a change may not alter a graph's shape"},
		{"graph.edge.0.share", 0.5, func(s *Scenario) { s.Graph.Edge[0].Share = 0.5 }, "a change may not alter a graph's shape"},
		{"graph.service.0.need", "any", func(s *Scenario) { s.Graph.Service[0].Need = "any" }, "a change may not alter a graph's shape"},
		{"graph.service.2.name", "c", func(s *Scenario) { s.Graph.Service[2].Name = "c" }, "a change may not alter a graph's shape"},
		{"graph.service.*.server.capacity", 0, func(s *Scenario) {
			for i := range s.Graph.Service {
				s.Graph.Service[i].Server.Capacity = 0
			}
		}, "a change may not alter a graph's shape"},
		{"graph.edge.3.attempts", 2, func(s *Scenario) {
			l := DefaultLayer()
			l.Attempts = 2
			s.Graph.Edge = append(s.Graph.Edge, l)
		}, "a change may not alter a graph's shape"},
		{"graph.service.1.server.queue", "fifo", func(s *Scenario) { s.Graph.Service[1].Server.Queue = "fifo" }, "a server's queue cannot change during a run"},
	} {
		sc := failingFan(1)
		good := then(sc, 10*time.Second, map[string]any{"load": 50}, func(s *Scenario) { s.Load = 50 })
		bad := then(good, 20*time.Second, map[string]any{c.path: c.set}, func(s *Scenario) {
			s.Graph.Service = append([]GraphService(nil), s.Graph.Service...)
			s.Graph.Edge = append([]Layer(nil), s.Graph.Edge...)
			c.edit(s)
		})
		_, err := bad.Resolve()
		fe, ok := err.(*FieldError)
		if !ok || fe.Path != "change.1.set."+c.path || !strings.Contains(fe.Msg, c.want) {
			t.Errorf("%s = %v: got %v, want change.1.set.%s: …%s…", c.path, c.set, err, c.path, c.want)
		}
	}
	same := then(failingFan(1), 10*time.Second, map[string]any{"graph.edge.1.to": "a"}, func(*Scenario) {})
	if _, err := same.Resolve(); err != nil {
		t.Errorf("a change that sets an edge's to as it was: %v", err)
	}
}

// TestStepperGraphLiveChange: a policy change made in a graph's running
// run at the row it has reached, then a fault 5 rows later (unforeseen),
// continue it as the file with that change and that fault runs from the
// start: the same rows, and the same rows of every service. The change
// takes up there: the rows after it differ from the run's without it,
// and those before it do not.
func TestStepperGraphLiveChange(t *testing.T) {
	const at, faultAt = 10, 15 // the rows (1 s each) the change and the fault are made at
	for name, sc := range liveGraphs() {
		set := map[string]any{"graph.edge.1.attempts": 3, "graph.service.1.server.failure_probability": 0.3}
		edit := func(s *Scenario) {
			s.Graph.Service = append([]GraphService(nil), s.Graph.Service...)
			s.Graph.Edge = append([]Layer(nil), s.Graph.Edge...)
			s.Graph.Edge[1].Attempts = 3
			s.Graph.Service[1].Server.FailureProbability = 0.3
		}
		hit := "b"
		if name == "shared database" {
			set = map[string]any{"graph.edge.3.attempts": 1, "budget.kind": "per_tick", "budget.ratio": 0.2, "budget.scope": "callee"}
			edit = func(s *Scenario) {
				s.Graph.Edge = append([]Layer(nil), s.Graph.Edge...)
				s.Graph.Edge[3].Attempts = 1
				s.Budget.Kind, s.Budget.Params, s.Budget.Scope = "per_tick", PerTickParams{Ratio: 0.2}, "callee"
			}
			hit = "db"
		}
		withChange := then(sc, at*time.Second, set, edit)
		f := Fault{Kind: "outage", Start: Duration(faultAt * time.Second), Length: Duration(5 * time.Second), Factor: 1, Service: hit, Unforeseen: true}
		withBoth := withChange
		withBoth.Fault = []Fault{f}
		_, changed := graphRows(t, withChange, 9)
		wantRows, want := graphRows(t, withBoth, 9)
		_, without := graphRows(t, sc, 9)

		st := NewStepper(resolved(t, sc), 9, 0)
		var rows []SeriesRow
		for _, step := range []struct {
			rows int
			then Scenario
		}{{at, withChange}, {faultAt - at, withBoth}, {st.MaxRows(), Scenario{}}} {
			out, err := st.Advance(context.Background(), step.rows)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, out...)
			if step.then.Graph.on() {
				if err := st.Replan(resolved(t, step.then)); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
		}
		got := st.Services(0)
		st.Close()
		sameAsFile(t, name, rows, wantRows, got, want)
		if !reflect.DeepEqual(want[:faultAt], changed[:faultAt]) {
			t.Errorf("%s: the fault changed the rows before it", name)
		}
		if !reflect.DeepEqual(changed[:at], without[:at]) {
			t.Errorf("%s: the change changed the rows before it", name)
		}
		if reflect.DeepEqual(changed[at+1:], without[at+1:]) {
			t.Errorf("%s: the change changed nothing after it", name)
		}
	}
}

// resolved is sc's plan.
func resolved(t *testing.T, sc Scenario) *Plan {
	t.Helper()
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGraphChangeHedge: a change that makes one call of a fan-out hedge
// (the call to a, after 50 ms; its answers take an exponential 20 ms on
// average, as TestHedgedFanOut's) gives that call a hedger of its own at
// the change: no hedge is sent before it, and after it e^−2.5 ≈ 0.082 per
// request, a's calls that have no answer after 50 ms (within 10%).
func TestGraphChangeHedge(t *testing.T) {
	long(t)
	sc := hedgedFanOut(Hedge{})
	sc.Duration = Duration(200 * time.Second)
	const at = 100
	h := Hedge{Delay: ms(50), MaxShare: 0.5}
	sc = then(sc, at*time.Second, map[string]any{"graph.edge.1.hedge.delay": "50ms", "graph.edge.1.hedge.max_share": 0.5}, func(s *Scenario) {
		s.Graph.Edge = append([]Layer(nil), s.Graph.Edge...)
		s.Graph.Edge[1].Hedge = h
	})
	rows, _ := graphRows(t, sc, 5)
	var hedges, requests float64
	for _, r := range rows {
		switch {
		case r.T < at && r.Hedges > 0:
			t.Fatalf("%g hedges at %g s, before the change", r.Hedges, r.T)
		case r.T >= at:
			hedges, requests = hedges+r.Hedges, requests+r.Requests
		}
	}
	if want := math.Exp(-2.5); math.Abs(hedges/requests-want) > 0.1*want {
		t.Errorf("%.4f hedges per request after the change, want %.4f within 10%%", hedges/requests, want)
	}
}
