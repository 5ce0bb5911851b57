package plots

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
)

// This file is the adapter between the runner's types and the figures: the
// one place in the package that reads a sweep.Grid, its cells and their
// resolved model.Plan. It turns them into Tables of plain data, which the
// kinds of figure draw; the package's entry points that take a grid are
// here.

// Render draws the figures from the grid's cells and their results (in
// the cells' order). It checks the figures first, as Check does. A figure
// whose every cell was aborted at the memory cap is left out.
func Render(g *sweep.Grid, results []model.Result, figs []spec.Figure) ([]Figure, error) {
	if n := len(g.Cells()); len(results) != n {
		return nil, fmt.Errorf("plots: %d cells but %d results", n, len(results))
	}
	if err := Check(figs, g); err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	var out []Figure
	for i := range figs {
		f := &figs[i]
		t, err := newTable(g, results, f)
		if errors.Is(err, errAllAborted) {
			continue // nothing to draw; report.md's notes say why
		}
		var fig Figure
		if err == nil {
			fig, err = t.Draw(f)
		}
		if err != nil {
			return nil, fmt.Errorf("plots: figure %q: %w", Name(f), err)
		}
		out = append(out, fig)
	}
	return out, nil
}

// Findings are the report's sentences about the figures, each kind's own,
// computed from the results. A figure with a range is left out (a zoom
// repeats what its full figure says); when several figures of one kind
// speak, each one's sentences follow its title.
func Findings(g *sweep.Grid, results []model.Result, figs []spec.Figure) []string {
	full := map[string]int{}
	for i := range figs {
		if len(figs[i].Select.Range) == 0 {
			full[figs[i].Kind]++
		}
	}
	var out []string
	for i := range figs {
		f := &figs[i]
		if _, ok := kindOf(f.Kind); !ok || len(f.Select.Range) > 0 {
			continue
		}
		t, err := newTable(g, results, f)
		if err != nil {
			continue
		}
		said := t.Findings(f)
		if len(said) > 0 && full[f.Kind] > 1 && f.Title != "" {
			out = append(out, "*"+f.Title+"*")
		}
		out = append(out, said...)
	}
	return out
}

// Check checks figures against the grid they draw (checkFigure: a kind of
// the registry, the axes it needs, a results.csv column) and gives each a
// usable file name no other figure has. The error is a *spec.FigureError
// naming the figure's key at fault.
func Check(figs []spec.Figure, g *sweep.Grid) error {
	axes := axesOf(g, nil)
	names := map[string]bool{}
	for i := range figs {
		f := &figs[i]
		if err := checkFigure(f, axes, g.ColumnNames()); err != nil {
			var fe *figureError
			errors.As(err, &fe)
			return &spec.FigureError{Figure: i, Key: fe.key, Msg: fe.msg}
		}
		if err := checkCells(f, g); err != nil {
			return &spec.FigureError{Figure: i, Key: "kind", Msg: err.Error()}
		}
		if n := Name(f); !spec.ValidName(n) || names[n] {
			return &spec.FigureError{Figure: i, Key: "name", Msg: fmt.Sprintf("%q is not a usable, unique file name", n)}
		}
		names[Name(f)] = true
	}
	return nil
}

// checkCells asks a kind that checks the facts of the cells it draws
// (factsChecker) about the cells f would draw.
func checkCells(f *spec.Figure, g *sweep.Grid) error {
	k, _ := kindOf(f.Kind)
	fc, ok := k.impl.(factsChecker)
	if !ok {
		return nil
	}
	cells := g.Product()
	if k.Beside {
		cells = g.Cells()
	}
	var facts []Facts
	var labels []string
	for i := range cells {
		if c := &cells[i]; f.Select.Holds(c) {
			r := rowOf(c, &model.Result{})
			facts, labels = append(facts, r.Facts), append(labels, r.Label())
		}
	}
	return fc.checkFacts(facts, labels, g.ColumnNames())
}

// Spans writes sorted values of a grid axis as runs of neighbours on the
// axis, each as the grid writes it: "50, 63–95", "1s–4s".
func Spans(g *sweep.Grid, axis string, xs []float64) string {
	t := &Table{Axes: axesOf(g, nil)}
	return t.spans(axis, xs)
}

// errAllAborted is a figure whose every cell was aborted at the memory cap:
// it has nothing to draw.
var errAllAborted = errors.New("every cell it draws was aborted at the memory cap")

// newTable is the table of one figure: the cells its kind draws (the
// grid's product, or every cell) that its selector holds, less the cells
// aborted at the memory cap, which have no metrics.
func newTable(g *sweep.Grid, results []model.Result, f *spec.Figure) (*Table, error) {
	k, ok := kindOf(f.Kind)
	if !ok {
		return nil, fmt.Errorf("%q is not a figure kind", f.Kind)
	}
	cells := g.Product()
	if k.Beside {
		cells = g.Cells()
	}
	var drawn []*sweep.Cell
	held := 0
	for i := range cells {
		c := &cells[i]
		if !f.Select.Holds(c) {
			continue
		}
		held++
		if results[c.Index].Aborted == "" {
			drawn = append(drawn, c)
		}
	}
	switch {
	case held == 0:
		return nil, fmt.Errorf("no cell lies within its range")
	case len(drawn) == 0:
		return nil, errAllAborted
	}
	t := &Table{Axes: axesOf(g, drawn[0]), Columns: g.Metrics()}
	for _, c := range drawn {
		t.Rows = append(t.Rows, rowOf(c, &results[c.Index]))
	}
	return t, nil
}

// axesOf are the grid's axes; each axis's unit is "s" for durations, else
// the unit of the scenario key it sets, as the cell first says (none
// without one).
func axesOf(g *sweep.Grid, first *sweep.Cell) []Axis {
	var keys []sweep.Key
	if first != nil {
		keys = sweep.Keys(first.Scenario)
	}
	out := make([]Axis, len(g.Axes))
	for i, ax := range g.Axes {
		a := Axis{Name: ax.Name, Path: ax.Path, Values: make([]Value, len(ax.Values))}
		for j, v := range ax.Values {
			a.Values[j] = Value{Text: v.Text, Num: v.Num, IsNum: v.IsNum}
		}
		switch {
		case len(a.Values) > 0 && isDuration(a.Values[0]):
			a.Unit = "s"
		case ax.Path != "":
			path := strings.ReplaceAll(ax.Path, "*", "0")
			for _, k := range keys {
				if k.Path == path {
					a.Unit = k.Unit
				}
			}
		}
		out[i] = a
	}
	return out
}

// rowOf is a cell's row: its values, its result and its plan's facts.
func rowOf(c *sweep.Cell, r *model.Result) Row {
	row := Row{Result: *r, Facts: factsOf(c)}
	for _, p := range c.Params {
		row.Params = append(row.Params, Param{Axis: p.Axis, Value: Value{Text: p.Text, Num: p.Num, IsNum: p.IsNum}})
	}
	if s, p := r.Series, c.Plan; s != nil && len(p.Shape) > 0 {
		row.Offered = make([]float64, len(s.Rows))
		for j, sr := range s.Rows {
			row.Offered[j] = p.LoadAt(int64(math.Round((sr.T + s.Step/2) / p.TickS)))
		}
	}
	return row
}

// factsOf reads a cell's key parameters from its plan.
func factsOf(c *sweep.Cell) Facts {
	p := c.Plan
	ticks := func(n int64) model.Duration { return model.Duration(n * p.TickNs) }
	f := Facts{
		Engine: p.Engine.String(), Capacity: p.Capacity, Load: p.Load, StartLoad: p.Load,
		Clients: int(p.Clients), Think: ticks(p.ThinkTicks), Timeout: p.EdgeTimeout, Attempts: p.Allowed,
		Tick: p.Tick, Run: p.Run, Replicates: p.Replicates,
		QueueLimit: math.NaN(), RuleOfThumb: p.RuleOfThumb, FaultEnd: math.NaN(),
	}
	switch p.Arrivals {
	case model.ArriveClosed:
		f.Arrivals = "closed"
	case model.ArriveBurst:
		f.Arrivals = "burst"
	default:
		f.Arrivals = "open"
	}
	if len(p.Shape) > 0 {
		f.StartLoad = p.LoadAt(0)
		for _, pt := range p.Shape {
			f.Shape = append(f.Shape, ShapePoint{At: ticks(pt.At), Load: pt.Load})
		}
	}
	f.Server = serverKind(p)
	if gp := p.Graph; gp != nil {
		for i, sp := range gp.Servers {
			if sp != nil {
				f.Servers = append(f.Servers, ServerFacts{Service: gp.Services[i], Capacity: sp.Capacity, Server: serverKind(sp)})
			}
		}
	}
	for _, ft := range p.FaultList {
		f.Faults = append(f.Faults, Fault{Kind: ft.Kind, Start: ft.Start, Length: ft.Length, Capacity: ft.Capacity, Factor: ft.Factor, Service: ft.Service})
	}
	for _, ch := range p.Changes {
		f.Changes = append(f.Changes, Change{At: ticks(ch.At), Settings: ch.Settings})
	}
	if p.Health.Rule == model.HealthQueue {
		f.QueueLimit = p.Health.Limit
	}
	if p.Fault.Has {
		f.FaultEnd = p.Fault.End.Seconds()
	}
	f.Graph = serviceGraph(p.Graph)
	return f
}

// serverKind names what p's server does with a call, as Facts.Server.
func serverKind(p *model.Plan) string {
	switch p.Server {
	case model.ServerLoss:
		return "none"
	case model.ServerLIFO:
		return "lifo"
	case model.ServerLatency:
		return "latency"
	}
	return "fifo"
}

// serviceGraph reads a graph's structure from its plan's tree of calls,
// in which a service reached by two paths appears on each: an edge is
// a call from the service of a node's parent to the node's, once per edge
// as written; nil for a chain.
func serviceGraph(gp *model.GraphPlan) *ServiceGraph {
	if gp == nil {
		return nil
	}
	g := &ServiceGraph{Services: gp.Services, Fans: make([]Fan, len(gp.Services))}
	from := make([]int, len(gp.Edges)) // by edge as written; -1: the entry or not in the tree
	for i := range from {
		from[i] = -2
	}
	to := make([]int, len(gp.Edges))
	for _, n := range gp.Nodes {
		if n.Parent < 0 {
			g.Entries = append(g.Entries, n.Service)
			from[n.Edge] = -1
		} else {
			from[n.Edge], to[n.Edge] = gp.Nodes[n.Parent].Service, n.Service
		}
		if len(n.Kids) > 0 {
			g.Fans[n.Service] = Fan{Calls: len(n.Kids), Sequence: n.Sequence, Need: int(n.Need)}
		}
	}
	for e := range gp.Edges {
		if from[e] >= 0 {
			g.Calls = append(g.Calls, GraphCall{From: from[e], To: to[e]})
		}
	}
	return g
}

// Tipping draws the regions figure of each search of o that has an x axis,
// in the order of o's specs. A search whose other axes vary beyond its x
// and panel axes has no figure; notes say so, for the report.
func Tipping(g *sweep.Grid, o *tipping.Outcome) (figs []Figure, notes []string, err error) {
	for k := range o.Specs {
		t := &o.Specs[k]
		if len(o.Searches[k]) == 0 || t.X == "" && t.Panel == "" {
			continue
		}
		if t.X == "" { // the named values (policies) along x, a column each
			c := *t
			c.X, c.Panel = t.Panel, ""
			t = &c
		}
		ss := o.Searches[k]
		r := &regions{t: t, tab: &Table{Axes: axesOf(g, ss[0].Cell)}}
		for i := range ss {
			s := &ss[i]
			r.tab.Rows = append(r.tab.Rows, rowOf(s.Cell, &model.Result{}))
			rule, ok := s.RuleOfThumb()
			r.cols = append(r.cols, searchColumn{s: s, rule: rule, ruleOK: ok})
		}
		for i := range r.cols {
			r.cols[i].row = &r.tab.Rows[i]
		}
		fig, note, err := r.figure()
		switch {
		case err != nil:
			return nil, nil, fmt.Errorf("plots: figure %q: %w", t.Name, err)
		case note != "":
			notes = append(notes, note)
		default:
			figs = append(figs, fig)
		}
	}
	return figs, notes, nil
}
