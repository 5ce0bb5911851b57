package reports

import (
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/model"
)

// graphCells are a graph with one server (a database two services share)
// and one with two (a gateway's two backends), and a chain.
const graphCells = `engine = "stochastic"
[scenario]
load = 100
duration = "60s"
fault = [{ kind = "outage", start = "10s", length = "5s" }]

[[grid.shape]]
name = "shared"
graph.service = [{ name = "front" }, { name = "orders" }, { name = "users" }, { name = "db", server = { capacity = 300, queue = "fifo" } }]
graph.edge = [{ to = "front" }, { from = "front", to = "orders" }, { from = "front", to = "users" }, { from = "orders", to = "db" }, { from = "users", to = "db" }]

[[grid.shape]]
name = "fan-out"
graph.service = [{ name = "gateway" }, { name = "b1", server = { capacity = 300, queue = "none" } }, { name = "b2", server = { capacity = 300, queue = "none" } }]
graph.edge = [{ to = "gateway" }, { from = "gateway", to = "b1" }, { from = "gateway", to = "b2" }]
fault = [{ kind = "outage", start = "10s", length = "5s", service = "b1" }]

[[grid.shape]]
name = "chain"
`

// TestServersText: a report names the server a cell's calls were counted
// at, or says it sums several; a chain's is the dependency.
func TestServersText(t *testing.T) {
	e, err := experiments.Parse("graph.toml", []byte(graphCells), nil)
	if err != nil {
		t.Fatal(err)
	}
	cells := e.Grid.Cells()
	for i, want := range [][2]string{{"db", "its"}, {"the servers b1 and b2 together", "their"}, {"the dependency", "its"}} {
		if at, own := serversText(cells[i].Plan); at != want[0] || own != want[1] {
			t.Errorf("%s: %q, %q; want %q, %q", cells[i].Label(), at, own, want[0], want[1])
		}
	}
}

// TestServiceVerdicts: each service's verdict and recovery as the
// columns hold them, in the graph's order; a service a result lacks is
// left out, a chain has none.
func TestServiceVerdicts(t *testing.T) {
	e, err := experiments.Parse("graph.toml", []byte(graphCells), nil)
	if err != nil {
		t.Fatal(err)
	}
	cells := e.Grid.Cells()
	r := model.Result{Replicates: 1, Graph: []model.WindowValue{
		{Column: "front.verdict", Mean: float64(model.Recovered)}, {Column: "front.recovery_s", Mean: 28.69},
		{Column: "orders.verdict", Mean: float64(model.Recovered)}, {Column: "orders.recovery_s", Mean: 0},
		{Column: "db.verdict", Mean: float64(model.Stuck)},
	}}
	const want = "By service: front recovered after 28.7 s, orders healthy as soon as the fault ended, db stuck."
	if got := serviceVerdicts(cells[0].Plan, &r); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	r.Replicates = 5
	const mean = "By service (recovery: the mean over the replicates that recovered): front recovered after 28.7 s, orders healthy as soon as the fault ended, db stuck."
	if got := serviceVerdicts(cells[0].Plan, &r); got != mean {
		t.Errorf("got %q\nwant %q", got, mean)
	}
	if got := serviceVerdicts(cells[2].Plan, &r); got != "" {
		t.Errorf("a chain: %q", got)
	}
}
