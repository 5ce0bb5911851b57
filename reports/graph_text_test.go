package reports

import (
	"slices"
	"strings"
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

// TestSeriesServices: series.csv gives each service of a graph its
// columns, <service>.calls to .healthy, after the run's; a cell without
// that service (another graph, a chain) leaves them empty.
func TestSeriesServices(t *testing.T) {
	results, lines := seriesLines(t, graphCells)
	header := strings.Split(lines[0], ",")
	at := slices.Index(header, "front.calls")
	want := []string{"front.calls", "front.succeeded", "front.failed", "front.tries", "front.queue", "front.healthy"}
	if at < 0 || !slices.Equal(header[at:at+6], want) || header[len(header)-1] != "b2.healthy" || slices.Index(header, "gateway.calls") < 0 {
		t.Fatalf("header %v", header)
	}
	db := slices.Index(header, "db.calls")
	gw := slices.Index(header, "gateway.calls")
	rows := len(results[0].Series.Rows)
	shared := strings.Split(lines[1+12], ",") // the shared graph's 13th second
	fan := strings.Split(lines[1+rows+12], ",")
	chain := strings.Split(lines[len(lines)-1], ",")
	if len(shared) != len(header) || len(chain) != len(header) {
		t.Fatalf("%d and %d fields for %d columns", len(shared), len(chain), len(header))
	}
	dbRow := results[0].Series.Services[3].Rows[12]
	if shared[db] != formatNumber(dbRow.Calls) || dbRow.Calls != 200 || shared[gw] != "" {
		t.Errorf("the shared graph's row: db.calls %q (want %g, two calls a request), gateway.calls %q (want empty)", shared[db], dbRow.Calls, shared[gw])
	}
	if fan[gw] != formatNumber(results[1].Series.Rows[12].Requests) || fan[db] != "" {
		t.Errorf("the fan-out's row: gateway.calls %q, db.calls %q", fan[gw], fan[db])
	}
	if chain[at] != "" || chain[len(chain)-1] != "" {
		t.Errorf("a chain's row has service fields: %v", chain[at:])
	}
}

// TestSeriesPoolServices: in series.csv a service whose server is a worker
// pool adds its waits after its other columns (<service>.wait_mean_s, the
// row's mean), a service without one (front, q) does not, and a cell in
// which the service has no pool leaves them empty.
func TestSeriesPoolServices(t *testing.T) {
	const src = `engine = "stochastic"
[scenario]
load = 800
duration = "10s"
tick = "10ms"

[[grid.server]]
name = "pool"
graph.service = [{ name = "front" }, { name = "p", server = { workers = 50, latency = "100ms", service = { kind = "constant" }, queue = "fifo" } }, { name = "q", server = { capacity = 1000 } }]
graph.edge = [{ to = "front" }, { from = "front", to = "p" }, { from = "front", to = "q" }]

[[grid.server]]
name = "capacity"
graph.service = [{ name = "front" }, { name = "p", server = { capacity = 300, queue = "fifo" } }, { name = "q", server = { capacity = 1000 } }]
graph.edge = [{ to = "front" }, { from = "front", to = "p" }, { from = "front", to = "q" }]
`
	results, lines := seriesLines(t, src)
	header := strings.Split(lines[0], ",")
	at := slices.Index(header, "p.healthy")
	if at < 0 || at+1 >= len(header) || header[at+1] != "p.wait_mean_s" || slices.Contains(header, "front.wait_mean_s") || slices.Contains(header, "q.wait_mean_s") {
		t.Fatalf("header %v: want p.wait_mean_s after p.healthy, and front and q without one", header)
	}
	rows := len(results[0].Series.Rows)
	pool := strings.Split(lines[1], ",") // the first second, in which the pool's calls wait
	capacity := strings.Split(lines[1+rows], ",")
	x := &results[0].Series.Services[1].Rows[0]
	if x.Taken == 0 || x.Waited == 0 || pool[at+1] != formatNumber(x.Waited/x.Taken) || capacity[at+1] != "" {
		t.Errorf("p.wait_mean_s: %q in the pool's first row (want %g s over %g calls taken), %q where p has capacity (want empty)", pool[at+1], x.Waited, x.Taken, capacity[at+1])
	}
}

// seriesLines runs every cell of the experiment src with its series, seed
// 1, and gives the results and series.csv's lines.
func seriesLines(t *testing.T, src string) ([]model.Result, []string) {
	t.Helper()
	e, err := experiments.Parse("graph.toml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	cells := e.Grid.Cells()
	results := make([]model.Result, len(cells))
	for i := range cells {
		if results[i], err = model.RunPlan(t.Context(), cells[i].Plan, 1, model.Options{Series: true}); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	if err := WriteSeries(&b, e.Grid, results); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	return results, lines
}
