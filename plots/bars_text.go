package plots

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/model"
)

// This file holds what a bars figure says: its title, its caption, the
// words of bars without a value, and the values written on the bars.

// title is the figure's title: the spec's, or the metric by the axes.
func (ch *barChart) title(f *spec.Figure) string {
	if f.Title != "" {
		return f.Title
	}
	title := fmt.Sprintf("%s by %s", metricLabel(ch.m), axisName(f.X))
	if f.Line != "" {
		title += " and " + axisName(f.Line)
	}
	return capitalize(title)
}

// caption is what the figure adds to its cells' facts: the groups and
// bars, the bars without a value, the means over replicates.
func (ch *barChart) caption(f *spec.Figure) string {
	m := ch.m
	more := "Bar height: " + metricDoc(m) + "."
	if f.Line != "" {
		more = fmt.Sprintf("One group of bars per %s, one bar per %s; bar height: %s.", axisName(f.X), axisName(f.Line), metricDoc(m))
	}
	if ch.never {
		var docs []string
		for _, cs := range ch.noValueStates() {
			docs = append(docs, ch.neverDoc(cs))
		}
		more += " Hatched bars reaching the band at the top have no value: " + strings.Join(docs, "; ") + "."
	}
	if ch.replicated {
		more += " Bars are means over the seeded replicates"
		if ch.spread {
			more += "; error bars ± one standard deviation"
		}
		more += "."
	}
	if ch.partial {
		more += " (k/n) after a recovery time: k of n replicates recovered; the bar averages those."
	}
	return more
}

// neverWord labels the band bars without a value reach.
func (ch *barChart) neverWord() string {
	if ch.m.Name == "recovery_s" {
		return "none"
	}
	return "n/a"
}

// noValueWord labels a bar without a value: how its run ended, for a
// recovery time; "n/a" otherwise.
func (ch *barChart) noValueWord(cs cellState) string {
	switch {
	case ch.m.Name != "recovery_s":
		return "n/a"
	case cs == drainingCell:
		return "draining"
	case cs == notJudgedCell:
		return "not judged"
	}
	return "never"
}

// neverDoc says what a bar without a value in state cs means, for the
// legend and the caption.
func (ch *barChart) neverDoc(cs cellState) string {
	switch {
	case ch.m.Name != "recovery_s":
		return "no value"
	case cs == drainingCell:
		return "no recovery yet: still draining when the run ends"
	case cs == notJudgedCell:
		return "not judged: no request after the fault"
	case ch.replicated:
		return "no replicate recovers (stuck)"
	}
	return "stuck: never recovers"
}

// noValueStates are the states of the bars without a value, in legend
// order.
func (ch *barChart) noValueStates() []cellState {
	var out []cellState
	for _, cs := range []cellState{stuckCell, drainingCell, notJudgedCell, valueCell} {
		if ch.states[cs] {
			out = append(out, cs)
		}
	}
	return out
}

// valueText writes a bar's value for a slide: counts as whole numbers with
// thousands separators, ratios with two decimals, seconds with an "s" (and
// under a second in milliseconds, as a latency reads: 41ms, 4.5ms),
// booleans as yes or no. Compact writes large numbers as 12.3k or 6.29M.
func valueText(m model.Metric, v float64, compact bool) string {
	unit := ""
	if m.Kind == "seconds" {
		unit = "s"
		if ms := v * 1000; v != 0 && math.Abs(v) < 1 {
			if math.Abs(ms) >= 10 {
				return grouped(ms, 0) + "ms"
			}
			return grouped(ms, 1) + "ms"
		}
	}
	if compact && math.Abs(v) >= 1e4 {
		return compactNum(v) + unit
	}
	whole := v == math.Trunc(v) || math.Abs(v) >= 100
	switch m.Kind {
	case "bool":
		switch v {
		case 0:
			return "no"
		case 1:
			return "yes"
		}
		return grouped(v, 2)
	case "count", "seconds":
		if whole {
			return grouped(v, 0) + unit
		}
		return grouped(v, 1) + unit
	}
	if math.Abs(v) >= 1000 {
		return grouped(v, 0)
	}
	return grouped(v, 2)
}

// grouped writes v with dec decimals and commas between thousands: 6,290,460.
func grouped(v float64, dec int) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', dec, 64)
	whole, frac, _ := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	if frac != "" {
		whole += "." + frac
	}
	if v < 0 && strings.Trim(s, "0.") != "" {
		whole = "-" + whole
	}
	return whole
}

// compactNum writes a large number with three significant digits and a k
// or M suffix: 12.3k, 150k, 6.29M.
func compactNum(v float64) string {
	unit, x := "k", v/1e3
	if math.Abs(v) >= 1e6 {
		unit, x = "M", v/1e6
	}
	dec := 0
	switch a := math.Abs(x); {
	case a < 9.995:
		dec = 2
	case a < 99.95:
		dec = 1
	}
	s := strconv.FormatFloat(x, 'f', dec, 64)
	if dec > 0 {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + unit
}
