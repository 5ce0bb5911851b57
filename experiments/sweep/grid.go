// Package sweep is a grid of seeded simulation cells and the worker pool
// that runs them. It knows no file format: a grid is a base scenario, axes
// over its keys (values of one key, or named sets of overrides), a seed, and
// the cells they expand to, each resolved once into the model.Plan the
// engines run and the figures and reports read.
//
// A cell's scenario is the base, then the named sets of its axes, then its
// other axis values in axis order; its seed derives from the grid's seed and
// the cell's parameters alone, so a cell is the same whether it is run in
// its grid, alone, or beside other values. Run simulates cells on a pool and
// returns their results in cell order, whatever the number of workers.
package sweep

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// Grid is the product of its axes over a base scenario, and single cells
// added beside that product.
type Grid struct {
	Base     model.Scenario
	Axes     []Axis // the first varies slowest
	Seed     uint64 // cell seeds derive from it
	SameSeed bool   // every cell starts its generator from Seed as is
	Series   *Selector
	// Windows are spans of every cell's run measured into result columns
	// (model.Window); each cell carries them to the engine.
	Windows []model.Window

	cells []Cell
	index map[string]int // the cells' value texts, joined → index
}

// Size is the number of cells the axes' product expands to.
func (g *Grid) Size() int {
	n := 1
	for _, a := range g.Axes {
		n *= len(a.Values)
	}
	return n
}

// Axis returns the named axis.
func (g *Grid) Axis(name string) (*Axis, bool) {
	for i := range g.Axes {
		if g.Axes[i].Name == name {
			return &g.Axes[i], true
		}
	}
	return nil, false
}

// AxisList names the axes, comma separated, for a message: "policy, load,
// blip", or "(none)".
func (g *Grid) AxisList() string {
	if len(g.Axes) == 0 {
		return "(none)"
	}
	names := make([]string, len(g.Axes))
	for i, a := range g.Axes {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// Cells returns every cell: the product in grid order (first axis slowest),
// then the cells added beside it.
func (g *Grid) Cells() []Cell { return g.cells }

// Product returns the cells of the axes' product.
func (g *Grid) Product() []Cell { return g.cells[:min(g.Size(), len(g.cells))] }

// Find returns the index of the cell whose value texts, one per axis in axis
// order, are texts.
func (g *Grid) Find(texts []string) (int, bool) {
	i, ok := g.index[strings.Join(texts, "\x00")]
	return i, ok
}

// Expand builds the product's cells, replacing any cells the grid had. The
// error is a *CellError naming the first cell that fails.
func (g *Grid) Expand() error {
	n := g.Size()
	g.cells = make([]Cell, 0, n)
	g.index = make(map[string]int, n)
	idx := make([]int, len(g.Axes))
	vals := make([]Value, len(g.Axes))
	for i := 0; i < n; i++ {
		// idx is the mixed-radix form of i.
		r := i
		for a := len(g.Axes) - 1; a >= 0; a-- {
			idx[a] = r % len(g.Axes[a].Values)
			r /= len(g.Axes[a].Values)
		}
		for a, ax := range g.Axes {
			vals[a] = ax.Values[idx[a]]
		}
		if _, err := g.Add(vals, nil); err != nil {
			return err
		}
	}
	return nil
}

// Add appends a cell beside the product, with one value per axis in axis
// order, and returns it. For an axis of named sets the value names one of
// the axis's sets, or a set own holds under the axis's name: a set the cell
// alone uses.
func (g *Grid) Add(vals []Value, own map[string]Set) (*Cell, error) {
	c, err := g.Cell(vals, own)
	if err != nil {
		return nil, err
	}
	key := c.key()
	if _, dup := g.index[key]; !dup {
		if g.index == nil {
			g.index = map[string]int{}
		}
		g.index[key] = c.Index
	}
	g.cells = append(g.cells, c)
	return &g.cells[len(g.cells)-1], nil
}

// Cell builds the cell Add would add, without adding it: its scenario,
// resolved, its seed and whether it records a series.
func (g *Grid) Cell(vals []Value, own map[string]Set) (Cell, error) {
	if len(vals) != len(g.Axes) {
		return Cell{}, fmt.Errorf("%d values for %d axes", len(vals), len(g.Axes))
	}
	c := Cell{Index: len(g.cells), Scenario: Clone(g.Base), Params: make([]Param, len(g.Axes))}
	for a, ax := range g.Axes {
		c.Params[a] = Param{Axis: ax.Name, Value: vals[a]}
	}
	// Named sets apply first, so an axis over a key a set also sets still
	// varies it; then the other axes in order.
	sets := make([]*Set, len(g.Axes))
	for a := range g.Axes {
		ax := &g.Axes[a]
		if !ax.Named() {
			continue
		}
		s, ok := ax.Set(vals[a].Text)
		if o, mine := own[ax.Name]; mine && o.Name == vals[a].Text {
			s, ok = &o, true
		}
		if !ok {
			return c, &CellError{Cell: c.Label(), Source: ax.Key, Context: ax.Name + " " + vals[a].Text,
				Err: fmt.Errorf("%q is not one of the axis's sets", vals[a].Text)}
		}
		sets[a] = s
		if o, err := s.Apply(&c.Scenario); err != nil {
			return c, &CellError{Cell: c.Label(), Source: o.Key, Path: o.Path, Context: ax.Name + " " + s.Name, Err: err}
		}
	}
	for a, ax := range g.Axes {
		if ax.Named() {
			continue
		}
		v := vals[a]
		if err := Assign(&c.Scenario, ax.Path, v.Raw); err != nil {
			return c, &CellError{Cell: c.Label(), Source: ax.Key, Path: ax.Path, Context: ax.Name + "=" + v.Text, Err: err}
		}
	}
	if err := ApplyChanges(&c.Scenario); err != nil {
		return c, g.resolveError(&c, sets, err)
	}
	p, err := c.Scenario.Resolve()
	if err != nil {
		return c, g.resolveError(&c, sets, err)
	}
	c.Plan = p
	c.Seed = g.SeedOf(c.Params)
	c.Series = g.Series != nil && g.Series.Holds(&c)
	c.Windows = g.Windows
	return c, nil
}

// resolveError places an error of model validation at the axis or named set
// that set the key, else at the key in the base scenario.
func (g *Grid) resolveError(c *Cell, sets []*Set, err error) error {
	label := c.Label()
	p, ok := KeyPath(err)
	if !ok {
		return &CellError{Cell: label, Context: "cell " + label, Err: err}
	}
	for i := len(g.Axes) - 1; i >= 0; i-- {
		ax := &g.Axes[i]
		if !ax.Named() && Covers(ax.Path, p) {
			return &CellError{Cell: label, Source: ax.Key, Path: ax.Path, Context: "cell " + label, Err: err}
		}
		if ax.Named() {
			for _, o := range sets[i].Overrides {
				if Covers(o.Path, p) {
					return &CellError{Cell: label, Source: o.Key, Path: o.Path, Context: ax.Name + " " + sets[i].Name, Err: err}
				}
			}
		}
	}
	ctx := ""
	if len(c.Params) > 0 {
		ctx = "cell " + label
	}
	return &CellError{Cell: label, Path: p, Context: ctx, Err: err}
}

// Covers reports whether assigning to the path set sets key: the same
// path, a table holding it, or a "*" over its list.
func Covers(set, key string) bool {
	a, b := strings.Split(set, "."), strings.Split(key, ".")
	for i := range a {
		if i >= len(b) {
			return true
		}
		if a[i] != b[i] && a[i] != "*" {
			return false
		}
	}
	return true
}

// SeedOf derives the seed of the cell with these parameters from the grid's
// seed and the parameters alone, so adding an axis value leaves the other
// cells' seeds alone; with SameSeed it is the grid's seed.
func (g *Grid) SeedOf(params []Param) uint64 {
	if g.SameSeed {
		return g.Seed
	}
	h := fnv.New64a()
	for _, p := range params {
		fmt.Fprintf(h, "%s=%s\x00", p.Axis, p.Text)
	}
	return model.SplitMix(g.Seed ^ model.SplitMix(h.Sum64()))
}

// key joins the cell's value texts, for Find.
func (c *Cell) key() string {
	texts := make([]string, len(c.Params))
	for i, p := range c.Params {
		texts[i] = p.Text
	}
	return strings.Join(texts, "\x00")
}

// Clone copies a scenario deeply enough that assigning a key of the copy
// leaves the original alone.
func Clone(s model.Scenario) model.Scenario {
	s.Layer = slices.Clone(s.Layer)
	s.Fault = slices.Clone(s.Fault)
	s.Shape = slices.Clone(s.Shape)
	s.Change = slices.Clone(s.Change)
	s.Graph.Service = slices.Clone(s.Graph.Service)
	s.Graph.Edge = slices.Clone(s.Graph.Edge)
	return s
}
