package plots

import (
	"fmt"
	"sort"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/model"
)

// Table is what a figure is drawn from, as plain data, in the spirit of
// gonum's plotter.XYer: the grid's axes, one row per cell the figure
// draws, and the result columns a figure may draw. Render builds one per
// figure from a grid and its results (adapter.go); a test or another
// program can write one by hand, and Draw and Findings take it as it is.
type Table struct {
	Axes []Axis // every axis of the grid, in the grid's order
	Rows []Row  // the cells the figure draws, in the grid's order
	// Columns are the metric columns a figure may draw (model.Metric:
	// name, description, value); nil stands for model.MetricList().
	Columns []model.Metric
}

// Axis is one axis of the grid.
type Axis struct {
	Name string // "load", "blip", "policy", "dependency.capacity"
	// Path is the scenario key the axis sets ("load", "fault.0.length");
	// "" for an axis of named sets, such as policies.
	Path   string
	Unit   string  // the unit of its values: "s" for durations, "calls/s"; "" for none
	Values []Value // in the grid's order
}

// Value is one value of an axis: as the grid writes it, and its number.
type Value struct {
	Text  string  // "60", "20s", "27 attempts"
	Num   float64 // the number; seconds for a duration
	IsNum bool    // Num holds a number (a duration's Text has a unit: "20s")
}

// Param is a row's value on one axis.
type Param struct {
	Axis string
	Value
}

// Row is one cell of a table: its value on each axis, what its run
// measured, and its key parameters.
type Row struct {
	Params []Param      // one per axis the cell has, in axis order
	Result model.Result // its metrics, verdict and series
	Facts  Facts        // its key parameters, for captions and guides
	// Offered is the load offered in each bin of Result.Series (at the
	// bin's middle) under a load shape; nil without a shape or a series.
	Offered []float64
}

// Facts are a cell's key parameters as its resolved plan states them: what
// captions say of the cells, and what figures draw beside the data (the
// rule of thumb, the healthy queue limit, the fault windows).
type Facts struct {
	Engine   string  // "queue" or "stochastic"
	Capacity float64 // the dependency's calls per second
	Arrivals string  // "open", "closed" or "burst"
	Load     float64 // open loop: new requests per second
	// StartLoad is the load offered at the start: Load, or under a load
	// shape its value at time 0.
	StartLoad float64
	Shape     []ShapePoint   // open loop: the load over time as written; nil for a constant load
	Clients   int            // closed loop: clients; a burst: its requests
	Think     model.Duration // closed loop: a client's pause between requests
	Timeout   model.Duration // what the user waits: the edge layer's timeout (0 = forever)
	Attempts  int            // attempts one request may put on the dependency
	Server    string         // "fifo", "lifo", "none" (a loss server) or "latency"
	// Servers are, in a service graph, its servers in the order of its
	// services, each with its capacity and kind as Capacity and Server
	// give the first; nil for a chain.
	Servers []ServerFacts
	Faults  []Fault  // as written, in order
	Changes []Change // the interventions, in order
	Tick    model.Duration
	Run     model.Duration // the run's length
	// Replicates are the seeded runs behind the cell's numbers.
	Replicates int
	// QueueLimit is the healthy queue limit a series figure draws, capacity
	// × timeout, where the queue rule judges health; NaN where it does not.
	QueueLimit float64
	// RuleOfThumb is the blip at which naive retries tip the system at a
	// load: the time a fault takes to build the backlog of a healthy
	// dependency (model.Plan.RuleOfThumb); ok is false where it does not
	// apply. Nil: never.
	RuleOfThumb func(load float64) (seconds float64, ok bool)
	// FaultEnd is when the fault window ends, in seconds; NaN without one.
	FaultEnd float64
	// Graph is the service graph the cell runs, as its plan resolves it;
	// nil for a chain (and for a graph of one path, which runs as one).
	Graph *ServiceGraph
}

// ServiceGraph is the structure of a service graph, what a graph figure
// draws its diagram from: which service calls which, and how.
type ServiceGraph struct {
	Services []string // the services' names, as written
	Entries  []int    // the services the users call, in file order
	// Calls are the edges from one service to another, in file order
	// (the users' calls into Entries are not among them).
	Calls []GraphCall
	// Fans say, by service, how it makes its calls.
	Fans []Fan
}

// GraphCall is an edge of a ServiceGraph: service From calls service To
// (indices into Services).
type GraphCall struct{ From, To int }

// Fan is how a service makes its calls to others.
type Fan struct {
	Calls    int  // how many services it calls
	Sequence bool // one after the other, each after the one before succeeded
	Need     int  // in parallel: how many answers a call to it needs
}

// ServerFacts are one server's key parameters in a service graph.
type ServerFacts struct {
	Service  string  // the service it serves
	Capacity float64 // calls per second
	Server   string  // as Facts.Server
}

// ShapePoint is a point of a load shape.
type ShapePoint struct {
	At   model.Duration
	Load float64 // requests per second
}

// Fault is one fault as written.
type Fault struct {
	Kind          string // "outage", "degradation", "slowdown" or "spike"
	Start, Length model.Duration
	Capacity      float64 // degradation: calls per second left
	Factor        float64 // slowdown and spike: the multiplier
	Service       string  // in a service graph, the service whose server it hits; "" otherwise
}

// Change is one intervention: at a time, the keys it sets.
type Change struct {
	At       model.Duration
	Settings []model.Setting // by path in sorted order
}

// Get returns the row's value on the named axis.
func (r *Row) Get(axis string) (Value, bool) {
	for _, p := range r.Params {
		if p.Axis == axis {
			return p.Value, true
		}
	}
	return Value{}, false
}

// Label is the row's values as "axis=value, ...", or "base" for a grid
// without axes, as a grid names its cells.
func (r *Row) Label() string {
	if len(r.Params) == 0 {
		return "base"
	}
	parts := make([]string, len(r.Params))
	for i, p := range r.Params {
		parts[i] = p.Axis + "=" + p.Text
	}
	return strings.Join(parts, ", ")
}

// rule is the rule of thumb at a load; not ok where it does not apply.
func (f *Facts) rule(load float64) (float64, bool) {
	if f.RuleOfThumb == nil {
		return 0, false
	}
	return f.RuleOfThumb(load)
}

// Draw draws the figure f asks for from the table, as PNG and SVG with its
// title and caption. The table's rows are the cells the figure draws.
func (t *Table) Draw(f *spec.Figure) (Figure, error) {
	k, err := t.kindFor(f)
	if err != nil {
		return Figure{}, err
	}
	fig, err := k.impl.draw(t, f)
	if err != nil {
		return Figure{}, err
	}
	return fig.encode(Name(f))
}

// Findings are the sentences the figure f's kind says about the table's
// rows for the report; none for a kind that adds nothing.
func (t *Table) Findings(f *spec.Figure) []string {
	k, err := t.kindFor(f)
	if err != nil {
		return nil
	}
	return k.impl.findings(t, f)
}

// kindFor checks f against the table (checkFigure) and finds its kind.
func (t *Table) kindFor(f *spec.Figure) (Kind, error) {
	if err := checkFigure(f, t.Axes, t.columnNames()); err != nil {
		return Kind{}, err
	}
	if len(t.Rows) == 0 {
		return Kind{}, fmt.Errorf("no cell to draw")
	}
	k, _ := kindOf(f.Kind)
	return k, nil
}

// axis finds the named axis.
func (t *Table) axis(name string) (*Axis, bool) {
	for i := range t.Axes {
		if t.Axes[i].Name == name {
			return &t.Axes[i], true
		}
	}
	return nil, false
}

// columns are the metric columns the table's figures may draw.
func (t *Table) columns() []model.Metric {
	if t.Columns == nil {
		return model.MetricList()
	}
	return t.Columns
}

// columnNames names the columns, for messages.
func (t *Table) columnNames() []string {
	var out []string
	for _, m := range t.columns() {
		out = append(out, m.Name)
	}
	return out
}

// metric looks a metric up by its results.csv column (recovery_s if
// empty).
func (t *Table) metric(name string) (model.Metric, error) {
	if name == "" {
		name = "recovery_s"
	}
	for _, m := range t.columns() {
		if m.Name == name {
			return m, nil
		}
	}
	return model.Metric{}, fmt.Errorf("%q is not a results.csv column", name)
}

// rowsAt are the rows at the given indexes.
func (t *Table) rowsAt(idx []int) []Row {
	out := make([]Row, len(idx))
	for k, i := range idx {
		out[k] = t.Rows[i]
	}
	return out
}

// panels groups the positions of the rows by their value on the panel axis
// ("" = one group), in axis order.
func (t *Table) panels(panel string) (names []string, groups map[string][]int) {
	groups = map[string][]int{}
	if ax, ok := t.axis(panel); ok && panel != "" {
		for _, v := range ax.Values {
			names = append(names, v.Text)
		}
	} else {
		names = []string{""}
	}
	for i := range t.Rows {
		key := ""
		if v, ok := t.Rows[i].Get(panel); ok {
			key = v.Text
		}
		groups[key] = append(groups[key], i)
	}
	return names, groups
}

// text is how the axis writes the value x ("3s" for a blip), or x itself.
func (t *Table) text(axis string, x float64) string {
	if ax, ok := t.axis(axis); ok {
		for _, v := range ax.Values {
			if v.IsNum && v.Num == x {
				return v.Text
			}
		}
	}
	return Number(x)
}

// spans writes sorted values of an axis as runs of neighbours on the axis,
// each as the grid writes it: "50, 63–95", "1s–4s"; "" for an axis the
// table does not have.
func (t *Table) spans(axis string, xs []float64) string {
	ax, ok := t.axis(axis)
	if !ok {
		return ""
	}
	var all []float64
	for _, v := range ax.Values {
		if v.IsNum {
			all = append(all, v.Num)
		}
	}
	sort.Float64s(all)
	rank := map[float64]int{}
	for i, v := range all {
		rank[v] = i
	}
	var out []string
	start := 0
	for i := 1; i <= len(xs); i++ {
		if i < len(xs) && rank[xs[i]] == rank[xs[i-1]]+1 {
			continue
		}
		if i-1 == start {
			out = append(out, t.text(axis, xs[start]))
		} else {
			out = append(out, t.text(axis, xs[start])+"–"+t.text(axis, xs[i-1]))
		}
		start = i
	}
	return strings.Join(out, ", ")
}

// varying are the axes on which the rows do not all have the same value,
// in grid order.
func (t *Table) varying(rows []Row) []string {
	var out []string
	for _, a := range t.Axes {
		seen := map[string]bool{}
		for i := range rows {
			v, _ := rows[i].Get(a.Name)
			seen[v.Text] = true
		}
		if len(seen) > 1 {
			out = append(out, a.Name)
		}
	}
	return out
}
