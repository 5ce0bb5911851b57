package tipping

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// Options say how Run simulates the points.
type Options struct {
	// Workers is how many cells run at once (at least one).
	Workers int
	// MaxMemory caps the live state of one cell (model.Options.MaxMemory);
	// 0 = no cap. A point stopped at the cap stops its search.
	MaxMemory int64
	// Done, if not nil, is called after each search, from the workers: it
	// must be safe for concurrent use.
	Done func()
}

// Outcome is every search of an experiment: per spec, one search per
// combination of values of the grid's other axes, in grid order.
type Outcome struct {
	Specs    []spec.Tipping
	Searches [][]Search
}

// Evaluations and GridPoints total the cells the searches ran and those
// uniform grids of the same resolution would run.
func (o *Outcome) Evaluations() (searched, grid int) {
	for _, ss := range o.Searches {
		for i := range ss {
			searched += ss[i].Evaluations
			grid += ss[i].GridPoints
		}
	}
	return searched, grid
}

// Count is the number of searches.
func (o *Outcome) Count() int {
	n := 0
	for _, ss := range o.Searches {
		n += len(ss)
	}
	return n
}

// Run runs every search of specs over the grid's product: for each spec,
// one search per combination of values of the axes other than its key, the
// first grid cell with those values its base. Searches run side by side on
// up to opt.Workers cells at once; each runs its own points in a fixed
// order, so the outcome never depends on the workers. Cancelling ctx stops
// every cell under way, and Run returns ctx.Err().
func Run(parent context.Context, g *sweep.Grid, specs []spec.Tipping, opt Options) (*Outcome, error) {
	out := &Outcome{Specs: specs, Searches: make([][]Search, len(specs))}
	eg, ctx := errgroup.WithContext(parent)
	ev := &evaluator{ctx: ctx, slots: make(chan struct{}, max(1, opt.Workers)), maxMemory: opt.MaxMemory}
	for k := range specs {
		t := &out.Specs[k]
		s, err := newSearcher(g, t)
		if err != nil {
			return nil, err
		}
		groups := s.groups()
		out.Searches[k] = make([]Search, len(groups))
		for i, c := range groups {
			eg.Go(func() error {
				r, err := s.search(ev, c)
				if err != nil {
					return fmt.Errorf("tipping search over %s, %s: %w", t.Key, (&Search{Params: s.others(c)}).Label(), err)
				}
				out.Searches[k][i] = r
				if opt.Done != nil {
					opt.Done()
				}
				return nil
			})
		}
	}
	if err := eg.Wait(); err != nil {
		if perr := parent.Err(); perr != nil {
			return nil, perr
		}
		return nil, err
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// evaluator runs cells, at most cap(slots) at once over every search.
type evaluator struct {
	ctx       context.Context
	slots     chan struct{}
	maxMemory int64
}

// run runs one cell, with its per-second series when series is set.
func (ev *evaluator) run(c *sweep.Cell, series bool) (model.Result, error) {
	select {
	case ev.slots <- struct{}{}:
	case <-ev.ctx.Done():
		return model.Result{}, ev.ctx.Err()
	}
	defer func() { <-ev.slots }()
	return model.RunPlan(ev.ctx, c.Plan, c.Seed, model.Options{MaxMemory: ev.maxMemory, Series: series})
}

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
		x := newEval(i, s.l.value(i), v.Text, &r, pc.Plan.Engine == model.EngineQueue)
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
			x := newEval(-1, 0, "no fault", &r, b.Plan.Engine == model.EngineQueue)
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
	if out.Tips != nil && out.Exact() {
		pc, err := s.point(c, out.Tips.Index)
		if err != nil {
			return out, err
		}
		r, err := ev.run(&pc, true)
		if err != nil {
			return out, err
		}
		out.Evaluations++
		out.End = endOf(pc.Plan, &r)
	}
	return out, nil
}

// walk runs a search's points over a line of n points: first the scan's
// points, evenly spread, both ends included, side by side; then, side by
// side, every stretch between two neighbouring scan points whose verdicts
// differ, bisected down to neighbouring points. eval runs point i, or
// returns it as run before. A point stopped at the memory cap ends the
// walk (after the scan) or its bisection.
func walk(n, scan int, eval func(i int) (*Eval, error)) error {
	pts := scanPoints(n, scan)
	evals := make([]*Eval, len(pts))
	if err := each(len(pts), func(j int) (err error) { evals[j], err = eval(pts[j]); return err }); err != nil {
		return err
	}
	for _, e := range evals {
		if e.Aborted != "" {
			return nil
		}
	}
	return each(len(pts)-1, func(j int) error {
		tips := evals[j].Tips()
		if tips == evals[j+1].Tips() {
			return nil
		}
		return bisect(pts[j], pts[j+1], eval, func(m *Eval) bool { return m.Tips() == tips })
	})
}

// bisect narrows the stretch between points a and b, where like(a) holds
// and like(b) does not, down to neighbouring points, running the point
// halfway each time and keeping the half whose ends still differ. It stops
// at a point stopped at the memory cap.
func bisect(a, b int, eval func(i int) (*Eval, error), like func(e *Eval) bool) error {
	for abs(b-a) > 1 {
		m, err := eval((a + b) / 2)
		if err != nil {
			return err
		}
		if m.Aborted != "" {
			return nil
		}
		if like(m) {
			a = m.Index
		} else {
			b = m.Index
		}
	}
	return nil
}

// narrow finds the ends of a stochastic estimate's interval to the line's
// resolution: between the bracket's mild end (point rec) and the nearest
// point on its mild side certain to recover, it bisects for the point
// nearest the bracket that is still certain to recover, and likewise on the
// severe side for the nearest point certain to tip. evals are the points
// run so far, in line order. With more replicates the Wilson intervals
// narrow, points nearer the boundary become certain, and so the interval
// narrows.
func narrow(evals []Eval, rec, tip int, eval func(i int) (*Eval, error)) error {
	sureRec, sureTip := -1, -1
	for i := range evals {
		e := &evals[i]
		if e.Index <= rec && e.SureRecovers() {
			sureRec = e.Index
		}
		if e.Index >= tip && e.SureTips() && sureTip < 0 {
			sureTip = e.Index
		}
	}
	sides := []struct {
		sure, unsure int
		holds        func(e *Eval) bool
	}{
		{sureRec, rec, (*Eval).SureRecovers},
		{sureTip, tip, (*Eval).SureTips},
	}
	return each(len(sides), func(j int) error {
		sd := sides[j]
		if sd.sure < 0 {
			return nil // no point on that side is certain: the interval stays open
		}
		return bisect(sd.sure, sd.unsure, eval, sd.holds)
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// each runs f(0), …, f(n−1) side by side and returns the first error.
func each(n int, f func(j int) error) error {
	var g errgroup.Group
	for j := 0; j < n; j++ {
		g.Go(func() error { return f(j) })
	}
	return g.Wait()
}

// KeyLabel names the key of t in words for messages and figures: "blip
// length", "load".
func KeyLabel(t *spec.Tipping) string {
	switch t.Key {
	case "blip":
		return "blip length"
	}
	return strings.ReplaceAll(strings.TrimPrefix(t.Key, "dependency."), "_", " ")
}

// Count is the number of searches specs make over the grid's product.
func Count(g *sweep.Grid, specs []spec.Tipping) int {
	n := 0
	for k := range specs {
		s, err := newSearcher(g, &specs[k])
		if err == nil {
			n += len(s.groups())
		}
	}
	return n
}

// Mildest names the critical value of a search: "the shortest blip length
// that tips", "the lowest load that tips", "the highest capacity that
// tips" for a range that runs downwards; for a stochastic engine, "the
// blip length at which half of the runs tip".
func Mildest(t *spec.Tipping, exact bool) string {
	if !exact {
		return "the " + KeyLabel(t) + " at which half of the runs tip"
	}
	word := "lowest"
	switch {
	case t.Duration && t.To > t.From:
		word = "shortest"
	case t.Duration:
		word = "longest"
	case t.To < t.From:
		word = "highest"
	}
	return "the " + word + " " + KeyLabel(t) + " that tips"
}
