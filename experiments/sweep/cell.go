package sweep

import (
	"fmt"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// Cell is one point of a grid: its parameters, the scenario they give, that
// scenario resolved once for the engines and for whatever reads its meaning
// (figures, reports), and its seed.
type Cell struct {
	Index    int     // position in the grid's cells, and of its result
	Params   []Param // one per axis, in axis order
	Scenario model.Scenario
	Plan     *model.Plan // Scenario resolved
	Seed     uint64
	Series   bool // record a per-second time series
	Windows  []model.Window
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

// Refined is the cell with its scenario's tick halved: the same parameters
// and seed, no series. Every span that was a whole number of ticks still
// is one, so a cell the queue engine runs stays one it runs. A tick of an
// odd number of nanoseconds has no exact half, and a run of more ticks
// than the model simulates cannot be refined: both are errors.
func (c *Cell) Refined() (Cell, error) {
	sc := Clone(c.Scenario)
	if sc.Tick%2 != 0 {
		return Cell{}, fmt.Errorf("a tick of %v has no exact half", sc.Tick)
	}
	sc.Tick /= 2
	p, err := sc.Resolve()
	if err != nil {
		return Cell{}, fmt.Errorf("at half the tick, %v: %w", sc.Tick, err)
	}
	r := *c
	r.Scenario, r.Plan, r.Series = sc, p, false
	return r, nil
}
