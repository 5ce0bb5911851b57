package plots

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"

	"github.com/stormlab/stormlab/model"
)

// axisOrder is the plotting order of one axis: its values ascending when
// they are numbers, as written otherwise. The zero axis name stands for
// "no axis": one value that every row has.
type axisOrder struct {
	name   string
	values []Value        // in plotting order
	pos    map[string]int // value text → index in values
}

// order finds the named axis ("" for none), with the values some row has:
// a figure's range may zoom in.
func (t *Table) order(name string) (axisOrder, error) {
	o := axisOrder{name: name, pos: map[string]int{}}
	if name == "" {
		o.values = []Value{{}}
		o.pos[""] = 0
		return o, nil
	}
	ax, ok := t.axis(name)
	if !ok {
		return o, fmt.Errorf("%q is not a grid axis", name)
	}
	present := map[string]bool{}
	for i := range t.Rows {
		if v, ok := t.Rows[i].Get(name); ok {
			present[v.Text] = true
		}
	}
	for _, v := range ax.Values {
		if present[v.Text] {
			o.values = append(o.values, v)
		}
	}
	if numeric(o.values) {
		sort.SliceStable(o.values, func(i, j int) bool { return o.values[i].Num < o.values[j].Num })
	}
	for i, v := range o.values {
		o.pos[v.Text] = i
	}
	return o, nil
}

// categories is the order of the named axis ("" for none) for a figure
// that draws its values as categories: the axis's values as order gives
// them, then, at the end in row order, any value a row has that is not
// among them (a cell added beside the grid product). Nothing assumes the
// rows form a full product.
func (t *Table) categories(name string) (axisOrder, error) {
	o, err := t.order(name)
	if err != nil || name == "" {
		return o, err
	}
	for i := range t.Rows {
		v, ok := t.Rows[i].Get(name)
		if !ok {
			return o, fmt.Errorf("cell %s has no value on axis %q", t.Rows[i].Label(), name)
		}
		if _, ok := o.pos[v.Text]; !ok {
			o.pos[v.Text] = len(o.values)
			o.values = append(o.values, v)
		}
	}
	return o, nil
}

// orders finds several axes at once, in the order asked.
func (t *Table) orders(names ...string) ([]axisOrder, error) {
	out := make([]axisOrder, len(names))
	for i, n := range names {
		o, err := t.order(n)
		if err != nil {
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

// checkAxes returns an error naming the axes, other than the ones the
// figure draws, on which the rows have more than one value: a figure
// cannot show them.
func (t *Table) checkAxes(kind string, drawn ...string) error {
	var extra []string
	for _, a := range t.Axes {
		if slices.Contains(drawn, a.Name) {
			continue
		}
		// Count the values the rows have: a figure's range or slice may
		// hold an axis to one value.
		seen := map[string]bool{}
		for i := range t.Rows {
			if v, ok := t.Rows[i].Get(a.Name); ok {
				seen[v.Text] = true
			}
		}
		if len(seen) > 1 {
			extra = append(extra, fmt.Sprintf("%s (%d values)", a.Name, len(seen)))
		}
	}
	if len(extra) == 0 {
		return nil
	}
	var roles []string
	for _, r := range drawn {
		if r != "" {
			roles = append(roles, r)
		}
	}
	return fmt.Errorf("a %s figure draws the axes %s; the grid also varies %s: give the figure that axis (x, y, panel or line), set it to one value, or pick one with the figure's only = { axis = value }",
		kind, strings.Join(roles, ", "), strings.Join(extra, ", "))
}

// numeric reports whether every value is a number.
func numeric(vs []Value) bool {
	for _, v := range vs {
		if !v.IsNum {
			return false
		}
	}
	return len(vs) > 0
}

// of is the index of the row's value on the axis.
func (o axisOrder) of(r *Row) int {
	if o.name == "" {
		return 0
	}
	v, _ := r.Get(o.name)
	return o.pos[v.Text]
}

// nums are the axis values as numbers, in plotting order.
func (o axisOrder) nums() []float64 {
	out := make([]float64, len(o.values))
	for i, v := range o.values {
		out[i] = v.Num
	}
	return out
}

// unevenRatio is the rule for placing an axis's values: when the largest
// gap between neighbouring values is more than unevenRatio times the
// smallest, a linear axis would crowd the small values (10ms, 100ms and
// 250ms beside 4s), so the values are placed by index instead.
const unevenRatio = 3

// placement is where a phase or lines figure puts an axis's values along a
// panel: at the values themselves (linear), or, when they are uneven (see
// unevenRatio), at 0, 1, 2, … in order, evenly spaced and not to scale.
type placement struct {
	index bool
	nums  []float64 // the axis's values, ascending
}

// placement decides how the axis's values are placed.
func (o axisOrder) placement() placement {
	xs := o.nums()
	return placement{index: uneven(xs), nums: xs}
}

// uneven reports whether ascending values are unevenly spaced: there are
// at least three, and the largest gap between neighbours is more than
// unevenRatio times the smallest. Even grids (load 50..95 step 1, budget 0
// to 0.3 step 0.05) and grids with a value or two missing stay linear.
func uneven(xs []float64) bool {
	if len(xs) < 3 {
		return false
	}
	lo, hi := math.Inf(1), 0.0
	for i := 1; i < len(xs); i++ {
		g := xs[i] - xs[i-1]
		lo, hi = math.Min(lo, g), math.Max(hi, g)
	}
	return lo > 0 && hi > unevenRatio*lo
}

// positions are where the values sit along the axis, in plot coordinates.
func (p placement) positions() []float64 {
	if !p.index {
		return slices.Clone(p.nums)
	}
	out := make([]float64, len(p.nums))
	for i := range out {
		out[i] = float64(i)
	}
	return out
}

// at maps a value in the axis's own units (a load, a blip length in
// seconds) to plot coordinates: itself on a linear axis; on an axis placed
// by index, by linear interpolation between the neighbouring values'
// positions, extrapolating the first or last gap beyond the ends. Anything
// drawn in data coordinates over an index axis (the rule of thumb) goes
// through at, so it lines up with the cells.
func (p placement) at(v float64) float64 {
	n := len(p.nums)
	if !p.index || n < 2 {
		return v
	}
	i := sort.SearchFloat64s(p.nums, v) // first value ≥ v
	j := min(max(i-1, 0), n-2)          // the gap [j, j+1] v lies in (or beyond)
	return float64(j) + (v-p.nums[j])/(p.nums[j+1]-p.nums[j])
}

// ticks labels the axis: for an index axis, every value at its position,
// written as the grid writes it ("10ms", "250ms", "1s") or as a number in
// the axis unit; for a linear axis, its own values when there are few
// (valueTicks), else nil for round numbers. drawTiled thins labels that
// would overlap.
func (p placement) ticks(o axisOrder) plot.Ticker {
	if !p.index {
		return valueTicks(o)
	}
	ticks := make(axisTicks, len(o.values))
	for i, v := range o.values {
		ticks[i] = plot.Tick{Value: float64(i), Label: tickText(v)}
	}
	return ticks
}

// valueTicks are ticks at an axis's own values when there are few of them
// (a sparse grid reads best labelled where its cells are), nil otherwise.
func valueTicks(o axisOrder) plot.Ticker {
	if len(o.values) > 8 {
		return nil
	}
	var ticks axisTicks
	for _, v := range o.values {
		ticks = append(ticks, plot.Tick{Value: v.Num, Label: formatNum(v.Num)})
	}
	return ticks
}

// tickText writes an axis value for a tick on an index axis: a duration
// with its unit as the captions write it ("250ms", "1s", "60s"), a number
// as formatNum does.
func tickText(v Value) string {
	if isDuration(v) {
		return durText(model.Duration(math.Round(v.Num * 1e9)))
	}
	return formatNum(v.Num)
}

// edges are the boundaries of the cells centred on xs (ascending): halfway
// between neighbours, and as far out again at both ends.
func edges(xs []float64) []float64 {
	n := len(xs)
	out := make([]float64, n+1)
	if n == 1 {
		out[0], out[1] = xs[0]-0.5, xs[0]+0.5
		return out
	}
	for i := 1; i < n; i++ {
		out[i] = (xs[i-1] + xs[i]) / 2
	}
	out[0] = xs[0] - (xs[1]-xs[0])/2
	out[n] = xs[n-1] + (xs[n-1]-xs[n-2])/2
	return out
}
