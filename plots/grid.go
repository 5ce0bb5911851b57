package plots

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/model"
)

// axisOrder is the plotting order of one grid axis: its values ascending
// when they are numbers, as written otherwise. The zero axis name stands for
// "no axis": one value that every cell has.
type axisOrder struct {
	name   string
	values []experiments.Value // in plotting order
	pos    map[string]int      // value text → index in values
}

// order finds the named axis ("" for none).
func (d *data) order(name string) (axisOrder, error) {
	o := axisOrder{name: name, pos: map[string]int{}}
	if name == "" {
		o.values = []experiments.Value{{}}
		o.pos[""] = 0
		return o, nil
	}
	ax, ok := d.e.Axis(name)
	if !ok {
		return o, fmt.Errorf("%q is not a grid axis", name)
	}
	// Only the values some drawn cell has: a figure's range may zoom in.
	present := map[string]bool{}
	for i := range d.cells {
		if v, ok := d.cells[i].Get(name); ok {
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

// numeric reports whether every value is a number.
func numeric(vs []experiments.Value) bool {
	for _, v := range vs {
		if !v.IsNum {
			return false
		}
	}
	return len(vs) > 0
}

// of is the index of the cell's value on the axis.
func (o axisOrder) of(c *experiments.Cell) int {
	if o.name == "" {
		return 0
	}
	v, _ := c.Get(o.name)
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

// checkAxes returns an error naming the grid axes, other than the ones the
// figure draws, that have more than one value: a figure cannot show them.
func (d *data) checkAxes(kind string, drawn ...string) error {
	var extra []string
	for _, a := range d.e.Axes {
		if len(a.Values) > 1 && !slices.Contains(drawn, a.Name) {
			extra = append(extra, fmt.Sprintf("%s (%d values)", a.Name, len(a.Values)))
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
	return fmt.Errorf("a %s figure draws the axes %s; the grid also varies %s: give the figure that axis (x, y, panel or line) or set it to one value",
		kind, strings.Join(roles, ", "), strings.Join(extra, ", "))
}

// axisLabel names an axis with its unit: "load (requests/s)", "blip length (s)".
func (d *data) axisLabel(name string) string {
	ax, ok := d.e.Axis(name)
	if !ok || name == "policy" {
		return name
	}
	label := axisName(name)
	unit := ""
	if isDuration(ax.Values[0]) {
		unit = "s"
	} else if len(d.cells) > 0 {
		path := strings.ReplaceAll(ax.Path, "*", "0")
		for _, k := range experiments.Describe(d.cells[0].Scenario) {
			if k.Path == path {
				unit = k.Unit
			}
		}
	}
	if unit != "" {
		label += " (" + unit + ")"
	}
	return label
}

// axisName names an axis in words: "blip length", "capacity".
func axisName(name string) string {
	switch name {
	case "blip":
		return "blip length"
	case "budget":
		return "retry budget ratio"
	case "attempts":
		return "attempts per call"
	}
	return pathLabel(name)
}

// pathLabel names a scenario key for an axis: "dependency.capacity" is
// "capacity", "fault.0.length" is "fault length", "dependency.queue_limit"
// is "queue limit".
func pathLabel(path string) string {
	segs := strings.Split(path, ".")
	if segs[0] == "dependency" && len(segs) > 1 {
		segs = segs[1:]
	}
	var words []string
	for _, s := range segs {
		if _, err := strconv.Atoi(s); err == nil || s == "*" {
			continue
		}
		words = append(words, strings.ReplaceAll(s, "_", " "))
	}
	return strings.Join(words, " ")
}

// isDuration reports whether an axis value is a duration: a number written
// with a unit ("30s", "1m").
func isDuration(v experiments.Value) bool {
	if !v.IsNum {
		return false
	}
	_, err := strconv.ParseFloat(v.Text, 64)
	return err != nil
}

// metricLabel names a metric with its unit, for an axis or a colour bar.
func metricLabel(m model.Metric) string {
	switch m.Name {
	case "recovery_s":
		return "recovery time after the fault (s)"
	case "recovered":
		return "recovered (1 = yes)"
	case "requests":
		return "user requests"
	case "calls":
		return "calls at the dependency"
	case "amplification":
		return "amplification (calls per request)"
	case "peak_calls":
		return "peak calls in one tick"
	case "peak_load_x":
		return "peak load at the dependency (× arrivals)"
	case "window_calls_per_s":
		return "calls during the fault (calls/s)"
	case "window_rate_x":
		return "call rate during the fault (× arrivals)"
	case "peak_queue":
		return "peak queue (calls waiting)"
	case "successful":
		return "successful requests"
	case "failed":
		return "failed requests"
	case "pending":
		return "requests pending at the end"
	case "retries_refused":
		return "retries refused"
	case "wasted":
		return "wasted work (share of work served)"
	case "recovered_share":
		return "share of replicates that recovered"
	}
	if m.Kind == "seconds" {
		return m.Name + " (s)"
	}
	return m.Name
}

// metricDoc is what a metric means, for a caption: its results.csv
// description up to any note about empty cells.
func metricDoc(m model.Metric) string {
	doc, _, _ := strings.Cut(m.Doc, "; empty")
	return doc
}

// varying are the axes on which the cells do not all have the same value,
// in grid order.
func (d *data) varying(cells []experiments.Cell) []string {
	var out []string
	for _, a := range d.e.Axes {
		seen := map[string]bool{}
		for i := range cells {
			v, _ := cells[i].Get(a.Name)
			seen[v.Text] = true
		}
		if len(seen) > 1 {
			out = append(out, a.Name)
		}
	}
	return out
}

// cellLabel names a cell by its values on the given axes: "27 attempts,
// load 80" (a policy by its name alone).
func cellLabel(c *experiments.Cell, axes []string) string {
	var parts []string
	for _, a := range axes {
		v, _ := c.Get(a)
		parts = append(parts, valueLabel(a, v))
	}
	if len(parts) == 0 {
		return c.Label()
	}
	return strings.Join(parts, ", ")
}

// valueLabel names one axis value: a policy by its name, anything else as
// "load 80".
func valueLabel(axis string, v experiments.Value) string {
	if axis == "policy" || axis == "" {
		return v.Text
	}
	return axis + " " + v.Text
}

// valueTicks are ticks at an axis's own values when there are few of them
// (a sparse or uneven grid reads best labelled where its cells are), nil
// otherwise.
func valueTicks(o axisOrder) plot.Ticker {
	if len(o.values) > 8 {
		return nil
	}
	var ticks plot.ConstantTicks
	for _, v := range o.values {
		ticks = append(ticks, plot.Tick{Value: v.Num, Label: formatNum(v.Num)})
	}
	return ticks
}

// capitalize upper-cases the first letter, for a title made from labels.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// facts lists the key parameters of the cells' scenarios, each as one
// value, or as the choices or the range the grid gives it.
func facts(cells []experiments.Cell) []string {
	if len(cells) == 0 {
		return nil
	}
	each := func(f func(sc *model.Scenario) (float64, string)) string {
		vs := make([]choice, len(cells))
		for i := range cells {
			vs[i].num, vs[i].text = f(&cells[i].Scenario)
		}
		return choices(vs)
	}
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	dur := func(x model.Duration) (float64, string) { return x.Seconds(), durText(x) }
	str := func(s string) (float64, string) { return 0, s }

	out := []string{each(func(sc *model.Scenario) (float64, string) { return str(sc.Engine) }) + " engine"}
	out = append(out,
		"capacity "+each(func(sc *model.Scenario) (float64, string) {
			return sc.Dependency.Capacity, num(sc.Dependency.Capacity)
		})+" calls/s",
		"load "+each(func(sc *model.Scenario) (float64, string) { return sc.Load, num(sc.Load) })+" requests/s",
		"timeout "+each(func(sc *model.Scenario) (float64, string) {
			l := sc.ChainLayers()
			return dur(l[len(l)-1].Timeout)
		}),
		each(func(sc *model.Scenario) (float64, string) {
			return float64(sc.FlatAttempts()), strconv.Itoa(sc.FlatAttempts())
		})+" attempts per request")
	if q := each(func(sc *model.Scenario) (float64, string) { return str(sc.Dependency.Queue) }); q != "fifo" {
		out = append(out, "queue "+q)
	}
	nf := 0
	for i := range cells {
		nf = max(nf, len(cells[i].Scenario.Fault))
	}
	for k := 0; k < nf; k++ {
		fault := func(f func(ft *model.Fault) (float64, string)) string {
			return each(func(sc *model.Scenario) (float64, string) {
				if k >= len(sc.Fault) {
					return math.Inf(1), "none"
				}
				return f(&sc.Fault[k])
			})
		}
		kind := fault(func(ft *model.Fault) (float64, string) { return str(ft.Kind) })
		s := kind + " at " + fault(func(ft *model.Fault) (float64, string) { return dur(ft.Start) }) +
			" for " + fault(func(ft *model.Fault) (float64, string) { return dur(ft.Length) })
		switch kind {
		case "degradation":
			s += " to " + fault(func(ft *model.Fault) (float64, string) { return ft.Capacity, num(ft.Capacity) }) + " calls/s"
		case "slowdown", "spike":
			s += " ×" + fault(func(ft *model.Fault) (float64, string) { return ft.Factor, num(ft.Factor) })
		}
		out = append(out, s)
	}
	if nf == 0 {
		out = append(out, "no fault")
	}
	out = append(out, each(func(sc *model.Scenario) (float64, string) { return dur(sc.Tick) })+" ticks over "+
		each(func(sc *model.Scenario) (float64, string) { return sc.Duration.Seconds(), sc.Duration.String() }))
	if r := each(func(sc *model.Scenario) (float64, string) {
		return float64(sc.Replicates), strconv.Itoa(sc.Replicates)
	}); r != "1" {
		out = append(out, r+" seeded replicates per cell")
	}
	return out
}

// choice is one cell's value of a parameter: a number to sort by and its text.
type choice struct {
	num  float64
	text string
}

// choices writes the distinct values: "70", "1 or 27", "1, 3, 9 or 27",
// or the range "50–95" for more than four.
func choices(vs []choice) string {
	vs = slices.Clone(vs)
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].num < vs[j].num })
	var texts []string
	for _, v := range vs {
		if !slices.Contains(texts, v.text) {
			texts = append(texts, v.text)
		}
	}
	switch n := len(texts); {
	case n == 1:
		return texts[0]
	case n <= 4:
		return strings.Join(texts[:n-1], ", ") + " or " + texts[n-1]
	default:
		return texts[0] + "–" + texts[n-1]
	}
}

// subtitle joins the facts for the line under a figure's title.
func subtitle(fs []string) string { return strings.Join(fs, " · ") }

// caption is the facts as a sentence, then what the figure adds.
func caption(fs []string, more ...string) string {
	s := capitalize(strings.Join(fs, ", "))
	if s != "" {
		s += "."
	}
	for _, m := range more {
		if m != "" {
			s += " " + m
		}
	}
	return s
}

// durText writes a duration the way the figures' axes count time: whole
// seconds up to ten minutes ("90s"), else as model.Duration does ("1h").
func durText(x model.Duration) string {
	if s := x.Seconds(); s == math.Trunc(s) && s < 600 {
		return strconv.FormatFloat(s, 'f', -1, 64) + "s"
	}
	return x.String()
}
