package model

import (
	"math"
	"slices"
	"testing"
	"time"
)

// graph10 is a graph of 10 services and 20 edges at 10,000 requests a
// second (Poisson) for an hour of 10 ms ticks: the users call a gateway,
// which calls four services (a–d) and one database in parallel; a, b, c
// and d each call three of five databases, a also calls b and c calls d.
// Unfolded, a request makes 26 calls, 19 of them to the databases, which
// are FIFO servers of ample capacity failing 1% of calls; every edge has
// 3 attempts, a 1 s timeout and exponential backoff.
func graph10() Scenario {
	db := func(name string) GraphService {
		s := DefaultService()
		s.Name = name
		s.Server.Capacity, s.Server.FailureProbability = 1e6, benchFailP
		return s
	}
	services := []GraphService{service("gw", "parallel", "all"), service("a", "parallel", "all"), service("b", "parallel", "all"),
		service("c", "parallel", "all"), service("d", "parallel", "all"), db("db1"), db("db2"), db("db3"), db("db4"), db("db5")}
	calls := [][2]string{{"", "gw"}, {"gw", "a"}, {"gw", "b"}, {"gw", "c"}, {"gw", "d"}, {"gw", "db1"},
		{"a", "db1"}, {"a", "db2"}, {"a", "db3"}, {"b", "db2"}, {"b", "db3"}, {"b", "db4"},
		{"c", "db3"}, {"c", "db4"}, {"c", "db5"}, {"d", "db1"}, {"d", "db4"}, {"d", "db5"}, {"a", "b"}, {"c", "d"}}
	var edges []Layer
	for _, c := range calls {
		l := benchLayer()
		l.From, l.To = c[0], c[1]
		edges = append(edges, l)
	}
	sc := graphScenario(10000, time.Hour, services, edges)
	sc.Tick, sc.Arrivals = ms(10), "poisson"
	return sc
}

// benchFailP is the share of calls graph10's databases fail, and
// chainLike10's server.
const benchFailP = 0.01

// benchLayer is graph10's policy of every call.
func benchLayer() Layer {
	l := DefaultLayer()
	l.Attempts, l.Timeout = 3, Duration(time.Second)
	l.Backoff = Backoff{Kind: "exponential", Base: ms(100), Factor: 2, Cap: Duration(time.Second), Jitter: "none"}
	return l
}

// chainLike10 is graph10's counterpart as a chain with as many calls to
// servers: one caller of the same policy at 19 × 10,000 requests a
// second into one such server.
func chainLike10() Scenario {
	sc := Default()
	sc.Engine, sc.Tick, sc.Arrivals, sc.Duration = "stochastic", ms(10), "poisson", Duration(time.Hour)
	sc.Load = 19 * 10000
	sc.Layer = []Layer{benchLayer()}
	sc.Dependency.Capacity, sc.Dependency.FailureProbability = 1e6, benchFailP
	return sc
}

// chain26Like10 is graph10's counterpart as a chain making as many calls
// for as many requests: 26 layers of graph10's policy at 10,000 requests
// a second, so that each request makes graph10's 26 calls, into one such
// server, for the same hour of 10 ms ticks. The layers above the bottom
// make 1 attempt (3^26 attempts per request is more than a chain may
// allow); in graph10 too only the calls to the databases retry, as a call
// above them fails for good but once in a million requests. What a chain
// cannot match is where the calls go: its one server is called once a
// request, graph10's five 19 times (chainLike10 has those calls alone).
func chain26Like10() Scenario {
	sc := chainLike10()
	sc.Load = 10000
	top := benchLayer()
	top.Attempts = 1
	sc.Layer = []Layer{top, benchLayer()}
	for len(sc.Layer) < 26 {
		sc.Layer = append([]Layer{top}, sc.Layer...)
	}
	return sc
}

// chain26SameCalls10 is graph10's counterpart as a chain making the same
// calls, retries included: chain26Like10 with its one server failing a
// share q of calls such that its bottom layer retries as often as
// graph10's 19 calls to databases failing p = 1% do together. With 3
// attempts a call failing independently with probability x is retried
// x + x² times on average, so q + q² = 19(p + p²) (TestSameCalls10 checks
// the runs' calls and retries agree).
func chain26SameCalls10() Scenario {
	sc := chain26Like10()
	r := 19 * (benchFailP + benchFailP*benchFailP)
	sc.Dependency.FailureProbability = (math.Sqrt(1+4*r) - 1) / 2
	return sc
}

// BenchmarkGraph10: one op is one run of graph10. Compare with
// BenchmarkChain26Like10, the chain of as many calls for as many requests,
// BenchmarkChain26SameCalls10, that chain making as many retries too, and
// BenchmarkChainLike10, the chain of as many calls to servers (side by
// side: -bench 'Like10$|SameCalls10$|Graph10$' -count 10, then benchstat).
// The aim is a graph's hour in at most 3 times the time of a chain making
// as many calls; the README's Performance section has the ratios
// measured, in time and in callgrind's instructions, and model/doc.go
// where the graph's cost goes: its groups, and the answers its fans split
// and the calls its servers serve, which a chain's groups do not have.
func BenchmarkGraph10(b *testing.B) { benchStorm(b, graph10()) }

// BenchmarkChainLike10: one op is one run of chainLike10.
func BenchmarkChainLike10(b *testing.B) { benchStorm(b, chainLike10()) }

// BenchmarkChain26Like10: one op is one run of chain26Like10.
func BenchmarkChain26Like10(b *testing.B) { benchStorm(b, chain26Like10()) }

// BenchmarkChain26SameCalls10: one op is one run of chain26SameCalls10.
func BenchmarkChain26SameCalls10(b *testing.B) { benchStorm(b, chain26SameCalls10()) }

// clean is sc with no call failing at its servers: graph10's databases or
// chain26Like10's one server.
func clean(sc Scenario) Scenario {
	sc.Dependency.FailureProbability = 0
	sc.Graph.Service = slices.Clone(sc.Graph.Service)
	for i := range sc.Graph.Service {
		sc.Graph.Service[i].Server.FailureProbability = 0
	}
	return sc
}

// BenchmarkGraph10Clean and BenchmarkChain26Like10Clean: one op is one run
// of graph10 or chain26Like10 in which no call fails. Side by side with
// BenchmarkGraph10 and BenchmarkChain26Like10 they part a run's cost into
// its calls and its failures: graph10's 19 calls a request to servers
// failing 1% fail 19 times as often as chain26Like10's one, and each
// failure costs a retry's group and the splits of the fans above it.
func BenchmarkGraph10Clean(b *testing.B) { benchStorm(b, clean(graph10())) }

func BenchmarkChain26Like10Clean(b *testing.B) { benchStorm(b, clean(chain26Like10())) }

// TestGraph10Calls: graph10 makes 26 calls per request unfolded, 19 of
// them to its databases.
func TestGraph10Calls(t *testing.T) {
	sc := graph10()
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	servers := 0
	for _, n := range p.Graph.Nodes {
		if n.Server >= 0 {
			servers++
		}
	}
	if len(p.Graph.Nodes) != 26 || servers != 19 || len(sc.Graph.Service) != 10 || len(sc.Graph.Edge) != 20 {
		t.Errorf("%d services, %d edges, %d calls, %d to servers; want 10, 20, 26, 19", len(sc.Graph.Service), len(sc.Graph.Edge), len(p.Graph.Nodes), servers)
	}
}

// TestSameCalls10: over a simulated minute, chain26SameCalls10 makes as
// many tries as graph10, and as many of them retries, within 1%: the
// chain's 25 layers above its server make one try a request each, its
// bottom layer the tries its series counts; the graph's tries are its
// services' series'.
func TestSameCalls10(t *testing.T) {
	tries := func(sc Scenario) (all, retries float64) {
		sc.Duration = Duration(time.Minute)
		r, err := Run(sc, 1, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Series.Services) == 0 { // the chain
			for _, row := range r.Series.Rows {
				all += row.Calls
				retries += row.Retries
			}
			return all + 25*r.Requests, retries
		}
		for _, sv := range r.Series.Services {
			for _, row := range sv.Rows {
				all += row.Tries
				retries += row.Tries - row.Calls
			}
		}
		return all, retries
	}
	gAll, gRetries := tries(graph10())
	cAll, cRetries := tries(chain26SameCalls10())
	if math.Abs(cAll/gAll-1) > 0.01 || math.Abs(cRetries/gRetries-1) > 0.01 {
		t.Errorf("chain: %.0f tries, %.0f retries; graph: %.0f and %.0f; want within 1%%", cAll, cRetries, gAll, gRetries)
	}
	t.Logf("chain: %.0f tries, %.0f retries; graph: %.0f and %.0f", cAll, cRetries, gAll, gRetries)
}
