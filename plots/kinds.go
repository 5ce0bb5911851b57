package plots

import (
	"fmt"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// Kind is one kind of figure: an entry of the registry (Kinds).
type Kind struct {
	Name  string // what a [[figure]]'s kind = "..." names
	Doc   string // what it draws, in one line
	Roles []Role // the grid axes it takes
	// Beside: it draws the cells added beside the grid's product too, not
	// only the product.
	Beside bool
	// Band: it can draw replicated cells as their mean with a band of
	// their 10th–90th percentile (band = true).
	Band bool
	impl kind // its drawing and its findings
}

// Role is a grid axis a kind of figure takes: the [[figure]] key that names
// it, whether the kind needs it, and whether its values must be numbers.
type Role struct {
	Key      string // "x", "y", "panel" or "line"
	Required bool
	Numeric  bool
}

// kind is what a kind of figure does with a table: draw it, and say what
// it finds.
type kind interface {
	// defaultName is the file name of a figure that gives none.
	defaultName(f *spec.Figure) string
	// draw lays the figure out.
	draw(t *Table, f *spec.Figure) (figure, error)
	// findings are the report's sentences about the table's rows; none
	// for a kind that adds nothing.
	findings(t *Table, f *spec.Figure) []string
}

// Kinds is the registry of figure kinds, one entry each: the one list of
// them. The package documentation's list, spec.Figure.Kind's doc, the
// check of kind = "..." in experiment files (Check) and experiments/README.md's list
// are derived from it, and a test fails when one of them disagrees. A new
// kind is a file that draws (its type, implementing kind), a file of what
// it says (<kind>_text.go), one entry here, and a table of numbers in
// kinds_example_test.go for its example and golden image (a test fails
// without one); go test ./plots -run 'TestKindLists|TestGoldenImages'
// -update then writes the lists and the image.
func Kinds() []Kind {
	x, y := Role{Key: "x", Required: true, Numeric: true}, Role{Key: "y", Required: true, Numeric: true}
	return []Kind{
		{Name: "phase", Roles: []Role{x, y, {Key: "panel"}}, impl: phase{},
			Doc: "the metastability phase diagram: a rectangle per cell over two numeric axes coloured by the metric (recovery_s unless another is named), cells stuck, still draining or not judged in colours of their own, a panel per value of panel; rule_of_thumb = true adds blip ≈ capacity × timeout / load"},
		{Name: "lines", Roles: []Role{x, {Key: "line", Required: true}, {Key: "panel"}}, impl: lines{},
			Doc: "the metric against a numeric x, a line per value of line, a panel per value of panel; cells without a value sit in a band above the top"},
		{Name: "bars", Roles: []Role{{Key: "x", Required: true}, {Key: "line"}, {Key: "panel"}}, Beside: true, impl: bars{},
			Doc: "the metric as bars, a group per value of x (names or numbers; cells beside the grid last), a bar per value of line, a panel per value of panel; replicates as means ± one standard deviation"},
		{Name: "series", Beside: true, Band: true, impl: series{},
			Doc: "for each cell that records a series: calls per second at the dependency with its capacity above its queue with the healthy limit, fault windows shaded; band = true draws replicates as their mean and 10th–90th percentile"},
		{Name: "hysteresis", Beside: true, impl: hysteresis{},
			Doc: "goodput and health against the load offered, on a load shape that rises and then falls: the way up solid, the way down dashed, the loads at which the system tipped and came back marked"},
		{Name: "collapse", Roles: []Role{x, {Key: "line"}}, impl: collapse{},
			Doc: "the time to collapse without a fault (collapse_s) against a numeric x on a log scale, a line per value of line, beside the share of replicates that collapsed"},
		{Name: "graph", Roles: []Role{{Key: "x"}}, impl: graph{},
			Doc: "a service graph's diagram, one per value of x (at most 6): each service coloured by its verdict (the column service.verdict), each call's arrow by its tries per user request (the column from.to.tries, and the entry service's tries for the users' call, over requests); for a [scenario.graph] of more than one path whose results have the per-service verdicts; metric is not read"},
	}
}

// factsChecker is a kind that needs more of the cells it draws than the
// grid's axes and columns: checkFacts checks their facts, before any run,
// against the columns the results will have (labels name the cells).
type factsChecker interface {
	checkFacts(facts []Facts, labels []string, columns []string) error
}

// kindOf finds the kind a spec names.
func kindOf(name string) (Kind, bool) {
	for _, k := range Kinds() {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// kindNames are the registry's names, in its order.
func kindNames() []string {
	var out []string
	for _, k := range Kinds() {
		out = append(out, k.Name)
	}
	return out
}

// Axes writes the roles a kind takes for a list of kinds: "x (numeric), y
// (numeric); optional: panel", or "no axes".
func (k Kind) Axes() string { return k.axes(func(key string) string { return key }) }

// axes is Axes with each key written by quote.
func (k Kind) axes(quote func(key string) string) string {
	var need, may []string
	for _, r := range k.Roles {
		s := quote(r.Key)
		if r.Numeric {
			s += " (numeric)"
		}
		if r.Required {
			need = append(need, s)
		} else {
			may = append(may, s)
		}
	}
	out := strings.Join(need, ", ")
	if len(may) > 0 {
		if out != "" {
			out += "; "
		}
		out += "optional: " + strings.Join(may, ", ")
	}
	if out == "" {
		return "no axes"
	}
	return out
}

// Name is the file name of a figure: its Name, or its kind's default.
func Name(f *spec.Figure) string {
	if f.Name != "" {
		return f.Name
	}
	if k, ok := kindOf(f.Kind); ok {
		return k.impl.defaultName(f)
	}
	return f.Kind
}

// axisOf is the axis a spec names at key: "x", "y", "panel" or "line".
func axisOf(f *spec.Figure, key string) string {
	switch key {
	case "x":
		return f.X
	case "y":
		return f.Y
	case "panel":
		return f.Panel
	case "line":
		return f.Line
	}
	return ""
}

// figureError is what is wrong with one key of a figure ("" for the
// figure as a whole).
type figureError struct {
	key, msg string
}

func (e *figureError) Error() string {
	if e.key == "" {
		return e.msg
	}
	return e.key + ": " + e.msg
}

// checkFigure checks a figure against the axes and the result columns it
// may draw: a kind of the registry, the axes the kind needs (each one of
// the grid's, numeric where the kind places values along it), a column,
// and a band only where the kind draws one. The error is a *figureError.
func checkFigure(f *spec.Figure, axes []Axis, columns []string) error {
	fail := func(key, format string, args ...any) error {
		return &figureError{key: key, msg: fmt.Sprintf(format, args...)}
	}
	k, ok := kindOf(f.Kind)
	if !ok {
		names := kindNames()
		return fail("kind", "%q is not a figure kind%s; use %s or %s", f.Kind, sweep.DidYouMean(f.Kind, names), strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
	}
	roles := map[string]Role{}
	for _, r := range k.Roles {
		roles[r.Key] = r
		if r.Required && axisOf(f, r.Key) == "" {
			return fail("", "a %s figure needs %s = \"<grid axis>\"", f.Kind, r.Key)
		}
	}
	var names []string
	for _, a := range axes {
		names = append(names, a.Name)
	}
	for _, key := range [...]string{"x", "y", "panel", "line"} {
		name := axisOf(f, key)
		if name == "" {
			continue
		}
		if _, ok := roles[key]; !ok {
			return fail(key, "a %s figure does not read %s; it takes %s", f.Kind, key, k.Axes())
		}
		var ax *Axis
		for i := range axes {
			if axes[i].Name == name {
				ax = &axes[i]
			}
		}
		if ax == nil {
			list := "(none)"
			if len(names) > 0 {
				list = strings.Join(names, ", ")
			}
			return fail(key, "%q is not a grid axis; the axes are %s", name, list)
		}
		if roles[key].Numeric && (len(ax.Values) == 0 || !ax.Values[0].IsNum) {
			return fail(key, "axis %q is not numeric", name)
		}
	}
	metric := f.Metric
	if metric == "" {
		metric = "recovery_s"
	}
	found := false
	for _, c := range columns {
		found = found || c == metric
	}
	if !found {
		return fail("metric", "%q is not a results.csv column%s; use one of %s", f.Metric, sweep.DidYouMean(f.Metric, columns), strings.Join(columns, ", "))
	}
	if f.Band && !k.Band {
		var band []string
		for _, k := range Kinds() {
			if k.Band {
				band = append(band, k.Name)
			}
		}
		return fail("band", "a %s figure draws no band over replicates; band = true is for %s figures", f.Kind, strings.Join(band, ", "))
	}
	return nil
}

// joinNonEmpty joins the parts that are not empty with "-": a default file
// name, "phase-load-blip".
func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "-")
}
