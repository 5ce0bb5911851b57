package experiments

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/model"
)

// chainHead is what chainFile and chainAsGraph share.
const chainHead = `engine = "stochastic"
seed = 7
[scenario]
load = 90
arrivals = "poisson"
tick = "10ms"
duration = "60s"
budget = { kind = "token_bucket", scope = "layer" }
fault = [{ kind = "outage", start = "10s", length = "5s" }]
`

// chainFile is a three-layer chain with a policy on each layer, a budget
// and a fault, and chainAsGraph the same system written as a graph of one
// path: the users call the gateway, which calls the events service, which
// calls the store, the only service with a server.
const chainFile = chainHead + `dependency = { capacity = 100, queue = "fifo", queue_limit = 500, failure_probability = 0.01 }
layer = [
  { name = "users", attempts = 3, timeout = "2s", backoff = { kind = "exponential", base = "50ms", jitter = "full" } },
  { name = "gateway", attempts = 2, timeout = "1s", breaker = { kind = "consecutive", threshold = 5 } },
  { name = "events", attempts = 4, timeout = "300ms", backoff = { kind = "constant", base = "20ms" } },
]
[grid]
load = [50, 90]
`

const chainAsGraph = chainHead + `[[scenario.graph.service]]
name = "gateway"
[[scenario.graph.service]]
name = "store"
server = { capacity = 100, queue = "fifo", queue_limit = 500, failure_probability = 0.01 }
[[scenario.graph.service]]
name = "events"
[[scenario.graph.edge]]
name = "users"
to = "gateway"
attempts = 3
timeout = "2s"
backoff = { kind = "exponential", base = "50ms", jitter = "full" }
[[scenario.graph.edge]]
name = "events"
from = "events"
to = "store"
attempts = 4
timeout = "300ms"
backoff = { kind = "constant", base = "20ms" }
[[scenario.graph.edge]]
name = "gateway"
from = "gateway"
to = "events"
attempts = 2
timeout = "1s"
breaker = { kind = "consecutive", threshold = 5 }
[grid]
load = [50, 90]
`

// TestChainAsGraph: a chain written as a graph of one path, its edges and
// services in another order than the path's, resolves to the chain's
// very Plan, cell by cell; over a network too, the chain's
// dependency.network written beside the graph (one delay for every call).
func TestChainAsGraph(t *testing.T) {
	const network = `network = { kind = "exponential", delay = "5ms" }`
	for _, net := range []bool{false, true} {
		chainSrc, graphSrc := chainFile, chainAsGraph
		if net {
			chainSrc = strings.Replace(chainSrc, "failure_probability = 0.01 }", "failure_probability = 0.01, "+network+" }", 1)
			graphSrc = strings.Replace(graphSrc, "[[scenario.graph.service]]", "dependency."+network+"\n[[scenario.graph.service]]", 1)
		}
		chain, err := Parse("chain.toml", []byte(chainSrc), nil)
		if err != nil {
			t.Fatal(err)
		}
		graph, err := Parse("graph.toml", []byte(graphSrc), nil)
		if err != nil {
			t.Fatal(err)
		}
		a, b := chain.Grid.Cells(), graph.Grid.Cells()
		if len(a) != 2 || len(b) != 2 {
			t.Fatalf("cells: %d and %d, want 2 each", len(a), len(b))
		}
		for i := range a {
			if a[i].Plan.Graph != nil || b[i].Plan.Graph != nil {
				t.Fatalf("cell %d: a chain's plan has a graph", i)
			}
			if net && a[i].Plan.Network.Kind != model.NetworkExponential {
				t.Fatalf("cell %d: no network in %+v", i, a[i].Plan.Network)
			}
			if !reflect.DeepEqual(a[i].Plan, b[i].Plan) {
				t.Errorf("network %v, cell %d: the graph's plan differs from the chain's:\nchain %+v\ngraph %+v", net, i, a[i].Plan, b[i].Plan)
			}
		}
	}
}

// TestGraphBadInput: a graph's mistakes are reported at the key the file
// wrote, with its line and column.
func TestGraphBadInput(t *testing.T) {
	const head = "engine = \"stochastic\"\n[[scenario.graph.service]]\nname = \"api\"\n[[scenario.graph.service]]\nname = \"db\"\nserver = { capacity = 100 }\n"
	for _, c := range []struct{ name, src, want string }{
		{"unknown service", head + "[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"dbb\"\n",
			`x.toml:11:1: scenario.graph.edge.1.to: "dbb" is not a service; the graph's services are "api", "db"`},
		{"bad attempts on an edge", head + "[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\nattempts = 0\n",
			"x.toml:12:1: scenario.graph.edge.1.attempts: must be a whole number from 1 to 1000, got 0"},
		{"bad server key", head + "[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"x\"\n[[scenario.graph.service]]\nname = \"x\"\nserver = { capacity = 5, queue = \"stack\" }\n",
			"x.toml:17:26: scenario.graph.service.2.server.queue: \"stack\" is not allowed"},
		{"no entry", head + "[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n",
			"scenario.graph.edge: no entry point"},
		{"cycle", head + "[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n[[scenario.graph.edge]]\nfrom = \"db\"\nto = \"api\"\n",
			"x.toml:14:1: scenario.graph.edge.2.to: the edge closes a cycle through \"api\""},
		{"leaf without server", "engine = \"stochastic\"\n[[scenario.graph.service]]\nname = \"api\"\n[[scenario.graph.edge]]\nto = \"api\"\n",
			"x.toml:2:1: scenario.graph.service.0.server: \"api\" calls no other service"},
		{"quorum too large", head + "quorum = 2\nneed = \"quorum\"\n[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n",
			"scenario.graph.service.1.quorum: need = \"quorum\" needs 1 ≤ quorum ≤ the 0 calls"},
		{"queue engine", strings.Replace(head, "stochastic", "queue", 1) + "[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n",
			"scenario.graph: needs engine = \"stochastic\"; the queue engine does not model it"},
		{"layer beside a graph", head + "[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n[[scenario.layer]]\nattempts = 3\n",
			"scenario.layer: a graph replaces the chain"},
		{"a server's network", strings.Replace(head, "capacity = 100 }", `capacity = 100, network = { kind = "constant", delay = "5ms" } }`, 1) + "[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n",
			"x.toml:6:28: scenario.graph.service.1.server.network: the network is one setting for the whole graph, the delay on every call: write dependency.network"},
		{"from on a layer", "[[scenario.layer]]\nfrom = \"a\"\n", "x.toml:2:1: scenario.layer.0.from: from and to are a graph edge's keys"},
		{"hedging a call that fans out", head + "[[scenario.graph.service]]\nname = \"b\"\nserver = { capacity = 100 }\n[[scenario.graph.edge]]\nto = \"api\"\nhedge = { delay = \"50ms\", max_share = 0.1 }\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"b\"\n",
			`x.toml:12:11: scenario.graph.edge.0.hedge.delay: hedging is modelled on calls to a service that serves them and calls no other (a copy of a call that fans out is not): "api" does not`},
		{"tipping at a service the graph lacks", head + "[[scenario.graph.service]]\nname = \"x\"\nserver = { capacity = 5 }\n[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"x\"\n[[scenario.fault]]\nkind = \"outage\"\nservice = \"db\"\n[tipping]\nkey = \"blip\"\nfrom = 0\nto = 9\nservice = \"dbb\"\n",
			`tipping.service: "dbb" is not a service of cell base; its services are api, db, x`},
		{"tipping at a service of a chain", head + "[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n[[scenario.fault]]\nkind = \"outage\"\n[tipping]\nkey = \"blip\"\nfrom = 0\nto = 9\nservice = \"db\"\n",
			"tipping.service: cell base runs no service graph"},
		{"share on a layer", "[[scenario.layer]]\nshare = 0.5\n", "x.toml:2:1: scenario.layer.0.share: share is a graph entry edge's key"},
		{"two entries, no shares", head + "[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n[[scenario.graph.edge]]\nto = \"db\"\n",
			"x.toml:7:1: scenario.graph.edge.0.share: a graph with 2 entry points needs each entry edge's share"},
		{"shares not summing to 1", head + "[[scenario.graph.edge]]\nto = \"api\"\nshare = 0.5\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n[[scenario.graph.edge]]\nto = \"db\"\nshare = 0.4\n",
			"x.toml:15:1: scenario.graph.edge.2.share: the entry edges' shares sum to 0.9; they must sum to 1"},
		{"share off an entry", head + "[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\nshare = 0.5\n",
			"x.toml:12:1: scenario.graph.edge.1.share: is an entry edge's key"},
		{"one entry's share", head + "[[scenario.graph.edge]]\nto = \"api\"\nshare = 0.5\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n",
			"scenario.graph.edge.0.share: the only entry point takes every request"},
		{"two entries into one service", head + "[[scenario.graph.edge]]\nto = \"api\"\nshare = 0.5\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n[[scenario.graph.edge]]\nto = \"api\"\nshare = 0.5\n",
			"scenario.graph.edge.2.to: the users already call \"api\" (edge 0)"},
	} {
		_, err := Parse("x.toml", []byte(c.src), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestGraphCellsApart: a named set that changes one edge changes its own
// cell only; the base's graph and the other cells keep theirs.
func TestGraphCellsApart(t *testing.T) {
	src := "engine = \"stochastic\"\n[[scenario.graph.service]]\nname = \"api\"\n[[scenario.graph.service]]\nname = \"db\"\nserver = { capacity = 100 }\n" +
		"[[scenario.graph.edge]]\nto = \"api\"\n[[scenario.graph.edge]]\nfrom = \"api\"\nto = \"db\"\n" +
		"[[grid.retries]]\nname = \"none\"\n[[grid.retries]]\nname = \"three\"\n\"graph.edge.1.attempts\" = 3\n"
	e, err := Parse("x.toml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	cells := e.Grid.Cells()
	if a, b := cells[0].Scenario.Graph.Edge[1].Attempts, cells[1].Scenario.Graph.Edge[1].Attempts; a != 1 || b != 3 || e.Grid.Base.Graph.Edge[1].Attempts != 1 {
		t.Errorf("attempts: cell none %d, cell three %d, base %d; want 1, 3, 1", a, b, e.Grid.Base.Graph.Edge[1].Attempts)
	}
}
