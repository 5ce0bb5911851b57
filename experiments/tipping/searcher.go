package tipping

import (
	"reflect"
	"sync"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// searcher builds the points of one spec's searches. Its grid is the
// experiment's with the key as an axis: the key's own axis when the grid
// has one, else one more axis at the end, so each point is the cell a
// uniform grid over the key would have there, seed included. Its baseline
// grid adds an axis that sets every fault's length to 0: the run without a
// fault.
type searcher struct {
	g, points, baseline *sweep.Grid
	t                   *spec.Tipping
	l                   line
	key                 int // the key's axis in points
}

func newSearcher(g *sweep.Grid, t *spec.Tipping) (*searcher, error) {
	s := &searcher{g: g, t: t, l: newLine(t), key: -1}
	pts := *g
	pts.Axes = append([]sweep.Axis(nil), g.Axes...)
	pts.Series = nil
	for i, ax := range g.Axes {
		if !ax.Named() && ax.Path == t.Path {
			s.key = i
		}
	}
	if s.key < 0 {
		pts.Axes = append(pts.Axes, sweep.Axis{Name: t.Key, Path: t.Path, Key: "tipping." + t.Key, Duration: t.Duration})
		s.key = len(pts.Axes) - 1
	}
	s.points = &pts
	if t.Trigger() {
		zero, err := sweep.NewValue("0s", true)
		if err != nil {
			return nil, err
		}
		b := pts
		b.Axes = append(append([]sweep.Axis(nil), pts.Axes...),
			sweep.Axis{Name: "no fault", Path: "fault.*.length", Key: "tipping.key", Duration: true, Values: []sweep.Value{zero}})
		s.baseline = &b
	}
	return s, nil
}

// groups returns, for each combination of values of the grid's axes other
// than the key, the first cell of the grid's product that has it, in grid
// order.
func (s *searcher) groups() []*sweep.Cell {
	var out []*sweep.Cell
	seen := map[string]bool{}
	cells := s.g.Product()
	for i := range cells {
		k := (&Search{Params: s.others(&cells[i])}).Label()
		if !seen[k] {
			seen[k] = true
			out = append(out, &cells[i])
		}
	}
	return out
}

// others are the cell's values on the grid's axes other than the key.
func (s *searcher) others(c *sweep.Cell) []sweep.Param {
	var out []sweep.Param
	for _, p := range c.Params {
		if s.key >= len(s.g.Axes) || p.Axis != s.g.Axes[s.key].Name {
			out = append(out, p)
		}
	}
	return out
}

// values are the cell's values on the points grid's axes, with point i's
// value of the key.
func (s *searcher) values(c *sweep.Cell, i int) ([]sweep.Value, error) {
	v, err := s.l.axisValue(i)
	if err != nil {
		return nil, err
	}
	vals := make([]sweep.Value, len(s.points.Axes))
	for a := range c.Params {
		vals[a] = c.Params[a].Value
	}
	vals[s.key] = v
	return vals, nil
}

// Point builds the cell of point i of the line for the grid cell c: c's
// values on the other axes, the key at point i, and the seed that cell has
// in a uniform grid over the key.
func (s *searcher) point(c *sweep.Cell, i int) (sweep.Cell, error) {
	vals, err := s.values(c, i)
	if err != nil {
		return sweep.Cell{}, err
	}
	return s.points.Cell(vals, nil)
}

// noFault builds c's cell with the key at the mild end and every fault's
// length 0.
func (s *searcher) noFault(c *sweep.Cell) (sweep.Cell, error) {
	vals, err := s.values(c, 0)
	if err != nil {
		return sweep.Cell{}, err
	}
	return s.baseline.Cell(append(vals, s.baseline.Axes[len(vals)].Values[0]), nil)
}

// search runs one search from the grid cell c.
func (s *searcher) search(ev *evaluator, c *sweep.Cell) (Search, error) {
	out := Search{Spec: s.t, Params: s.others(c), Cell: c, GridPoints: s.l.n}
	var mu sync.Mutex
	done := map[int]*Eval{}
	eval := func(i int) (*Eval, error) {
		mu.Lock()
		e, ok := done[i]
		mu.Unlock()
		if ok {
			return e, nil
		}
		pc, err := s.point(c, i)
		if err != nil {
			return nil, err
		}
		r, err := ev.run(&pc, false)
		if err != nil {
			return nil, err
		}
		v, _ := pc.Get(s.points.Axes[s.key].Name)
		x := newEval(i, s.l.value(i), v.Text, judgedBy(&r, s.t.Service), pc.Plan.Engine)
		mu.Lock()
		defer mu.Unlock()
		if e, ok := done[i]; ok {
			return e, nil // run twice at once: the same cell, the same result
		}
		done[i] = &x
		out.Evaluations++
		return &x, nil
	}
	if s.t.Trigger() {
		b, err := s.noFault(c)
		if err != nil {
			return out, err
		}
		first, err := s.point(c, 0)
		if err != nil {
			return out, err
		}
		var e *Eval
		if reflect.DeepEqual(b.Scenario, first.Scenario) {
			// The mild end is the run without a fault.
			if e, err = eval(0); err != nil {
				return out, err
			}
		} else {
			r, err := ev.run(&b, false)
			if err != nil {
				return out, err
			}
			x := newEval(-1, 0, "no fault", judgedBy(&r, s.t.Service), b.Plan.Engine)
			e = &x
			out.Evaluations++
			out.GridPoints++
		}
		out.Baseline = e
		switch {
		case e.Aborted != "":
			out.Status = Aborted
			return out, nil
		case e.Tips():
			out.Status, out.Region = Overloaded, Overload
			out.Critical, out.Lo, out.Hi = nan(), nan(), nan()
			if e.Index >= 0 {
				out.Evals = []Eval{*e}
			}
			return out, nil
		}
	}
	if err := walk(s.l.n, s.t.Scan, eval); err != nil {
		return out, err
	}
	collect := func() {
		out.Evals = out.Evals[:0]
		for _, e := range done {
			out.Evals = append(out.Evals, *e)
		}
		out.summarise()
	}
	collect()
	if out.Recovers != nil && !out.Exact() {
		if err := narrow(out.Evals, out.Recovers.Index, out.Tips.Index, eval); err != nil {
			return out, err
		}
		collect()
	}
	if out.Tips != nil && out.Exact() && !out.Tips.Chain() {
		end := out.Tips.end
		out.End = &end
	}
	return out, nil
}
