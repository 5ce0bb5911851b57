package plots

import (
	"math"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/model"
)

// graphColumn is a result column of a graph read from Result.Graph by its
// name, as model.GraphMetrics reads its own: a test's stand-in for the
// columns a graph's results have (its tries, and the per-service verdicts
// of kind "verdict").
func graphColumn(name, kind string) model.Metric {
	return model.Metric{Name: name, Kind: kind, Value: func(r *model.Result) float64 {
		for _, v := range r.Graph {
			if v.Column == name {
				return v.Mean
			}
		}
		return math.NaN()
	}}
}

// sharedDatabase is a front calling orders and users in parallel, needing
// both, each calling one database: the graph of a shared dependency.
func sharedDatabase() *ServiceGraph {
	return &ServiceGraph{
		Services: []string{"front", "orders", "users", "db"},
		Entries:  []int{0},
		Calls:    []GraphCall{{0, 1}, {0, 2}, {1, 3}, {2, 3}},
		Fans:     []Fan{{Calls: 2, Need: 2}, {Calls: 1, Need: 1}, {Calls: 1, Need: 1}, {}},
	}
}

// graphCell is one cell's numbers in the shared-database example: per
// service its verdict and when it first turned unhealthy (NaN: never),
// and the tries of each call, for 60,000 user requests.
type graphCell struct {
	verdict  [4]model.Verdict
	collapse [4]float64
	tries    [5]float64 // front, front.orders, front.users, orders.db, users.db
}

// graphTable is the table of a graph figure over the cells, one per value
// of the axis "retries"; without verdicts, the table lacks the verdict
// columns.
func graphTable(cells map[string]graphCell, order []string, verdicts bool) *Table {
	g := sharedDatabase()
	gc := columnsOf(g)
	cols := model.MetricList()
	tries := append(append([]string{}, gc.entries...), gc.calls...)
	for _, n := range tries {
		cols = append(cols, graphColumn(n, "count"))
	}
	if verdicts {
		for i := range g.Services {
			cols = append(cols, graphColumn(gc.verdict[i], "verdict"), graphColumn(gc.collapse[i], "seconds"))
		}
	}
	t := &Table{Axes: []Axis{{Name: "retries", Values: names(order...)}}, Columns: cols}
	for _, v := range t.Axes[0].Values {
		c := cells[v.Text]
		r := model.Result{Metrics: model.Metrics{Requests: 60000, Verdict: c.verdict[0]}, Replicates: 5}
		for i := range g.Services {
			r.Graph = append(r.Graph, model.WindowValue{Column: gc.verdict[i], Mean: float64(c.verdict[i])},
				model.WindowValue{Column: gc.collapse[i], Mean: c.collapse[i]})
		}
		for k, n := range tries {
			r.Graph = append(r.Graph, model.WindowValue{Column: n, Mean: c.tries[k]})
		}
		t.Rows = append(t.Rows, Row{Params: []Param{{"retries", v}}, Result: r, Facts: Facts{
			Engine: "stochastic", Capacity: 300, Arrivals: "open", Load: 100, StartLoad: 100,
			Timeout: model.Seconds(2), Attempts: 1, Server: "fifo",
			Faults: []Fault{{Kind: "outage", Start: model.Seconds(60), Length: model.Seconds(10)}},
			Tick:   model.Seconds(0.01), Run: model.Seconds(600), Replicates: 5,
			QueueLimit: math.NaN(), FaultEnd: 70, Graph: g,
		}})
	}
	return t
}

// graphExample: after a 10 s outage of the shared database, with no
// retries every service is healthy again; with orders retrying three
// times, orders sends 2.8 tries per request into the database and every
// service is stuck; a 10% budget on that edge holds it to 1.1 and all
// recover.
func graphExample() (*Table, spec.Figure) {
	nan := math.NaN()
	calm := [5]float64{60000, 60000, 60000, 60000, 60000}
	cells := map[string]graphCell{
		"no retries": {
			verdict:  [4]model.Verdict{model.Recovered, model.Recovered, model.Recovered, model.Recovered},
			collapse: [4]float64{60.5, 60.5, 60.5, nan}, tries: calm},
		"orders retries": {
			verdict:  [4]model.Verdict{model.Stuck, model.Stuck, model.Stuck, model.Stuck},
			collapse: [4]float64{60.5, 60.5, 60.5, 61.2}, tries: [5]float64{60000, 60000, 60000, 168000, 60000}},
		"budget per edge": {
			verdict:  [4]model.Verdict{model.Recovered, model.Recovered, model.Recovered, model.Recovered},
			collapse: [4]float64{60.5, 60.5, 60.5, nan}, tries: [5]float64{60000, 60000, 60000, 66000, 60000}},
	}
	t := graphTable(cells, []string{"no retries", "orders retries", "budget per edge"}, true)
	return t, spec.Figure{Kind: "graph", Name: "graph", X: "retries"}
}

// Where the calls went in a graph of two services sharing a database, a
// diagram per retry policy.
func ExampleTable_Draw_graph() {
	show(graphExample())
	// Output:
	// Where the calls went: each service's verdict and each call's tries per request, by retries
	// Stochastic engine, capacity 300 calls/s, load 100 requests/s, timeout 2s, 1 attempt per request, outage at 60s for 10s, 10ms ticks over 10m, 5 seeded replicates per cell. One diagram per value of retries. Boxes: the services, coloured by their verdict at the end of the run, each saying how it makes its calls and when it first turned unhealthy where the diagram has room. Green: healthy at the end. Red: stuck, never recovers (unhealthy at the end, the backlog no longer shrinking). Arrows: the calls, from the users' requests to each entry point and from caller to callee, wider and redder the more tries (first tries and retries) they send per user request, and labelled with that number where the labels do not crowd each other; ×1 is one try per request.
	// **no retries**: At the end of the run every service is healthy; no call sends more than one try per user request.
	// **orders retries**: At the end of the run front, orders, users and db are stuck; the most tries per user request go from orders to db, 2.8.
	// **budget per edge**: At the end of the run every service is healthy; the most tries per user request go from orders to db, 1.1.
}
