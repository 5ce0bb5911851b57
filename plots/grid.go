package plots

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// axisOrder is the plotting order of one grid axis: its values ascending
// when they are numbers, as written otherwise. The zero axis name stands for
// "no axis": one value that every cell has.
type axisOrder struct {
	name   string
	values []sweep.Value  // in plotting order
	pos    map[string]int // value text → index in values
}

// order finds the named axis ("" for none).
func (d *data) order(name string) (axisOrder, error) {
	o := axisOrder{name: name, pos: map[string]int{}}
	if name == "" {
		o.values = []sweep.Value{{}}
		o.pos[""] = 0
		return o, nil
	}
	ax, ok := d.g.Axis(name)
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

// categories is the order of the named axis ("" for none) for a figure
// that draws its values as categories: the axis's values as order gives
// them, then, at the end in cell order, any value a cell has that is not
// among them (a cell added beside the grid product). Nothing assumes the
// cells form a full product.
func (d *data) categories(name string) (axisOrder, error) {
	o, err := d.order(name)
	if err != nil || name == "" {
		return o, err
	}
	for i := range d.cells {
		v, ok := d.cells[i].Get(name)
		if !ok {
			return o, fmt.Errorf("cell %s has no value on axis %q", d.cells[i].Label(), name)
		}
		if _, ok := o.pos[v.Text]; !ok {
			o.pos[v.Text] = len(o.values)
			o.values = append(o.values, v)
		}
	}
	return o, nil
}

// orders finds several axes at once, in the order asked.
func (d *data) orders(names ...string) ([]axisOrder, error) {
	out := make([]axisOrder, len(names))
	for i, n := range names {
		o, err := d.order(n)
		if err != nil {
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

// numeric reports whether every value is a number.
func numeric(vs []sweep.Value) bool {
	for _, v := range vs {
		if !v.IsNum {
			return false
		}
	}
	return len(vs) > 0
}

// of is the index of the cell's value on the axis.
func (o axisOrder) of(c *sweep.Cell) int {
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

// tickText writes an axis value for a tick on an index axis: a duration
// with its unit as the captions write it ("250ms", "1s", "60s"), a number
// as formatNum does.
func tickText(v sweep.Value) string {
	if isDuration(v) {
		return durText(model.Duration(math.Round(v.Num * 1e9)))
	}
	return formatNum(v.Num)
}

// notToScale is the caption's note on the axes placed by index, "" when
// there are none: "Backoff base and backoff cap: values evenly spaced, not
// to scale."
func notToScale(names ...string) string {
	if len(names) == 0 {
		return ""
	}
	words := make([]string, len(names))
	for i, n := range names {
		words[i] = axisName(n)
	}
	return capitalize(strings.Join(words, " and ")) + ": values evenly spaced, not to scale."
}

// checkAxes returns an error naming the grid axes, other than the ones the
// figure draws, that have more than one value: a figure cannot show them.
func (d *data) checkAxes(kind string, drawn ...string) error {
	var extra []string
	for _, a := range d.g.Axes {
		if slices.Contains(drawn, a.Name) {
			continue
		}
		// Count the values the drawn cells have: a figure's range or
		// slice may hold an axis to one value.
		seen := map[string]bool{}
		for i := range d.cells {
			if v, ok := d.cells[i].Get(a.Name); ok {
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

// axisLabel names an axis with its unit: "load (requests/s)", "blip length (s)".
func (d *data) axisLabel(name string) string {
	label, unit := d.axisUnit(name)
	if unit != "" {
		label += " (" + unit + ")"
	}
	return label
}

// placedLabel is axisLabel for an axis placed as p. An axis placed by
// index says it is not to scale, and drops the unit when its ticks write
// durations with theirs: "backoff base (not to scale)", "capacity
// (calls/s, not to scale)".
func (d *data) placedLabel(name string, p placement) string {
	if !p.index {
		return d.axisLabel(name)
	}
	label, unit := d.axisUnit(name)
	if ax, ok := d.g.Axis(name); ok && !slices.ContainsFunc(ax.Values, func(v sweep.Value) bool { return !isDuration(v) }) {
		unit = ""
	}
	if unit != "" {
		return label + " (" + unit + ", not to scale)"
	}
	return label + " (not to scale)"
}

// axisUnit is an axis's name in words and its unit ("" if none): "s" for
// durations, else the unit of the scenario key it sets.
func (d *data) axisUnit(name string) (label, unit string) {
	ax, ok := d.g.Axis(name)
	if !ok || name == "policy" {
		return name, ""
	}
	label = axisName(name)
	if isDuration(ax.Values[0]) {
		unit = "s"
	} else if len(d.cells) > 0 {
		path := strings.ReplaceAll(ax.Path, "*", "0")
		for _, k := range sweep.Keys(d.cells[0].Scenario) {
			if k.Path == path {
				unit = k.Unit
			}
		}
	}
	return label, unit
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
func isDuration(v sweep.Value) bool {
	if !v.IsNum {
		return false
	}
	_, err := strconv.ParseFloat(v.Text, 64)
	return err != nil
}

// metricLabels name the metrics of model.MetricList with their units, for
// an axis or a colour bar. Counts are per run (a mean per run over
// replicates).
var metricLabels = map[string]string{
	"recovered":             "recovered (1 = yes)",
	"verdict":               "how the run ended",
	"drain_rate_per_s":      "backlog falling at the end (calls/s)",
	"drain_left_s":          "time still to drain after the run (s)",
	"recovery_s":            "recovery time after the fault (s)",
	"collapse_s":            "time to collapse (s from the start)",
	"drain_s":               "time to drain (s after the fault)",
	"after_change_s":        "recovery after the change (s)",
	"collapse_load":         "load when it tipped (requests/s)",
	"recovery_load":         "load when it came back (requests/s)",
	"requests":              "user requests (per run)",
	"calls":                 "calls at the dependency (per run)",
	"calls_per_s":           "mean call rate at the dependency (calls/s)",
	"attempts_allowed":      "attempts allowed (calls per request)",
	"amplification":         "amplification (calls per request)",
	"peak_calls":            "peak calls in one tick (calls/tick)",
	"peak_load_x":           "peak load at the dependency (× arrivals)",
	"window_calls_per_s":    "calls during the fault (calls/s)",
	"window_calls_per_tick": "calls during the fault (calls/tick)",
	"window_rate_x":         "call rate during the fault (× arrivals)",
	"peak_queue":            "peak queue (calls waiting)",
	"successful":            "successful requests (per run)",
	"failed":                "failed requests (per run)",
	"pending":               "requests pending at the end (per run)",
	"retries_refused":       "tries refused by a policy (per run)",
	"refused_budget":        "refused by the retry budget (per run)",
	"refused_breaker":       "failed by an open breaker (per run)",
	"refused_deadline":      "refused after the deadline (per run)",
	"refused_pushback":      "not retried after pushback (per run)",
	"not_retryable":         "errors not retryable (per run)",
	"hedges":                "hedges sent (per run)",
	"latency_p50_s":         "median time from a request's arrival to its success (s)",
	"latency_p95_s":         "95th-percentile time from a request's arrival to its success (s)",
	"latency_p99_s":         "99th-percentile time from a request's arrival to its success (s)",
	"error_latency_p50_s":   "median time from a request's arrival to its error (s)",
	"error_latency_p99_s":   "99th-percentile time from a request's arrival to its error (s)",
	"wasted":                "wasted work (share 0–1 of work served)",
	"replicates":            "seeded replicates (runs)",
	"recovered_share":       "share of replicates that recovered (0–1)",
	"recovered_share_lo":    "share recovered, lower 95% bound (0–1)",
	"recovered_share_hi":    "share recovered, upper 95% bound (0–1)",
	"recovery_s_p50":        "median recovery time after the fault (s)",
	"recovery_s_p90":        "90th percentile of recovery time (s)",
}

// metricLabel names a metric with its unit, for an axis or a colour bar:
// its entry in metricLabels, or for a metric without one its description
// (Metric.Doc), never its bare column name.
func metricLabel(m model.Metric) string {
	if l, ok := metricLabels[m.Name]; ok {
		return l
	}
	if doc := metricDoc(m); doc != "" {
		return doc
	}
	return strings.ReplaceAll(m.Name, "_", " ")
}

// metricDoc is what a metric means, for a caption: its results.csv
// description up to any note about empty cells, with the other columns it
// names put in words ("window_calls_per_s / base arrival rate" becomes
// "mean calls per second at the dependency during the fault / base arrival
// rate").
func metricDoc(m model.Metric) string {
	doc, _, _ := strings.Cut(m.Doc, "; empty")
	if !strings.Contains(doc, "_") {
		return doc
	}
	ms := model.MetricList()
	// Longer names first: calls_per_s is part of window_calls_per_s.
	sort.SliceStable(ms, func(i, j int) bool { return len(ms[i].Name) > len(ms[j].Name) })
	var pairs []string
	for _, o := range ms {
		if o.Name != m.Name && strings.Contains(o.Name, "_") {
			od, _, _ := strings.Cut(o.Doc, "; empty")
			pairs = append(pairs, o.Name, od)
		}
	}
	return strings.NewReplacer(pairs...).Replace(doc)
}

// shareMetric reports whether a metric is a share or a yes/no, 0 to 1, so
// that an axis over it has no ticks above 1.
func shareMetric(m model.Metric) bool {
	return m.Kind == "bool" || m.Name == "recovered_share" || m.Name == "wasted"
}

// varying are the axes on which the cells do not all have the same value,
// in grid order.
func (d *data) varying(cells []sweep.Cell) []string {
	var out []string
	for _, a := range d.g.Axes {
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
func cellLabel(c *sweep.Cell, axes []string) string {
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

// valueLabel names one axis value: a policy by its name, a number as
// "load 80" or "capacity 120", any other word as "backoff jitter: none".
func valueLabel(axis string, v sweep.Value) string {
	if axis == "policy" || axis == "" {
		return v.Text
	}
	if !v.IsNum {
		return pathLabel(axis) + ": " + v.Text
	}
	return pathLabel(axis) + " " + v.Text
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

// capitalize upper-cases the first letter, for a title made from labels.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// facts lists the key parameters of the cells, each as one value, or as
// the choices or the range the grid gives it; the timeout is the one the
// user waits (the edge layer's), the attempts those a request may make,
// both as the cells' plans state them. Open and closed loops are described
// apart ("load 40 requests/s (open) or 50 clients thinking 1.25s
// (closed)"), and so are cells whose faults differ in kind ("no fault,
// outage at 5s for 1s, or degradation to 100 calls/s at 5s for 10s").
func facts(cells []sweep.Cell) []string {
	if len(cells) == 0 {
		return nil
	}
	each := func(f func(sc *model.Scenario, p *model.Plan) (float64, string)) string { return eachOf(cells, f) }
	out := []string{each(func(sc *model.Scenario, _ *model.Plan) (float64, string) { return 0, sc.Engine }) + " engine"}
	out = append(out,
		"capacity "+each(func(_ *model.Scenario, p *model.Plan) (float64, string) {
			return p.Capacity, numText(p.Capacity)
		})+" calls/s",
		loadFact(cells),
		"timeout "+each(func(_ *model.Scenario, p *model.Plan) (float64, string) { return durChoice(p.EdgeTimeout) }),
		each(func(_ *model.Scenario, p *model.Plan) (float64, string) {
			return float64(p.Allowed), strconv.Itoa(p.Allowed)
		})+" attempts per request")
	switch q := each(func(_ *model.Scenario, p *model.Plan) (float64, string) { return 0, serverText(p.Server) }); q {
	case "fifo":
	case "none":
		out = append(out, "no queue (a loss server)")
	case "latency":
		out = append(out, "no queue: latency grows with the calls in flight")
	default:
		out = append(out, "queue "+q)
	}
	out = append(out, faultFacts(cells)...)
	out = append(out, changeFacts(cells)...)
	out = append(out, each(func(sc *model.Scenario, _ *model.Plan) (float64, string) { return durChoice(sc.Tick) })+" ticks over "+
		each(func(sc *model.Scenario, _ *model.Plan) (float64, string) {
			return sc.Duration.Seconds(), sc.Duration.String()
		}))
	if r := each(func(_ *model.Scenario, p *model.Plan) (float64, string) {
		return float64(p.Replicates), strconv.Itoa(p.Replicates)
	}); r != "1" {
		out = append(out, r+" seeded replicates per cell")
	}
	return out
}

// serverText names a dependency's kind of server as the scenario key
// dependency.queue does, and "latency" for the latency server.
func serverText(k model.ServerKind) string {
	switch k {
	case model.ServerLoss:
		return "none"
	case model.ServerLIFO:
		return "lifo"
	case model.ServerLatency:
		return "latency"
	}
	return "fifo"
}

// eachOf writes the distinct values of one parameter over the cells, as
// choices does; f gives a cell's value as a number to sort by and a text.
func eachOf(cells []sweep.Cell, f func(sc *model.Scenario, p *model.Plan) (float64, string)) string {
	vs := make([]choice, len(cells))
	for i := range cells {
		vs[i].num, vs[i].text = f(&cells[i].Scenario, cells[i].Plan)
	}
	return choices(vs)
}

// numText writes a parameter's number as it is: 97.22, 100.
func numText(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// durChoice is a duration as a choice: seconds to sort by, durText to show.
func durChoice(x model.Duration) (float64, string) { return x.Seconds(), durText(x) }

// loadFact describes the arrivals: the load of open-loop cells, the
// clients and think time of closed-loop ones (Arrivals "closed", whose
// Load is 0 and means nothing), the requests of a burst (all at the start,
// whatever the Load), or several of these: "load 40 requests/s (open) or
// 50 clients thinking 1.25s (closed)".
func loadFact(cells []sweep.Cell) string {
	var open, closed, burst []sweep.Cell
	for i := range cells {
		switch cells[i].Plan.Arrivals {
		case model.ArriveClosed:
			closed = append(closed, cells[i])
		case model.ArriveBurst:
			burst = append(burst, cells[i])
		default:
			open = append(open, cells[i])
		}
	}
	clients := func(cs []sweep.Cell) string {
		return eachOf(cs, func(sc *model.Scenario, _ *model.Plan) (float64, string) {
			return float64(sc.Clients), strconv.Itoa(sc.Clients)
		})
	}
	var parts []string
	if len(open) > 0 {
		parts = append(parts, openLoadFact(open))
	}
	if len(closed) > 0 {
		n := clients(closed)
		what := " clients thinking "
		if n == "1" {
			what = " client thinking "
		}
		parts = append(parts, n+what+eachOf(closed, func(sc *model.Scenario, _ *model.Plan) (float64, string) { return durChoice(sc.Think) }))
	}
	if len(burst) > 0 {
		parts = append(parts, "a burst of "+clients(burst)+" requests at the start")
	}
	if len(parts) == 1 {
		if len(closed) > 0 {
			return parts[0] + " (closed loop)"
		}
		return parts[0]
	}
	labels := []string{}
	if len(open) > 0 {
		labels = append(labels, "open")
	}
	if len(closed) > 0 {
		labels = append(labels, "closed")
	}
	if len(burst) > 0 {
		labels = append(labels, "burst")
	}
	for i := range parts {
		parts[i] += " (" + labels[i] + ")"
	}
	return strings.Join(parts, " or ")
}

// faultFacts describes the cells' faults. Cells whose faults are of the
// same kinds in the same order share phrases, one per fault, with the
// choices of each parameter ("outage at 60s for 0s–60s"); cells with other
// kinds, or none, get phrases of their own, in the order the cells first
// have them, listed as whole phrases: "no fault, outage at 5s for 1s, or
// degradation to 100 calls/s at 5s for 10s".
func faultFacts(cells []sweep.Cell) []string {
	var keys []string
	groups := map[string][]sweep.Cell{}
	for i := range cells {
		var kinds []string
		for _, ft := range cells[i].Scenario.Fault {
			kinds = append(kinds, ft.Kind)
		}
		k := strings.Join(kinds, "+")
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], cells[i])
	}
	var phrases []string
	for _, k := range keys {
		g := groups[k]
		var ps []string
		for j := range g[0].Scenario.Fault {
			ps = append(ps, faultPhrase(g, j))
		}
		if len(ps) == 0 {
			ps = []string{"no fault"}
		}
		if len(keys) == 1 {
			return ps
		}
		phrases = append(phrases, strings.Join(ps, " and "))
	}
	switch n := len(phrases); n {
	case 2:
		return []string{phrases[0] + " or " + phrases[1]}
	default:
		return []string{strings.Join(phrases[:n-1], ", ") + ", or " + phrases[n-1]}
	}
}

// faultPhrase describes the j-th fault of cells that all have a fault of
// the same kind there: "outage at 60s for 30s", "degradation to 100
// calls/s at 5s for 10s", "slowdown ×3 at 20s for 10s".
func faultPhrase(cells []sweep.Cell, j int) string {
	each := func(f func(ft *model.Fault) (float64, string)) string {
		return eachOf(cells, func(sc *model.Scenario, _ *model.Plan) (float64, string) { return f(&sc.Fault[j]) })
	}
	kind := cells[0].Scenario.Fault[j].Kind
	s := kind
	switch kind {
	case "degradation":
		s += " to " + each(func(ft *model.Fault) (float64, string) { return ft.Capacity, numText(ft.Capacity) }) + " calls/s"
	case "slowdown", "spike":
		s += " ×" + each(func(ft *model.Fault) (float64, string) { return ft.Factor, numText(ft.Factor) })
	}
	return s + " at " + each(func(ft *model.Fault) (float64, string) { return durChoice(ft.Start) }) +
		" for " + each(func(ft *model.Fault) (float64, string) { return durChoice(ft.Length) })
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
