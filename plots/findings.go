package plots

import (
	"sort"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// This file holds what the kinds' findings share: grouping a figure's cells
// by panel, and writing axis values as a grid writes them.

// panels groups the positions of the figure's cells (in d.cells) by their
// value on the panel axis ("" = one group), in axis order.
func (d *data) panels(panel string) (names []string, groups map[string][]int) {
	groups = map[string][]int{}
	if ax, ok := d.g.Axis(panel); ok && panel != "" {
		for _, v := range ax.Values {
			names = append(names, v.Text)
		}
	} else {
		names = []string{""}
	}
	for i := range d.cells {
		key := ""
		if v, ok := d.cells[i].Get(panel); ok {
			key = v.Text
		}
		groups[key] = append(groups[key], i)
	}
	return names, groups
}

// text is how the axis writes the value x ("3s" for a blip), or x itself.
func (d *data) text(axis string, x float64) string {
	if ax, ok := d.g.Axis(axis); ok {
		for _, v := range ax.Values {
			if v.IsNum && v.Num == x {
				return v.Text
			}
		}
	}
	return Number(x)
}

// spans writes sorted values of an axis as runs: "50, 63–95", "1s–4s".
// Values are consecutive when they are neighbours on the axis.
func (d *data) spans(axis string, xs []float64) string { return Spans(d.g, axis, xs) }

// Spans writes sorted values of a grid axis as runs of neighbours on the
// axis, each as the grid writes it: "50, 63–95", "1s–4s".
func Spans(g *sweep.Grid, axis string, xs []float64) string {
	ax, ok := g.Axis(axis)
	if !ok {
		return ""
	}
	d := &data{g: g}
	var all []float64
	for _, v := range ax.Values {
		if v.IsNum {
			all = append(all, v.Num)
		}
	}
	sort.Float64s(all)
	rank := map[float64]int{}
	for i, v := range all {
		rank[v] = i
	}
	var out []string
	start := 0
	for i := 1; i <= len(xs); i++ {
		if i < len(xs) && rank[xs[i]] == rank[xs[i-1]]+1 {
			continue
		}
		if i-1 == start {
			out = append(out, d.text(axis, xs[start]))
		} else {
			out = append(out, d.text(axis, xs[start])+"–"+d.text(axis, xs[i-1]))
		}
		start = i
	}
	return strings.Join(out, ", ")
}

// sample keeps at most n items, evenly spread and keeping the ends.
func sample(items []string, n int) []string {
	if len(items) <= n {
		return items
	}
	out := make([]string, 0, n+1)
	for i := 0; i < n-1; i++ {
		out = append(out, items[i*(len(items)-1)/(n-1)])
	}
	out = append(out, "…", items[len(items)-1])
	return out
}

// aboutRecovery reports whether a figure's metric is recovery (the
// default), which the phase and lines findings describe; a figure of
// another metric leaves its numbers to the author's findings.
func aboutRecovery(metric string) bool {
	switch metric {
	case "", "recovery_s", "recovered", "recovered_share":
		return true
	}
	return false
}

// replicated reports whether any of the results at idx ran several
// replicates.
func replicated(results []model.Result, idx []int) bool {
	for _, i := range idx {
		if results[i].Replicates > 1 {
			return true
		}
	}
	return false
}
