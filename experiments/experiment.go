// Package experiments turns a TOML experiment file into a grid of seeded
// simulation cells and runs them on a worker pool.
//
// An experiment is a base scenario (every key defaulted, see model.Default),
// optional named policies (each a set of scenario overrides), and a grid of
// axes over any scenario key. Load reads and validates a file; Experiment.Cells
// expands the grid; Run simulates every cell and returns the results in grid
// order, whatever the number of workers.
package experiments

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// DefaultMaxCells is the largest grid an experiment may expand to unless it
// raises max_cells.
const DefaultMaxCells = 20000

// Experiment is one loaded, validated experiment file.
type Experiment struct {
	Name     string // folder name under reports/ (default: the file name without .toml)
	Title    string // one line for headings
	Question string // what the experiment asks, for the report
	File     string // path it was loaded from
	Seed     uint64 // experiment seed; cell seeds derive from it
	SameSeed bool   // every cell starts its generator from Seed as is
	MaxCells int

	Base      model.Scenario // the [scenario] table over the defaults
	Policies  []Policy       // the [[policy]] entries, in file order
	Axes      []Axis         // grid axes in file order; the first varies slowest
	Series    SeriesSelector // which cells record a time series
	Figures   []Figure
	Findings  []Finding            // the author's sentences, with numbers from the results
	Tolerance map[string]Tolerance // per results.csv column, for stormlab check

	cells []Cell              // the expanded grid
	pos   map[string]position // key path → where it is written
	sets  map[string]bool     // key paths a -set flag gave
}

// Policy is a named set of scenario overrides: one panel of a phase diagram,
// one line of a table.
type Policy struct {
	Name      string
	Overrides []Override
}

// Override sets one scenario key.
type Override struct {
	Path  string // dotted path below [scenario]
	Value any    // as decoded from TOML
	Key   string // where it is written in the file (for error positions)
}

// Axis is one dimension of the grid: either values of one scenario key, or
// named sets of scenario keys (the [[policy]] entries, or a [[grid.NAME]]
// list of tables).
type Axis struct {
	Name     string   // as written under [grid]: "load", "blip", "dependency.capacity", "policy"
	Path     string   // the scenario path it sets ("" for an axis of named sets)
	Sets     []Policy // the named sets, for an axis of them; Values holds their names
	Values   []Value  // in order
	Key      string   // where it is written in the file
	Duration bool     // the values are durations (Num in seconds)
}

// Value is one point on an axis.
type Value struct {
	Text  string  // as a user writes it: "70", "2s", "no retries"
	Raw   any     // what is assigned: int64, float64, string (durations as strings)
	Num   float64 // numeric value for plotting (durations in seconds)
	IsNum bool
}

// SeriesSelector picks the cells that record a per-second time series: all
// of them, or those whose axis values are in Match.
type SeriesSelector struct {
	All   bool
	Match map[string][]string // axis name → accepted value texts
}

// Figure asks for one figure in the report.
type Figure struct {
	Kind        string // phase, lines, bars or series
	Name        string // file name without extension
	Title       string
	X, Y        string // axis names (phase: both axes; lines: x axis; bars: the categories)
	Panel       string // axis with one panel per value ("" = one panel)
	Line        string // lines: axis with one line per value; bars: one bar per value in each category
	Metric      string // results.csv column plotted (phase colour, lines y)
	RuleOfThumb bool   // phase: draw blip ≈ capacity × timeout / load
	// Range keeps only the cells whose value on an axis lies within
	// [min, max] (durations in seconds): a zoom on part of the grid.
	Range map[string][2]float64
	// Only keeps only the cells whose value on an axis is one of those
	// listed: a figure of one slice of the grid.
	Only map[string][]string
}

// InRange reports whether the cell lies within the figure's ranges.
func (f *Figure) InRange(c *Cell) bool {
	for axis, r := range f.Range {
		if v, ok := c.Get(axis); ok && (v.Num < r[0]-1e-9 || v.Num > r[1]+1e-9) {
			return false
		}
	}
	for axis, texts := range f.Only {
		if v, ok := c.Get(axis); ok && !slices.Contains(texts, v.Text) {
			return false
		}
	}
	return true
}

// Tolerance is how far a regenerated number may move from its baseline:
// |now − base| ≤ Abs or ≤ Rel × |base|.
type Tolerance struct {
	Abs float64 `toml:"abs"`
	Rel float64 `toml:"rel"`
}

// Finding is a sentence of the report written by the experiment's author
// whose numbers come from the results. In the file it is a string in which
// {column[v1; v2]} stands for the results.csv column of the cell whose axis
// values are v1, v2 (in axis order); {column[v1; v2]%.2f} formats it with a
// Go verb and {column[v1; v2]pct} as a percentage; {{ and }} are literal
// braces.
type Finding struct {
	Parts []FindingPart
}

// FindingPart is literal text, or a reference to one number of one cell.
type FindingPart struct {
	Text   string // literal text (when Column is empty)
	Column string // results.csv column
	Cell   int    // index of the cell in Cells()
	Format string // Go verb such as "%.2f", or "pct"; empty = the report's own format
}

// Cell is one point of the grid: its parameters and the scenario they give.
type Cell struct {
	Index    int
	Params   []Param // one per axis, in axis order
	Scenario model.Scenario
	Seed     uint64
	Series   bool
}

// Param is a cell's value on one axis.
type Param struct {
	Axis string
	Value
}

// Get returns the cell's value on the named axis.
func (c *Cell) Get(axis string) (Value, bool) {
	for _, p := range c.Params {
		if p.Axis == axis {
			return p.Value, true
		}
	}
	return Value{}, false
}

// Label is the cell's parameters as "axis=value, ...", or "base" for a grid
// without axes.
func (c *Cell) Label() string {
	if len(c.Params) == 0 {
		return "base"
	}
	parts := make([]string, len(c.Params))
	for i, p := range c.Params {
		parts[i] = p.Axis + "=" + p.Text
	}
	return strings.Join(parts, ", ")
}

// Size is the number of cells the grid's product expands to; [[cell]]
// entries come after them.
func (e *Experiment) Size() int {
	n := 1
	for _, a := range e.Axes {
		n *= len(a.Values)
	}
	return n
}

// Axis returns the named axis.
func (e *Experiment) Axis(name string) (*Axis, bool) {
	for i := range e.Axes {
		if e.Axes[i].Name == name {
			return &e.Axes[i], true
		}
	}
	return nil, false
}

// Cells returns the grid's cells in grid order (first axis slowest), each
// validated when the experiment was loaded.
func (e *Experiment) Cells() []Cell { return e.cells }

// expand builds every cell. A cell's scenario is the base, then its policy's
// overrides, then its other axis values in axis order.
func (e *Experiment) expand() ([]Cell, error) {
	n := e.Size()
	cells := make([]Cell, n)
	idx := make([]int, len(e.Axes))
	for i := range cells {
		// idx is the mixed-radix form of i.
		r := i
		for a := len(e.Axes) - 1; a >= 0; a-- {
			idx[a] = r % len(e.Axes[a].Values)
			r /= len(e.Axes[a].Values)
		}
		c, err := e.cell(i, idx)
		if err != nil {
			return nil, err
		}
		cells[i] = c
	}
	return cells, nil
}

// cell builds cell i from its per-axis value indexes.
func (e *Experiment) cell(i int, idx []int) (Cell, error) {
	vals := make([]Value, len(e.Axes))
	for a, ax := range e.Axes {
		vals[a] = ax.Values[idx[a]]
	}
	return e.build(i, vals, e.Axes)
}

// build makes a cell from one value per axis. Named sets apply first, so an
// axis over a key a set also sets still varies it; then the other axes in
// order. axes may hold extra named sets (a [[cell]] entry's own).
func (e *Experiment) build(i int, vals []Value, axes []Axis) (Cell, error) {
	c := Cell{Index: i, Scenario: cloneScenario(e.Base)}
	for a, ax := range axes {
		c.Params = append(c.Params, Param{Axis: ax.Name, Value: vals[a]})
	}
	for a, ax := range axes {
		if ax.Sets == nil {
			continue
		}
		p := ax.set(vals[a].Text)
		for _, o := range p.Overrides {
			if err := setPath(&c.Scenario, o.Path, o.Value); err != nil {
				return c, e.errorAt(o.Key, o.Path, err, ax.Name+" "+p.Name)
			}
		}
	}
	for a, ax := range axes {
		if ax.Sets != nil {
			continue
		}
		v := vals[a]
		if err := setPath(&c.Scenario, ax.Path, v.Raw); err != nil {
			return c, e.errorAt(ax.Key, ax.Path, err, ax.Name+"="+v.Text)
		}
	}
	if err := model.Check(&c.Scenario); err != nil {
		return c, e.cellError(&c, axes, err)
	}
	c.Seed = e.cellSeed(&c)
	c.Series = e.Series.selects(&c)
	return c, nil
}

// set returns the axis's named set called name.
func (ax *Axis) set(name string) *Policy {
	for i := range ax.Sets {
		if ax.Sets[i].Name == name {
			return &ax.Sets[i]
		}
	}
	return &Policy{Name: name}
}

// setNames lists an axis's named sets, quoted, for error messages.
func (ax *Axis) setNames() string {
	var names []string
	for _, p := range ax.Sets {
		names = append(names, fmt.Sprintf("%q", p.Name))
	}
	return strings.Join(names, ", ")
}

// cellSeed derives a cell's seed from the experiment seed and the cell's
// parameters, so adding an axis value leaves the other cells' seeds alone.
func (e *Experiment) cellSeed(c *Cell) uint64 {
	if e.SameSeed {
		return e.Seed
	}
	h := fnv.New64a()
	for _, p := range c.Params {
		fmt.Fprintf(h, "%s=%s\x00", p.Axis, p.Text)
	}
	return model.SplitMix(e.Seed ^ model.SplitMix(h.Sum64()))
}

func (s *SeriesSelector) selects(c *Cell) bool {
	if s.All {
		return true
	}
	if len(s.Match) == 0 {
		return false
	}
	for axis, texts := range s.Match {
		v, ok := c.Get(axis)
		if !ok {
			return false
		}
		found := false
		for _, t := range texts {
			found = found || t == v.Text
		}
		if !found {
			return false
		}
	}
	return true
}

// cloneScenario copies a scenario deeply enough that setting a key of the
// copy leaves the original alone.
func cloneScenario(s model.Scenario) model.Scenario {
	s.Layer = append([]model.Layer(nil), s.Layer...)
	s.Fault = append([]model.Fault(nil), s.Fault...)
	return s
}
