package plots

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
)

// This file holds what a collapse figure says: its title, its caption and
// its findings for the report.

// collapseTitle is the figure's title: the spec's, or time to collapse
// against x.
func collapseTitle(f *spec.Figure) string {
	if f.Title != "" {
		return f.Title
	}
	return capitalize("time to collapse against " + axisName(f.X))
}

// collapseCaption is what the figure adds to its cells' facts: what the
// two panels show.
func collapseCaption(f *spec.Figure) string {
	more := "Left, log scale: seconds from the start until the system first turned unhealthy, without any fault — the mean time to collapse estimated from every replicate, those that never collapsed counted as healthy for the whole run (time healthy ÷ collapses; line and dots), " +
		"and the mean over the replicates that collapsed (rings) with their 10th to 90th percentile (whiskers). " +
		"Right: the share of replicates that collapsed within the run (solid) and the share unhealthy at its end (dotted)."
	if f.Line != "" {
		more = "One colour per " + axisName(f.Line) + ". " + more
	}
	return more
}

// findings say, per line, how the mean time to collapse falls along the x
// axis, with a table of every value that saw a collapse, and where no
// replicate collapsed.
func (collapse) findings(t *Table, f *spec.Figure) []string {
	_, lo, pts, err := t.collapseLines(f)
	if err != nil {
		return nil
	}
	var out, calm []string
	var calmX []float64
	for l, line := range pts {
		name, who := "the system", "The system"
		if f.Line != "" {
			name = lo.values[l].Text
			who = "With " + name + ", the system"
		}
		var some []*collapsePoint
		var never []float64
		for _, p := range line {
			switch {
			case p == nil:
			case math.IsNaN(p.mean):
				never = append(never, p.x)
			default:
				some = append(some, p)
			}
		}
		if len(some) == 0 {
			calm = append(calm, name)
			calmX = append(calmX, never...)
			continue
		}
		a, b := some[0], some[len(some)-1]
		s := who + " collapses without any fault"
		if len(some) > 1 && b.est < a.est {
			s += fmt.Sprintf(": its mean time to collapse falls from about %s s at %s %s to %s s at %s %s, %s-fold shorter",
				Number(math.Round(a.est)), f.X, t.text(f.X, a.x), Number(math.Round(b.est)), f.X, t.text(f.X, b.x), Number(math.Round(a.est/b.est)))
		}
		if len(never) > 0 {
			s += fmt.Sprintf("; no replicate collapsed at %s %s", f.X, t.spans(f.X, never))
		}
		s += ". The mean time to collapse counts every replicate, the time they ran healthy ÷ their collapses (the estimate for a constant risk of collapse); where few collapsed it rests on few events."
		rows := []string{fmt.Sprintf("| %s | collapsed within the run | mean time to collapse of those (s) | 10th–90th percentile (s) | mean time to collapse, every replicate (s) |", f.X), "|---|---|---|---|---|"}
		for _, p := range some {
			k := int(math.Round(p.collapsed * float64(p.n)))
			rows = append(rows, fmt.Sprintf("| %s | %d of %d | %s | %s–%s | %s |", t.text(f.X, p.x), k, p.n,
				Number(math.Round(p.mean)), Number(math.Round(p.p10)), Number(math.Round(p.p90)), Number(math.Round(p.est))))
		}
		out = append(out, s, strings.Join(rows, "\n"))
	}
	if len(calm) > 0 {
		slices.Sort(calmX)
		calmX = slices.Compact(calmX)
		who := "With " + strings.Join(calm, " and with ") + ", no"
		if f.Line == "" {
			who = "No"
		}
		out = append(out, fmt.Sprintf("%s replicate collapsed at %s %s.", who, f.X, t.spans(f.X, calmX)))
	}
	return out
}
