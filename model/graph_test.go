package model

import (
	"math"
	"strings"
	"testing"
	"time"
)

// graphScenario is a stochastic scenario of constant arrivals at load per
// second, 1 s ticks, over the given time, with the graph of services
// and edges.
func graphScenario(load float64, over time.Duration, services []GraphService, edges []Layer) Scenario {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Load = load
	sc.Duration = Duration(over)
	sc.Graph = Graph{Service: services, Edge: edges}
	return sc
}

// service is a service named name without a server, calling as calls
// says, needing need.
func service(name, calls, need string) GraphService {
	s := DefaultService()
	s.Name, s.Calls, s.Need = name, calls, need
	return s
}

// backend is a service with a loss server of ample capacity whose served
// calls fail with probability p.
func backend(name string, p float64) GraphService {
	s := DefaultService()
	s.Name = name
	s.Server.Capacity, s.Server.Queue, s.Server.FailureProbability = 1e8, "none", p
	return s
}

// edge is a call from from to to with the given attempts and a 1 s
// timeout.
func edge(from, to string, attempts int) Layer {
	l := DefaultLayer()
	l.From, l.To, l.Attempts = from, to, attempts
	return l
}

// fanOut is the users calling a gateway that calls n backends in
// parallel, needing need of them, each failing a share p of its calls,
// each call made with attempts tries.
func fanOut(n int, p float64, attempts int, need string, quorum int) Scenario {
	gw := service("gateway", "parallel", need)
	gw.Quorum = quorum
	services := []GraphService{gw}
	edges := []Layer{edge("", "gateway", 1)}
	for i := range n {
		name := string(rune('a' + i))
		services = append(services, backend(name, p))
		edges = append(edges, edge("gateway", name, attempts))
	}
	return graphScenario(10000, 300*time.Second, services, edges)
}

// TestFanOutArithmetic: a request to three backends in parallel, each
// call failing independently with probability p, fails when any call
// does: 1 − (1 − p)³ of the requests, 0.271 at p = 0.1; with 2 attempts
// per call a call fails with p², so 1 − (1 − 0.01)³. Any one of three
// fails when all do (p³); a quorum of two when two or three do
// (3p²(1 − p) + p³). The first two within 1% over 3,000,000 requests
// (10 and 3 standard errors); the rarer two within 4 standard errors
// (1% of p³ is a little over half of one).
func TestFanOutArithmetic(t *testing.T) {
	p := 0.1
	for _, c := range []struct {
		name, need string
		sc         Scenario
		want       float64
		attempts   int
	}{
		{"all of 3, 1 attempt", "all", fanOut(3, p, 1, "all", 0), 1 - math.Pow(1-p, 3), 1},
		{"all of 3, 2 attempts", "all", fanOut(3, p, 2, "all", 0), 1 - math.Pow(1-p*p, 3), 2},
		{"any of 3", "any", fanOut(3, p, 1, "any", 0), p * p * p, 1},
		{"quorum 2 of 3", "quorum", fanOut(3, p, 1, "quorum", 2), 3*p*p*(1-p) + p*p*p, 1},
	} {
		if c.name == "all of 3, 1 attempt" && math.Abs(c.want-0.271) > 1e-12 {
			t.Fatalf("1 − 0.9³ = %v, not 0.271", c.want)
		}
		m := runOne(t, c.sc, 1)
		answered := m.Successful + m.Failed // all but the last tick's retried ones
		share := m.Failed / answered
		if m.Requests != 3e6 || answered < m.Requests-10000 {
			t.Errorf("%s: %v requests, %v successful, %v failed", c.name, m.Requests, m.Successful, m.Failed)
		}
		tol := 0.01 * c.want
		if c.need != "all" {
			tol = 4 * math.Sqrt(c.want*(1-c.want)/answered)
		}
		if math.Abs(share-c.want) > tol {
			t.Errorf("%s: %.5f of requests failed, want %.5f within %.5f", c.name, share, c.want, tol)
		}
		// Every call reached a backend: 3 per request, and each failed
		// call of a request with attempts left made one more.
		if c.attempts == 1 && m.Calls != 3*m.Requests {
			t.Errorf("%s: %v calls for %v requests, want 3 each", c.name, m.Calls, m.Requests)
		}
	}
}

// sharedDatabase is the users calling a front service that calls two
// services, in parallel or in sequence, each calling one database with
// attempts tries; the database has a capacity server whose calls fail
// with probability p.
func sharedDatabase(calls string, attempts int, p float64) Scenario {
	db := backend("db", p)
	db.Server.Capacity, db.Server.Queue = 1e6, "fifo"
	edges := []Layer{edge("", "front", 1), edge("front", "orders", 1), edge("front", "users", 1), edge("orders", "db", attempts), edge("users", "db", attempts)}
	for i := range edges {
		edges[i].Timeout = 0 // every caller waits for its answer
	}
	return graphScenario(100, 100*time.Second,
		[]GraphService{service("front", calls, "all"), service("orders", "parallel", "all"), service("users", "parallel", "all"), db}, edges)
}

// graphRunOf runs sc's plan once and returns the run, for its counts.
func graphRunOf(t *testing.T, sc Scenario, seed uint64) *stoch {
	t.Helper()
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if p.Graph == nil {
		t.Fatal("the scenario resolved to a chain")
	}
	s := newStoch(p, seed, false)
	s.g = newGuard(t.Context(), 0)
	s.run()
	return s
}

// TestSharedDatabase: two services of 3 attempts each call one database
// that fails every call. Called in parallel, the database sees every try
// of both: exactly 3 + 3 calls per request, each service's tries counted
// apart summing to the database's calls. Called in sequence, the second
// service is never called, as the first never succeeds: 3 per request.
// A try fails at once and is retried in the next tick, so the requests
// of the run's last two ticks are still pending when it ends, with the
// tries of their first two ticks, and of their first, made.
func TestSharedDatabase(t *testing.T) {
	for _, c := range []struct {
		calls       string
		perRequest  int64
		secondTries int64
		firstTries  int64 // of a request still pending, in each tick
	}{{"parallel", 6, 3, 2}, {"sequence", 3, 0, 1}} {
		s := graphRunOf(t, sharedDatabase(c.calls, 3, 1), 1)
		db := s.p.Graph.Services
		var dbIndex int
		for i, n := range db {
			if n == "db" {
				dbIndex = i
			}
		}
		nodes := s.p.Graph.Nodes
		var tries []int64 // of the calls into the database, in tree order
		for i, n := range nodes {
			if n.Service == dbIndex {
				tries = append(tries, s.graph.tries[i])
			}
		}
		req, failed, pending := s.c.requests, s.c.failed, s.inFlight()
		calls := s.graph.servers.calls[dbIndex]
		if req != 10000 || failed != 9800 || pending != 200 || s.c.ok != 0 {
			t.Errorf("%s: %d requests, %d failed, %d ok; want 10,000, all but the last two ticks' 200 failed", c.calls, req, failed, s.c.ok)
		}
		if len(tries) != 2 || calls != tries[0]+tries[1] || calls != s.c.calls {
			t.Errorf("%s: the database saw %d calls, the services sent %v tries, the run counts %d calls", c.calls, calls, tries, s.c.calls)
		}
		if want := c.perRequest*failed + 3*c.firstTries*100; calls != want || tries[1] != c.secondTries*failed+c.secondTries*100 {
			t.Errorf("%s: %d calls to the database for %d failed and %d pending requests (second service %d tries), want %d", c.calls, calls, failed, pending, tries[1], want)
		}
	}
}

// TestServersApart: each service's server keeps its own keys. A gateway
// calls a and b in parallel at 100 requests per second; a is a loss
// server of 40 calls a second, b one of ample capacity whose calls all
// fail. Needing all, every request fails; needing any, exactly the 40 a
// second that a serves succeed; in sequence (a, then b), 40 a second
// reach b and fail there, and b sees only those.
func TestServersApart(t *testing.T) {
	two := func(calls, need string) Scenario {
		a := backend("a", 0)
		a.Server.Capacity = 40
		return graphScenario(100, 10*time.Second,
			[]GraphService{service("gateway", calls, need), a, backend("b", 1)},
			[]Layer{edge("", "gateway", 1), edge("gateway", "a", 1), edge("gateway", "b", 1)})
	}
	for _, c := range []struct {
		calls, need    string
		ok, failed     int64
		callsA, callsB int64
	}{
		{"parallel", "all", 0, 1000, 1000, 1000},
		{"parallel", "any", 400, 600, 1000, 1000},
		{"sequence", "all", 0, 1000, 1000, 400},
	} {
		s := graphRunOf(t, two(c.calls, c.need), 1)
		calls := s.graph.servers.calls
		if s.c.ok != c.ok || s.c.failed != c.failed || calls[1] != c.callsA || calls[2] != c.callsB {
			t.Errorf("%s %s: %d ok, %d failed, %d calls to a, %d to b; want %d, %d, %d, %d",
				c.calls, c.need, s.c.ok, s.c.failed, calls[1], calls[2], c.ok, c.failed, c.callsA, c.callsB)
		}
	}
}

// TestFanSplit: answers to one parallel call are spread over the
// instances waiting for it, and decide them as their need says. Three
// calls needing two: 10 instances; 4 successes to call 0, then 10 to call
// 1 decide exactly the 4 that succeeded twice; then 6 failures to call 0
// (the other 6) and 10 to call 2 decide the rest (failed: they had one
// success of three, needing two; and the 4 successes already decided are
// counted as wasted if call 2 succeeds for them).
func TestFanSplit(t *testing.T) {
	r := newPCG(1)
	f := new(fan)
	f.add(3, 10)
	if ok, bad, w := f.answer(r, 0, 4, true, 3, 2); ok+bad+w != 0 {
		t.Fatalf("one success each decides nothing: %d %d %d", ok, bad, w)
	}
	if ok, bad, w := f.answer(r, 1, 10, true, 3, 2); ok != 4 || bad != 0 || w != 0 {
		t.Fatalf("a second success decides the 4: %d %d %d", ok, bad, w)
	}
	if ok, bad, w := f.answer(r, 0, 6, false, 3, 2); ok+bad+w != 0 {
		t.Fatalf("one success, one failure decides nothing: %d %d %d", ok, bad, w)
	}
	ok, bad, w := f.answer(r, 2, 10, true, 3, 2)
	if ok != 6 || bad != 0 || w != 4 {
		t.Fatalf("the third call's successes: %d succeed, %d fail, %d wasted; want 6, 0, 4", ok, bad, w)
	}
	if len(*f) != 0 {
		t.Fatalf("every instance answered, yet %d states remain", len(*f))
	}
	// Exchangeable: 1,000 instances with 300 successes to call 0; then
	// 500 failures to call 1 (needing both) fail 500 instances, drawn
	// among all 1,000, so of the 500 left undecided 150 on average are
	// among the 300 that succeeded (a hypergeometric mean; its spread over
	// 2,000 draws is about 0.16).
	var sum int64
	const draws = 2000
	for range draws {
		f := new(fan)
		f.add(2, 1000)
		f.answer(r, 0, 300, true, 2, 2)
		if _, bad, _ := f.answer(r, 1, 500, false, 2, 2); bad != 500 {
			t.Fatalf("%d failed, want 500", bad)
		}
		for _, st := range *f {
			if st.key&fanDecided == 0 && st.key.ok() == 1 {
				sum += st.n
			}
		}
	}
	if mean := float64(sum) / draws; math.Abs(mean-150) > 1 {
		t.Errorf("undecided instances that had succeeded once: %.2f on average, want 150", mean)
	}
}

// TestCalleeBudget: the two services of TestSharedDatabase, 3 attempts
// each into a database that fails every call, 100 requests a second in
// 1 s ticks, with a per_tick allowance of 0.1 (retries started in a tick
// ≤ round(0.1 × the tick's 100 requests) = 10). Scoped per callee, one
// allowance covers both edges into the database: every tick after the
// first starts exactly 10 retries there (the demand, 200 second tries a
// tick, is far above), so the database sees 2 first tries per request
// plus 10 × 99 retries. Scoped per edge, each edge has its own 10: twice
// the retries. Without a budget, 6 calls per request.
func TestCalleeBudget(t *testing.T) {
	for _, c := range []struct {
		scope string
		calls int64
	}{
		{"callee", 2*10000 + 10*99},
		{"edge", 2*10000 + 20*99},
		{"caller", 2*10000 + 20*99},  // orders and users each have their own
		{"", 6*9800 + 4*100 + 2*100}, // as in TestSharedDatabase
	} {
		sc := sharedDatabase("parallel", 3, 1)
		if c.scope != "" {
			sc.Budget = Budget{Kind: "per_tick", Scope: c.scope, Params: PerTickParams{Ratio: 0.1}}
		}
		s := graphRunOf(t, sc, 1)
		db := s.graph.servers.calls[len(s.graph.servers.calls)-1]
		if db != c.calls || db != s.c.calls {
			t.Errorf("budget scope %q: the database saw %d calls (the run %d), want %d", c.scope, db, s.c.calls, c.calls)
		}
	}
}

// TestFaultHitsOneService: an outage of 5 s names service a; b, beside
// it, serves on. A gateway calls both at 100 requests a second for 20 s:
// needing all, exactly the 500 requests of the outage fail (a loss server
// in an outage serves nothing); needing any, none does. The outage is the
// run's fault window either way, and b's calls are all served.
func TestFaultHitsOneService(t *testing.T) {
	for _, c := range []struct {
		need   string
		failed int64
	}{{"all", 500}, {"any", 0}} {
		sc := graphScenario(100, 20*time.Second,
			[]GraphService{service("gateway", "parallel", c.need), backend("a", 0), backend("b", 0)},
			[]Layer{edge("", "gateway", 1), edge("gateway", "a", 1), edge("gateway", "b", 1)})
		sc.Fault = []Fault{{Kind: "outage", Start: Duration(5 * time.Second), Length: Duration(5 * time.Second), Factor: 1, Service: "a"}}
		s := graphRunOf(t, sc, 1)
		if s.c.failed != c.failed || s.c.ok != 2000-c.failed || s.c.served != 4000-500 || !s.p.Fault.Has {
			t.Errorf("need %s: %d failed, %d ok, %d served; want %d, %d, 3500", c.need, s.c.failed, s.c.ok, s.c.served, c.failed, 2000-c.failed)
		}
	}
	sc := graphScenario(100, 20*time.Second,
		[]GraphService{service("gateway", "parallel", "all"), backend("a", 0), backend("b", 0)},
		[]Layer{edge("", "gateway", 1), edge("gateway", "a", 1), edge("gateway", "b", 1)})
	for _, c := range []struct {
		f    Fault
		want string
	}{
		{Fault{Kind: "outage", Length: Duration(time.Second), Factor: 1}, "fault.0.service: in a service graph, an outage names the service"},
		{Fault{Kind: "outage", Length: Duration(time.Second), Factor: 1, Service: "gateway"}, `fault.0.service: "gateway" is not a service with a server; the graph's are "a", "b"`},
		{Fault{Kind: "spike", Length: Duration(time.Second), Factor: 2, Service: "a"}, "fault.0.service: a spike multiplies the users' arrivals"},
	} {
		sc.Fault = []Fault{c.f}
		if _, err := sc.Resolve(); err == nil || err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.f, err, c.want)
		}
	}
}

// TestEdgeColumns: TestSharedDatabase's run, its columns by edge: each
// service's calls into the database made 3 tries per failed request, 2 of
// them retries, and the database's column sums them.
func TestEdgeColumns(t *testing.T) {
	sc := sharedDatabase("parallel", 3, 1)
	_, col := runGraph(t, sc, 1)
	// 9,800 requests failed with 3 tries on each edge; the last two
	// ticks' 100 requests each made 2 and 1 (TestSharedDatabase).
	for _, e := range []string{"orders.db", "users.db"} {
		if tries, retries, failed := col(e+".tries"), col(e+".retries"), col(e+".failed"); tries != 3*9800+300 || retries != 2*9800+100 || failed != 9800 {
			t.Errorf("%s: %v tries, %v retries, %v failed", e, tries, retries, failed)
		}
	}
	if col("db.tries") != col("orders.db.tries")+col("users.db.tries") || col("db.calls") != col("db.tries") || col("failed_share") != 1 {
		t.Errorf("db: %v tries, %v calls; failed_share %v", col("db.tries"), col("db.calls"), col("failed_share"))
	}
}

// runGraph runs sc's plan with seed and returns its result and a reader
// of its graph columns by name.
func runGraph(t *testing.T, sc Scenario, seed uint64) (Result, func(name string) float64) {
	t.Helper()
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	r, err := RunPlan(t.Context(), p, seed, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r, func(name string) float64 {
		t.Helper()
		m, ok := metricNamed(GraphMetrics(p.Graph), name)
		if !ok {
			t.Fatalf("no column %s", name)
		}
		return m.Value(&r)
	}
}

// metricNamed finds the metric called name in ms.
func metricNamed(ms []Metric, name string) (Metric, bool) {
	for _, m := range ms {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// TestServedThenCalls: a service with a server of its own makes its calls
// once its server has served the call it answers, at once or after the
// server's latency; a call its server fails makes none. The gateway's
// server fails 10% of its calls, and the backend is called for the rest.
func TestServedThenCalls(t *testing.T) {
	for _, latency := range []time.Duration{0, 100 * time.Millisecond} {
		gw := backend("gateway", 0.1)
		gw.Server.Latency = Duration(latency)
		sc := graphScenario(1000, 20*time.Second, []GraphService{gw, backend("b", 0)},
			[]Layer{edge("", "gateway", 1), edge("gateway", "b", 1)})
		sc.Tick = ms(10)
		s := graphRunOf(t, sc, 1)
		calls := s.graph.servers.calls
		answered := s.c.ok + s.c.failed
		if calls[0] != s.c.requests || calls[1] != s.c.ok || answered < s.c.requests-200 {
			t.Errorf("latency %v: %d requests, %d calls to the gateway, %d to b, %d ok, %d failed", latency, s.c.requests, calls[0], calls[1], s.c.ok, s.c.failed)
		}
		if share := float64(s.c.failed) / float64(answered); math.Abs(share-0.1) > 0.01 {
			t.Errorf("latency %v: %.4f of requests failed, want 0.1", latency, share)
		}
	}
}

// fanBatches is 300 users' requests arriving at once (a burst) at a
// gateway whose FIFO server serves 100 calls a second, so it serves them
// over three ticks (1 s each), 100 a tick, each answered after served (its
// latency); the gateway then calls a and b in parallel for the requests
// answered, needing both, and a and b answer every call after exactly
// latency. Nobody times out; the run lasts over.
func fanBatches(served, latency, over time.Duration) Scenario {
	gw := backend("gateway", 0)
	gw.Server.Capacity, gw.Server.Queue, gw.Server.Latency = 100, "fifo", Duration(served)
	gw.Calls, gw.Need = "parallel", "all"
	services := []GraphService{gw, backend("a", 0), backend("b", 0)}
	for i := 1; i < len(services); i++ {
		services[i].Server.Latency = Duration(latency)
	}
	edges := []Layer{edge("", "gateway", 1), edge("gateway", "a", 1), edge("gateway", "b", 1)}
	for i := range edges {
		edges[i].Timeout = 0
	}
	sc := graphScenario(0, over, services, edges)
	sc.Arrivals, sc.Clients = "burst", 300
	return sc
}

// TestFanPerBatch: a request's parallel calls are answered for that
// request, not for another one waiting for the same calls. fanBatches'
// gateway serves one group of 300 requests in three batches, at ticks 0,
// 1 and 2, and calls a and b for each batch once it has answered it, d
// ticks later (0 or 1 s); with a latency of 2 s at a and b, a batch served
// at tick u has both answers at tick u + d + 2 and succeeds then, exactly.
// So runs of 3 + d, 4 + d and 5 + d seconds see exactly 100, 200 and 300
// requests succeed, every one of them with its calls made. Were the
// answers to calls made at tick d spread over every instance waiting for
// a and b, those of the batch served at tick 1 included, some of the
// first batch would still wait for one of its answers at tick d + 2, and
// some of the second would be decided by answers to calls made before its
// own.
func TestFanPerBatch(t *testing.T) {
	for _, d := range []time.Duration{0, time.Second} {
		for _, c := range []struct {
			over time.Duration
			ok   int64
		}{{3 * time.Second, 100}, {4 * time.Second, 200}, {5 * time.Second, 300}} {
			s := graphRunOf(t, fanBatches(d, 2*time.Second, c.over+d), 1)
			calls := s.graph.servers.calls
			if s.c.requests != 300 || s.c.ok != c.ok || s.c.failed != 0 || calls[0] != 300 || calls[1] != 300 || calls[2] != 300 {
				t.Errorf("served after %v, %v: %d requests, %d ok, %d failed, calls %v; want 300, %d, 0, 300 each", d, c.over+d, s.c.requests, s.c.ok, s.c.failed, calls, c.ok)
			}
		}
	}
}

// TestHopsGivenUp: a caller who gives up on a request gives up on its
// calls in whichever batch they were made. In fanBatches with a and b
// answering after 2 s and users who wait 2 s, the batch served at tick 0
// succeeds at tick 2, before the users give up then, and the other two
// fail; their 400 calls, a's and b's, answered at ticks 3 and 4, reach
// nobody: 400 wasted, cancel_abandoned or not (the second batch's calls
// were made for a hop, the third's for the group itself: the first
// batch's calls had all been answered).
// Then a answers at once, and b fails every call at once, retried the next
// tick, up to 10 attempts: every request fails at tick 3, and with
// cancel_abandoned b's retries stop then (the retries due at tick 3 start
// before the users give up, so the three batches try b 4, 3 and 2 times:
// 900 tries); without it, each call tries 10 times (3,000).
func TestHopsGivenUp(t *testing.T) {
	for _, cancel := range []bool{true, false} {
		sc := fanBatches(0, 2*time.Second, 6*time.Second)
		sc.Graph.Edge[0].Timeout = Duration(2 * time.Second)
		sc.CancelAbandoned = cancel
		s := graphRunOf(t, sc, 1)
		if s.c.ok != 100 || s.c.failed != 200 || s.c.served != 900 || s.c.wasted != 400 {
			t.Errorf("cancel %v: %d ok, %d failed, %d served, %d wasted; want 100, 200, 900, 400", cancel, s.c.ok, s.c.failed, s.c.served, s.c.wasted)
		}
	}
	for _, c := range []struct {
		cancel bool
		tries  int64
	}{{true, 900}, {false, 3000}} {
		sc := fanBatches(0, 0, 20*time.Second)
		sc.Graph.Service[2].Server.FailureProbability = 1
		sc.Graph.Edge[0].Timeout = Duration(3 * time.Second)
		sc.Graph.Edge[2].Attempts = 10
		sc.CancelAbandoned = c.cancel
		s := graphRunOf(t, sc, 1)
		calls := s.graph.servers.calls
		if s.c.failed != 300 || s.c.ok != 0 || calls[1] != 300 || calls[2] != c.tries {
			t.Errorf("cancel %v: %d failed, %d ok, %d calls to a, %d to b; want 300, 0, 300, %d", c.cancel, s.c.failed, s.c.ok, calls[1], calls[2], c.tries)
		}
	}
}

// TestHopsRecycling: a gateway with a FIFO server of its own, overloaded
// by Poisson arrivals and an outage, serves its groups over many ticks
// and makes their parallel calls batch by batch (hops), with retries,
// timeouts and a request deadline, cancel_abandoned or not, a bulkhead
// that queues tries, a breaker and a budget; each run is checked with
// recycled groups kept poisoned (checkRecycling); no request is answered
// twice, and some succeed and some fail.
func TestHopsRecycling(t *testing.T) {
	long(t)
	i := 0
	for _, cancel := range []bool{false, true} {
		for _, deadline := range []time.Duration{0, 1500 * time.Millisecond} {
			for _, extra := range []string{"", "bulkhead", "breaker", "budget"} {
				gw := backend("gateway", 0.05)
				gw.Server.Capacity, gw.Server.Queue, gw.Server.Latency = 450, "fifo", ms(30)
				gw.Calls, gw.Need = "parallel", "quorum"
				gw.Quorum = 2
				services := []GraphService{gw, backend("a", 0.1), backend("b", 0.1), backend("c", 0.3)}
				edges := []Layer{edge("", "gateway", 2), edge("gateway", "a", 3), edge("gateway", "b", 3), edge("gateway", "c", 2)}
				for j := 1; j < len(services); j++ {
					services[j].Server.Capacity, services[j].Server.Queue, services[j].Server.Latency = 600, "fifo", ms(50*j)
				}
				for j := range edges {
					edges[j].Timeout = Duration(time.Duration(300*(4-j)) * time.Millisecond)
					edges[j].Backoff = Backoff{Kind: "exponential", Base: ms(20), Factor: 2, Cap: ms(200), Jitter: "full"}
				}
				switch extra {
				case "bulkhead":
					edges[1].Limiter = Limiter{Kind: "bulkhead", Scope: "layer", Full: "queue", QueueTimeout: ms(100), Params: BulkheadParams{Max: 40}}
				case "breaker":
					edges[3].Breaker = Breaker{Kind: "consecutive", Open: Duration(time.Second), Probes: 2, Placement: "inside_retry", Params: ConsecutiveParams{Threshold: 20}}
				}
				sc := graphScenario(400, 30*time.Second, services, edges)
				sc.Tick, sc.Arrivals = ms(10), "poisson"
				sc.CancelAbandoned, sc.Deadline = cancel, Duration(deadline)
				sc.Fault = []Fault{{Kind: "outage", Start: Duration(5 * time.Second), Length: Duration(2 * time.Second), Factor: 1, Service: "gateway"}}
				if extra == "budget" {
					sc.Budget = Budget{Kind: "ratio", Scope: "edge", Params: RatioParams{Ratio: 0.1}}
				}
				checkRecycling(t, i, sc, uint64(i+1))
				s := graphRunOf(t, sc, uint64(i+1))
				if s.c.ok+s.c.failed > s.c.requests || s.c.ok == 0 || s.c.failed == 0 {
					t.Errorf("case %d: %d requests, %d ok, %d failed", i, s.c.requests, s.c.ok, s.c.failed)
				}
				i++
			}
		}
	}
}

// twoEntries is a graph with two entry points: web, taking a quarter of
// the users' requests, calls cache (failing a share p of its calls) and
// auth in parallel, needing both; mobile, taking the rest, calls auth.
func twoEntries(p float64, arrivals string) Scenario {
	web, mobile := service("web", "parallel", "all"), service("mobile", "parallel", "all")
	in := func(to string, share float64) Layer {
		l := edge("", to, 1)
		l.Share = share
		return l
	}
	sc := graphScenario(1000, 300*time.Second, []GraphService{web, mobile, backend("cache", p), backend("auth", 0)},
		[]Layer{in("web", 0.25), in("mobile", 0.75), edge("web", "cache", 1), edge("web", "auth", 1), edge("mobile", "auth", 1)})
	sc.Arrivals = arrivals
	return sc
}

// TestSeveralEntryPoints: each user request comes in through one entry
// point, by the entry edges' shares. Constant arrivals are apportioned:
// exactly a quarter of the 300,000 requests come in through web. Poisson
// arrivals are split by a draw: web's part within 4 standard errors of a
// quarter. Only web's requests call cache, so a fifth of them fail
// (within 4 standard errors), mobile's none, and auth, which both call,
// sees every request. The most calls a request makes to servers is its
// entry point's most: web's two.
func TestSeveralEntryPoints(t *testing.T) {
	for _, arrivals := range []string{"constant", "poisson"} {
		sc := twoEntries(0.2, arrivals)
		p, err := sc.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		if p.Graph == nil || len(p.Graph.Entries) != 2 || p.Allowed != 2 {
			t.Fatalf("%s: entries %v, %d calls allowed; want 2 entries and 2 calls", arrivals, p.Graph.Entries, p.Allowed)
		}
		r, col := runGraph(t, sc, 3)
		n, web, mobile := r.Requests, col("web.requests"), col("mobile.requests")
		if web+mobile != n {
			t.Errorf("%s: %v + %v requests through the entry points, %v in all", arrivals, web, mobile, n)
		}
		if sd := math.Sqrt(n * 0.25 * 0.75); arrivals == "constant" && web != 75000 || math.Abs(web-n/4) > 4*sd {
			t.Errorf("%s: %v of %v requests through web, want a quarter (± %.0f drawn)", arrivals, web, n, 4*sd)
		}
		if sd := math.Sqrt(web * 0.2 * 0.8); math.Abs(col("web.failed")-0.2*web) > 4*sd || col("mobile.failed") != 0 {
			t.Errorf("%s: web failed %v of %v (want a fifth ± %.0f), mobile %v", arrivals, col("web.failed"), web, 4*sd, col("mobile.failed"))
		}
		if col("auth.calls") != n || col("cache.calls") != web {
			t.Errorf("%s: auth saw %v calls, cache %v, for %v requests (%v through web)", arrivals, col("auth.calls"), col("cache.calls"), n, web)
		}
	}
}

// hedgedFanOut is a gateway calling three backends in parallel, needing
// all, one try each with a 100 ms timeout; a backend's answer comes after
// an exponential time of 20 ms on average. hedge is each call's hedging.
func hedgedFanOut(hedge Hedge) Scenario {
	sc := fanOut(3, 0, 1, "all", 0)
	sc.Tick, sc.Duration, sc.Load, sc.Arrivals = ms(1), Duration(300*time.Second), 1000, "poisson"
	for i := range sc.Graph.Service[1:] {
		d := &sc.Graph.Service[1+i].Server
		d.Capacity, d.Latency, d.Service = 1e6, ms(20), Service{Kind: "exponential"}
	}
	for i := range sc.Graph.Edge[1:] {
		sc.Graph.Edge[1+i].Timeout, sc.Graph.Edge[1+i].Hedge = ms(100), hedge
	}
	return sc
}

// TestHedgedFanOut: a call of the fan-out times out when its answer takes
// over 100 ms, e^−5 of them, so 1 − (1 − e^−5)³ ≈ 2.0% of the requests
// fail. Hedged after 50 ms (e^−2.5 ≈ 8.2% of the calls: 0.246 hedges per
// request), a call times out only when both copies do, e^−5 · e^−2.5: the
// requests that fail fall to 1 − (1 − e^−7.5)³ ≈ 0.17%. Each backend's
// server sees the calls made to it and their hedges. Answers come in whole
// ticks, so the shares are checked within 10% (failures when hedged,
// rarer, within 25%).
func TestHedgedFanOut(t *testing.T) {
	long(t)
	plain := hedgedFanOut(Hedge{})
	hedged := hedgedFanOut(Hedge{Delay: ms(50), MaxShare: 0.5})
	r0, _ := runGraph(t, plain, 5)
	r1, col := runGraph(t, hedged, 5)
	near := func(what string, got, want, tol float64) {
		if math.Abs(got-want) > tol*want {
			t.Errorf("%s: %.5f, want %.5f within %.0f%%", what, got, want, 100*tol)
		}
	}
	near("failed share without hedges", r0.Failed/r0.Requests, 1-math.Pow(1-math.Exp(-5), 3), 0.1)
	near("failed share with hedges", r1.Failed/r1.Requests, 1-math.Pow(1-math.Exp(-7.5), 3), 0.25)
	near("hedges per request", r1.Hedges/r1.Requests, 3*math.Exp(-2.5), 0.1)
	if got := col("a.calls") + col("b.calls") + col("c.calls"); got != col("a.tries")+col("b.tries")+col("c.tries")+r1.Hedges {
		t.Errorf("the backends saw %v calls: %v tries and %v hedges", got, col("a.tries")+col("b.tries")+col("c.tries"), r1.Hedges)
	}
}

// TestHealthPerEntryPoint: with two entry points, each entry point's
// service is judged on the requests that come in there. Cache, which only
// web's requests reach, is down from 60 s to 70 s: web is unhealthy from
// the outage's start (its 1 s window then holds no success) and healthy
// again once a window after it holds successes only, so it recovers; mobile
// is never unhealthy.
func TestHealthPerEntryPoint(t *testing.T) {
	sc := twoEntries(0, "constant")
	sc.Duration = Duration(120 * time.Second)
	sc.Fault = []Fault{{Kind: "outage", Start: Duration(60 * time.Second), Length: Duration(10 * time.Second), Factor: 1, Service: "cache"}}
	_, col := runGraph(t, sc, 1)
	if v := Verdict(col("web.verdict")); v != Recovered || col("web.collapse_s") != 60 || col("web.recovery_s") > 2 {
		t.Errorf("web: %v, unhealthy from %v s, recovered %v s after the outage; want recovered, from 60 s, within 2 s", v, col("web.collapse_s"), col("web.recovery_s"))
	}
	if v := Verdict(col("mobile.verdict")); v != Recovered || !math.IsNaN(col("mobile.collapse_s")) {
		t.Errorf("mobile: %v, unhealthy from %v s; want never unhealthy", v, col("mobile.collapse_s"))
	}
}

// TestGraphPools: the servers of a graph may be worker pools, each its
// own. A gateway calls a and b in parallel, needing both, for 10 requests
// a 10 ms tick; each is a pool of 50 workers, a call holding one for
// 100 ms, with no waiting room. A worker freed in a tick takes calls from
// the next on (arrivals come first), so each pool takes 10 calls a tick
// for 5 ticks and then refuses every call for 6: 50 of every 110. Over the
// 6,000 ticks of a minute, 545 such cycles and 5 ticks more, each pool
// takes 27,300 of the 60,000 calls and fails 32,700, in the same ticks as
// the other: the requests that fail are exactly those, and the rest
// succeed but for the 50 still held when the run ends.
func TestGraphPools(t *testing.T) {
	sc := fanOut(2, 0, 1, "all", 0)
	sc.Tick, sc.Duration, sc.Load, sc.Arrivals = ms(10), Duration(60*time.Second), 1000, "constant"
	for i := 1; i <= 2; i++ {
		d := &sc.Graph.Service[i].Server
		d.Capacity, d.Workers, d.Latency, d.Service, d.Queue = 0, 50, ms(100), Service{Kind: "constant"}, "none"
	}
	r, col := runGraph(t, sc, 1)
	for _, b := range []string{"a", "b"} {
		if col(b+".calls") != 60000 || col(b+".failed") != 32700 {
			t.Errorf("%s: %v calls, %v failed; want 60,000 and 32,700", b, col(b+".calls"), col(b+".failed"))
		}
	}
	if r.Requests != 60000 || r.Failed != 32700 || r.Successful != 27250 || r.Pending != 50 {
		t.Errorf("%v requests: %v failed, %v succeeded, %v pending; want 60,000: 32,700, 27,250, 50", r.Requests, r.Failed, r.Successful, r.Pending)
	}
	// With a FIFO waiting room and a 200 ms timeout, the calls wait longer
	// than their callers: the pools serve calls nobody waits for, whose
	// workers each pool frees in events of its own (a pool whose events
	// another server took would never get its workers back: 600 calls
	// served in all). A worker freed in a tick takes a waiting call in the
	// same tick, so each pool serves 50 calls every 100 ms, 30,000 in the
	// minute, all but the first 300 for nobody.
	for i := range sc.Graph.Edge[1:] {
		sc.Graph.Edge[1+i].Timeout = ms(200)
	}
	for i := 1; i <= 2; i++ {
		sc.Graph.Service[i].Server.Queue = "fifo"
	}
	if r, _ = runGraph(t, sc, 1); r.Served != 60000 || r.WastedServed != 59700 {
		t.Errorf("the pools served %v calls, %v for nobody; want 60,000 (2 × 50 every 10 ticks), 59,700 for nobody", r.Served, r.WastedServed)
	}
}
