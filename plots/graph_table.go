package plots

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// This file reads a graph figure's diagrams from a table: each cell's
// services and calls from the graph its plan resolves (Facts.Graph), each
// service's state from its verdict column, each call's width from its
// tries column over the cell's user requests. It never guesses: a cell
// without a graph, or a table without a column the figure reads, is an
// error that names what is missing.

// graphColumns are the result columns a graph figure reads of a graph.
type graphColumns struct {
	verdict  []string // by service: <svc>.verdict, the service's verdict (a model.Verdict)
	collapse []string // by service: <svc>.collapse_s, when it first turned unhealthy; NaN for never
	entries  []string // by entry point: <entry>.tries, the tries of the calls into the service the users call
	calls    []string // by call of ServiceGraph.Calls: <from>.<to>.tries
}

// columnsOf names the columns a graph figure reads of g, as
// model.GraphMetrics and the per-service verdicts name them.
func columnsOf(g *ServiceGraph) graphColumns {
	var gc graphColumns
	for _, e := range g.Entries {
		gc.entries = append(gc.entries, g.Services[e]+".tries")
	}
	for _, s := range g.Services {
		gc.verdict = append(gc.verdict, s+".verdict")
		gc.collapse = append(gc.collapse, s+".collapse_s")
	}
	for _, c := range g.Calls {
		gc.calls = append(gc.calls, g.Services[c.From]+"."+g.Services[c.To]+".tries")
	}
	return gc
}

// needed are the columns a graph figure cannot draw without, in order:
// every verdict, then every call's tries. The collapse times are not
// among them: a service's box says when it first turned unhealthy where
// the results have that column, and nothing otherwise.
func (gc graphColumns) needed() []string {
	out := append([]string{}, gc.verdict...)
	return append(append(out, gc.entries...), gc.calls...)
}

// checkGraph checks that a cell has a graph and that the columns hold
// what a graph figure reads of it: the one rule, for validating a file
// (Check, before any run) and for drawing a table.
func checkGraph(label string, g *ServiceGraph, columns []string) error {
	if g == nil {
		return fmt.Errorf("cell %s runs no service graph (a chain, or a graph of one path, which runs as a chain): a graph figure draws the services and calls of a [scenario.graph]", label)
	}
	have := map[string]bool{}
	for _, c := range columns {
		have[c] = true
	}
	var missing []string
	for _, c := range columnsOf(g).needed() {
		if !have[c] {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("a graph figure colours each service by its verdict and draws each call by its tries, but the results have no column %s", joinAnd(missing))
	}
	return nil
}

// diagram is the Diagram of one row: the users' requests, then the
// graph's services coloured by their verdicts, each noting how it makes
// its calls and when it first turned unhealthy; the users' call into the
// entry point, then the graph's calls, each with its tries per user
// request.
func (t *Table) diagram(r *Row) (*Diagram, error) {
	g := r.Facts.Graph
	if err := checkGraph(r.Label(), g, t.columnNames()); err != nil {
		return nil, err
	}
	col := map[string]model.Metric{}
	for _, m := range t.columns() {
		col[m.Name] = m
	}
	value := func(name string) float64 { return col[name].Value(&r.Result) }
	gc := columnsOf(g)
	d := &Diagram{Services: []DiagramService{{Name: "requests", Outside: true}}}
	for i, name := range g.Services {
		state, ok := verdictState(value(gc.verdict[i]))
		if !ok {
			return nil, fmt.Errorf("cell %s: %s is %s, not a verdict", r.Label(), gc.verdict[i], Number(value(gc.verdict[i])))
		}
		var note []string
		if s := fanNote(g.Fans[i]); s != "" {
			note = append(note, s)
		}
		if m, ok := col[gc.collapse[i]]; ok {
			if s := m.Value(&r.Result); !math.IsNaN(s) {
				note = append(note, "unhealthy from\u00a0"+Number(roundTo(s, 1))+"\u00a0s") // may wrap after "unhealthy" only
			}
		}
		d.Services = append(d.Services, DiagramService{Name: name, State: state, Note: strings.Join(note, "\n")})
	}
	perRequest := func(tries float64) float64 {
		if r.Result.Requests > 0 {
			return tries / r.Result.Requests
		}
		return math.NaN()
	}
	// The users' requests are service 0 of the diagram, the graph's service
	// i is i+1. An entry point's tries are the users' only when no service
	// calls it too; otherwise its arrow has no number.
	for k, e := range g.Entries {
		a := perRequest(value(gc.entries[k]))
		if slices.ContainsFunc(g.Calls, func(c GraphCall) bool { return c.To == e }) {
			a = math.NaN()
		}
		d.Calls = append(d.Calls, DiagramCall{From: 0, To: e + 1, Amplification: a})
	}
	for k, c := range g.Calls {
		d.Calls = append(d.Calls, DiagramCall{From: c.From + 1, To: c.To + 1, Amplification: perRequest(value(gc.calls[k]))})
	}
	return d, nil
}

// verdictState is the state a service's box shows for the value of its
// verdict column; not ok for a value that is no verdict (NaN: a cell
// without the column's service).
func verdictState(v float64) (cellState, bool) {
	if math.IsNaN(v) || v != math.Trunc(v) || v < 0 || v > float64(model.Stuck) {
		return 0, false
	}
	if verdict := model.Verdict(v); verdict != model.Recovered {
		return stateOf(verdict), true
	}
	return valueCell, true
}

// fanNote says how a service makes its calls, in words a box does not
// wrap (no-break spaces): "needs all 3", "needs any of 3", "needs 2 of
// 3", "3 in sequence"; "" for a service that calls one other or none.
func fanNote(f Fan) string {
	n := strconv.Itoa(f.Calls)
	switch {
	case f.Calls < 2:
		return ""
	case f.Sequence:
		return n + "\u00a0in\u00a0sequence"
	case f.Need == f.Calls:
		return "needs\u00a0all\u00a0" + n
	case f.Need == 1:
		return "needs\u00a0any\u00a0of\u00a0" + n
	}
	return "needs\u00a0" + strconv.Itoa(f.Need) + "\u00a0of\u00a0" + n
}
