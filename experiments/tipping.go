package experiments

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
)

// tippingTable is one [tipping] section (or [[tipping]] entry) as a file
// writes it.
type tippingTable struct {
	Key       text      `toml:"key"`
	From      any       `toml:"from"`
	To        any       `toml:"to"`
	Tolerance any       `toml:"tolerance"`
	Scan      scanCount `toml:"scan"`
	X         text      `toml:"x"`
	Panel     text      `toml:"panel"`
	Name      text      `toml:"name"`
	Title     text      `toml:"title"`
	Service   text      `toml:"service"`
}

// DefaultScan is the number of points a search tries evenly over its range
// before bisecting, both ends included.
const DefaultScan = 5

// maxPoints bounds a search's line of values.
const maxPoints = 1_000_000_000

// scanCount is a search's scan: the points tried before bisecting, both
// ends included.
type scanCount int

func (scanCount) bounds() model.KeyRange {
	return model.KeyRange{Whole: true, Range: model.Range{Min: 2, Max: 1000, Unit: "points"}}
}

func (s *scanCount) UnmarshalTOML(v any) error {
	x, err := readNumber(v, s.bounds())
	*s = scanCount(x)
	return err
}

// readTipping reads the [tipping] section, or the [[tipping]] entries: the
// boundary searches run beside the grid.
func (e *Experiment) readTipping(v any) error {
	if v == nil {
		return nil
	}
	var items []map[string]any
	var keys []string
	if m, ok := v.(map[string]any); ok {
		items, keys = []map[string]any{m}, []string{"tipping"}
	} else {
		ts, err := e.tablesAt("tipping", v, "a [tipping] table or [[tipping]] entries")
		if err != nil {
			return err
		}
		for i, m := range ts {
			items, keys = append(items, m), append(keys, fmt.Sprintf("tipping.%d", i))
		}
	}
	names := map[string]bool{}
	for i := range e.Figures {
		names[e.Figures[i].Name] = true
	}
	for i, m := range items {
		t, err := e.tippingEntry(keys[i], m)
		if err != nil {
			return err
		}
		if names[t.Name] {
			return e.errorf(keys[i]+".name", "%q is already the name of another figure; give this search's figure another name", t.Name)
		}
		names[t.Name] = true
		e.Tipping = append(e.Tipping, t)
	}
	return nil
}

// tippingEntry reads and checks one search.
func (e *Experiment) tippingEntry(key string, m map[string]any) (spec.Tipping, error) {
	tt := tippingTable{Scan: DefaultScan}
	if err := e.decodeTable(key, "a [tipping] section", m, &tt); err != nil {
		return spec.Tipping{}, err
	}
	t := spec.Tipping{Key: string(tt.Key), Scan: int(tt.Scan), X: string(tt.X), Panel: string(tt.Panel), Title: string(tt.Title), Service: string(tt.Service)}
	if t.Key == "" {
		return t, e.errorf(key, "a search needs key = \"<scenario key>\": the trigger (blip, fault.0.capacity, fault.0.factor) or the load it moves")
	}
	t.Path = resolve(t.Key)
	t.Graph = graphNames(&e.Grid.Base.Graph)
	kind, err := sweep.NumberAt(t.Path)
	if err != nil {
		if near := sweep.DidYouMean(t.Key, slices.Sorted(maps.Keys(shorthands))); near != "" && !strings.Contains(t.Key, ".") {
			return t, e.errorf(key+".key", "unknown key %q%s; a search moves a number or a duration: a scenario key (load, fault.0.capacity) or a shorthand (blip)", t.Key, near)
		}
		return t, e.errorf(key+".key", "%v; a search moves a number or a duration", err)
	}
	if strings.Contains(t.Path, "*") {
		return t, e.errorf(key+".key", "%q sets every entry of a list; a search moves one key: name an entry by its index", t.Key)
	}
	if ax, ok := e.Grid.Axis("policy"); ok && ax.Named() && t.Key == "policy" {
		return t, e.errorf(key+".key", "a search moves a number, not the policy")
	}
	t.Duration, t.Whole = kind == sweep.Span, kind == sweep.Whole
	t.Unit = keyUnit(t.Path, t.Duration, e.Grid.Base)
	tick := e.Grid.Base.Tick.Seconds()
	read := func(k string, v any, need bool) (float64, bool, error) {
		if v == nil {
			if need {
				return 0, false, e.errorf(key, "a search needs %s", k)
			}
			return 0, false, nil
		}
		x, err := tippingNumber(v, kind)
		if err != nil {
			return 0, false, e.errorf(key+"."+k, "%v", err)
		}
		if t.Duration && !wholeTicks(x, tick) {
			return 0, false, e.errorf(key+"."+k, "%v is not a whole number of ticks (tick = %v): a search over a duration moves it a tick at a time at least", model.Seconds(x), e.Grid.Base.Tick)
		}
		return x, true, nil
	}
	if t.From, _, err = read("from", tt.From, true); err != nil {
		return t, err
	}
	if t.To, _, err = read("to", tt.To, true); err != nil {
		return t, err
	}
	if t.From == t.To {
		return t, e.errorf(key+".to", "equals from (%s): a search needs a range, from its mild end to its severe end", tippingText(&t, t.From))
	}
	tol, given, err := read("tolerance", tt.Tolerance, false)
	switch {
	case err != nil:
		return t, err
	case given && !(tol > 0):
		return t, e.errorf(key+".tolerance", "must be above 0, got %s", tippingText(&t, tol))
	case given && tol > math.Abs(t.To-t.From):
		return t, e.errorf(key+".tolerance", "%s is wider than the range from %s to %s", tippingText(&t, tol), tippingText(&t, t.From), tippingText(&t, t.To))
	case !given && t.Duration:
		tol = tick // exact to one tick
	case !given && t.Whole:
		tol = 1
	case !given:
		return t, e.errorf(key, "a search over %s needs a tolerance: the width of the bracket it stops at (in %s)", t.Key, unitOr(t.Unit, "the key's unit"))
	}
	if t.Whole && (tol != math.Trunc(tol) || t.From != math.Trunc(t.From) || t.To != math.Trunc(t.To)) {
		return t, e.errorf(key, "%s takes whole numbers: from, to and tolerance must be whole", t.Key)
	}
	t.Tolerance = tol
	if n := math.Abs(t.To-t.From) / tol; n > maxPoints {
		return t, e.errorf(key+".tolerance", "%s over the range from %s to %s is %.3g points, more than %d", tippingText(&t, tol), tippingText(&t, t.From), tippingText(&t, t.To), n, maxPoints)
	}
	if err := e.tippingAxes(key, &t); err != nil {
		return t, err
	}
	if err := e.tippingService(key, &t); err != nil {
		return t, err
	}
	t.Name = string(tt.Name)
	if t.Name == "" {
		t.Name = "tipping-" + strings.NewReplacer(".", "-", "_", "-").Replace(t.Key)
	}
	if !spec.ValidName(t.Name) {
		return t, e.errorf(key+".name", "%q cannot name a figure's file: use letters, digits, '-', '_' and '.'", t.Name)
	}
	if err := tipping.Check(e.Grid, &t); err != nil {
		return t, e.tippingError(key, &t, err)
	}
	return t, nil
}

// tippingService checks a search's service: a service of every cell's
// graph.
func (e *Experiment) tippingService(key string, t *spec.Tipping) error {
	if t.Service == "" {
		return nil
	}
	for _, c := range e.Grid.Cells() {
		gp := c.Plan.Graph
		if gp == nil {
			return e.errorf(key+".service", "cell %s runs no service graph: a search judged at a service needs a [scenario.graph] (a graph of one path runs as a chain: judge its run)", c.Label())
		}
		if !slices.Contains(gp.Services, t.Service) {
			return e.errorf(key+".service", "%q is not a service of cell %s; its services are %s", t.Service, c.Label(), strings.Join(gp.Services, ", "))
		}
	}
	return nil
}

// graphNames are the names of g, a scenario's graph, for the words of a
// search over its keys (tipping.KeyLabel); nil when it has none.
func graphNames(g *model.Graph) *spec.GraphNames {
	if len(g.Service) == 0 && len(g.Edge) == 0 {
		return nil
	}
	names := &spec.GraphNames{}
	for _, sv := range g.Service {
		names.Services = append(names.Services, sv.Name)
	}
	for _, e := range g.Edge {
		names.Edges = append(names.Edges, spec.Edge{From: e.From, To: e.To})
	}
	return names
}

// tippingAxes checks the figure's axes: grid axes other than the key, x
// numeric; by default x is the first numeric axis with several values and
// panel the first other axis with several.
func (e *Experiment) tippingAxes(key string, t *spec.Tipping) error {
	isKey := func(ax *sweep.Axis) bool { return !ax.Named() && ax.Path == t.Path }
	for _, k := range []string{"x", "panel"} {
		name := t.X
		if k == "panel" {
			name = t.Panel
		}
		if name == "" {
			continue
		}
		ax, ok := e.Grid.Axis(name)
		switch {
		case !ok:
			return e.errorf(key+"."+k, "%q is not a grid axis; the axes are %s", name, e.Grid.AxisList())
		case isKey(ax):
			return e.errorf(key+"."+k, "%q is the key the search moves; the figure draws it up the y axis", name)
		case k == "x" && (len(ax.Values) == 0 || !ax.Values[0].IsNum):
			return e.errorf(key+".x", "axis %q is not numeric", name)
		}
	}
	if t.X == t.Panel && t.X != "" {
		return e.errorf(key+".panel", "%q is already the x axis", t.Panel)
	}
	for i := range e.Grid.Axes {
		ax := &e.Grid.Axes[i]
		if isKey(ax) || len(ax.Values) < 2 || ax.Name == t.X || ax.Name == t.Panel {
			continue
		}
		switch {
		case t.X == "" && ax.Values[0].IsNum:
			t.X = ax.Name
		case t.Panel == "":
			t.Panel = ax.Name
		}
	}
	return nil
}

// tippingError places an error building a search's cells: a value of the
// key at the end it names, another key where the grid says.
func (e *Experiment) tippingError(key string, t *spec.Tipping, err error) error {
	var ee *tipping.EndError
	var ce *sweep.CellError
	if !errors.As(err, &ee) || !errors.As(err, &ce) {
		return e.errorf(key, "%v", err)
	}
	if ce.Path == t.Path || ce.Source == "tipping."+t.Key {
		return e.errorAt(key+"."+ee.End, t.Path, ce.Err, "search from cell "+ee.Cell)
	}
	return e.cellError(err)
}

// tippingNumber reads a value of a search's range: a duration ("30s", or
// seconds) in seconds, or a number.
func tippingNumber(v any, kind sweep.NumberKind) (float64, error) {
	switch x := v.(type) {
	case int64:
		return float64(x), nil
	case float64:
		if kind == sweep.Whole && x != math.Trunc(x) {
			return 0, fmt.Errorf("wants a whole number, got %v", x)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("wants a finite number, got %v", x)
		}
		return x, nil
	case string:
		if kind != sweep.Span {
			return 0, fmt.Errorf("wants a number, got %q", x)
		}
		d, err := model.ParseDuration(x)
		if err != nil {
			return 0, err
		}
		return d.Seconds(), nil
	}
	if kind == sweep.Span {
		return 0, fmt.Errorf("wants a duration like \"30s\", got %s", sweep.Describe(v))
	}
	return 0, fmt.Errorf("wants a number, got %s", sweep.Describe(v))
}

// wholeTicks reports whether x seconds is a whole number of ticks.
func wholeTicks(x, tick float64) bool {
	n := model.Seconds(x)
	t := model.Seconds(tick)
	return t > 0 && n%t == 0
}

// tippingText writes a value of a search's key: "2s", "70".
func tippingText(t *spec.Tipping, x float64) string {
	if t.Duration {
		return model.Seconds(x).String()
	}
	return fmt.Sprint(x)
}

func unitOr(unit, other string) string {
	if unit == "" {
		return other
	}
	return unit
}

// listIndex matches the index of a list entry in a key path.
var listIndex = regexp.MustCompile(`\.[0-9]+(\.|$)`)

// keyUnit is the unit of the scenario key at path: "s" for a duration,
// else its unit tag ("requests/s"), or "". A service graph's keys are not
// in the reference (their lists are the file's services and edges), so
// theirs is read from base, the scenario the search moves.
func keyUnit(path string, duration bool, base model.Scenario) string {
	if duration {
		return "s"
	}
	keys, want := sweep.Reference(), listIndex.ReplaceAllString(path, ".N$1")
	if strings.HasPrefix(path, "graph.") {
		keys, want = sweep.Keys(base), path
	}
	for _, k := range keys {
		if k.Path == want {
			return k.Unit
		}
	}
	return ""
}
