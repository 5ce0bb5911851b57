package plots

import (
	"fmt"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// kind is one kind of figure: which axes it needs, which cells it draws,
// how it draws them and what it says about them in the report's findings.
// Each kind is a type in a file of its own, listed in kinds.
type kind interface {
	// name is the spec's Kind of this kind.
	name() string
	// roles are the axes the kind draws.
	roles() []role
	// cells are the cells of the grid the kind draws, before the spec's
	// selector narrows them.
	cells(g *sweep.Grid) []sweep.Cell
	// defaultName is the file name of a figure that gives none.
	defaultName(f *spec.Figure) string
	// draw lays the figure out.
	draw(d *data, f *spec.Figure) (figure, error)
	// findings are the report's sentences about the figure's cells,
	// computed from their results; none for a kind that adds nothing.
	findings(d *data, f *spec.Figure) []string
}

// kinds lists every kind of figure, one line each.
func kinds() []kind {
	return []kind{
		phase{},
		lines{},
		bars{},
		series{},
		hysteresis{},
		collapse{},
	}
}

// kindOf finds the kind a spec names.
func kindOf(name string) (kind, bool) {
	for _, k := range kinds() {
		if k.name() == name {
			return k, true
		}
	}
	return nil, false
}

// role is an axis a kind of figure draws: the spec key that names it,
// whether the kind needs it, and whether its values must be numbers.
type role struct {
	key      string // "x", "y", "panel" or "line"
	required bool
	numeric  bool
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

// Name is the file name of a figure: its Name, or its kind's default.
func Name(f *spec.Figure) string {
	if f.Name != "" {
		return f.Name
	}
	if k, ok := kindOf(f.Kind); ok {
		return k.defaultName(f)
	}
	return f.Kind
}

// Check checks figures against the grid they draw: a kind plots knows, the
// axes the kind needs (each one of the grid's, numeric where the kind
// places values along it), a results.csv column, and a usable file name no
// other figure has. The error is a *spec.FigureError naming the figure's
// key at fault.
func Check(figs []spec.Figure, g *sweep.Grid) error {
	names := map[string]bool{}
	for i := range figs {
		f := &figs[i]
		fail := func(key, format string, args ...any) error {
			return &spec.FigureError{Figure: i, Key: key, Msg: fmt.Sprintf(format, args...)}
		}
		k, ok := kindOf(f.Kind)
		if !ok {
			var names []string
			for _, k := range kinds() {
				names = append(names, k.name())
			}
			return fail("kind", "%q is not a figure kind; use %s or %s", f.Kind, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
		}
		roles := map[string]role{}
		for _, r := range k.roles() {
			roles[r.key] = r
			if r.required && axisOf(f, r.key) == "" {
				return fail("", "a %s figure needs %s = \"<grid axis>\"", f.Kind, r.key)
			}
		}
		for _, key := range [...]string{"x", "y", "panel", "line"} {
			name := axisOf(f, key)
			if name == "" {
				continue
			}
			ax, ok := g.Axis(name)
			if !ok {
				return fail(key, "%q is not a grid axis; the axes are %s", name, g.AxisList())
			}
			if roles[key].numeric && (len(ax.Values) == 0 || !ax.Values[0].IsNum) {
				return fail(key, "axis %q is not numeric", name)
			}
		}
		if _, err := metric(g, f.Metric); err != nil {
			return fail("metric", "%q is not a results.csv column%s; use one of %s", f.Metric, sweep.DidYouMean(f.Metric, g.ColumnNames()), strings.Join(g.ColumnNames(), ", "))
		}
		if _, ok := k.(banded); f.Band && !ok {
			return fail("band", "a %s figure draws no band over replicates; band = true is for %s figures", f.Kind, strings.Join(bandKinds(), ", "))
		}
		if n := Name(f); !spec.ValidName(n) || names[n] {
			return fail("name", "%q is not a usable, unique file name", n)
		}
		names[Name(f)] = true
	}
	return nil
}

// Findings are the report's sentences about the figures, each kind's own,
// computed from the results. A figure with a range is left out (a zoom
// repeats what its full figure says); when several figures of one kind
// speak, each one's sentences follow its title.
func Findings(g *sweep.Grid, results []model.Result, figs []spec.Figure) []string {
	full := map[string]int{}
	for i := range figs {
		if len(figs[i].Select.Range) == 0 {
			full[figs[i].Kind]++
		}
	}
	var out []string
	for i := range figs {
		f := &figs[i]
		k, ok := kindOf(f.Kind)
		if !ok || len(f.Select.Range) > 0 {
			continue
		}
		d, err := newData(k, f, g, results)
		if err != nil {
			continue
		}
		said := k.findings(d, f)
		if len(said) > 0 && full[f.Kind] > 1 && f.Title != "" {
			out = append(out, "*"+f.Title+"*")
		}
		out = append(out, said...)
	}
	return out
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
