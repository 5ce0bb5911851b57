package plots

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/model"
)

// This file holds what a lines figure says: its title, its caption and its
// findings for the report.

// title is the figure's title: the spec's, or the metric against x.
func (lf *linesFigure) title() string {
	if lf.f.Title != "" {
		return lf.f.Title
	}
	return capitalize(fmt.Sprintf("%s against %s", metricLabel(lf.m), axisName(lf.f.X)))
}

// neverText says what the marks of cells without a value mean.
func (lf *linesFigure) neverText() string {
	s := "stuck, never recovers"
	switch {
	case lf.faultless && lf.replicates:
		s = "not every replicate healthy at the end, with no fault"
	case lf.faultless:
		s = "unhealthy at the end, with no fault"
	case lf.replicates:
		s = "not every replicate recovers"
	}
	if lf.seen[drainingCell] {
		s += "; rings: still draining when the run ends, unhealthy but not stuck"
	}
	if lf.seen[notJudgedCell] {
		s += "; squares: not judged, no request after the fault"
	}
	return s
}

// neverLegend is the legend's entry for the cells without a value.
func (lf *linesFigure) neverLegend() string {
	s := lf.neverText()
	switch {
	case lf.band && lf.lanes > 1:
		s += " (in the band at the top, a row for each line)"
	case lf.band:
		s += " (in the band at the top)"
	}
	return s
}

// caption is what the figure adds to its cells' facts: the lines, the y
// axis, the marks of the cells without a value, an x axis placed by index.
func (lf *linesFigure) caption() string {
	f := lf.f
	more := fmt.Sprintf("y: %s.", metricDoc(lf.m))
	if f.Line != "" {
		more = fmt.Sprintf("One line per %s; %s", axisName(f.Line), more)
	}
	if lf.band {
		more += " Crosses in the band at the top: " + lf.neverText()
		if lf.lanes > 1 {
			more += ", a row for each line"
		}
		more += "."
	} else if !lf.chain {
		more += " Crosses: " + lf.neverText() + "."
	}
	if lf.xp.index {
		more += " " + notToScale(f.X)
	}
	return more
}

// findings say, per line (and panel), at which X values the system
// recovers and at which it never does; for replicated cells, at which
// every run recovers, some do and none does, since a cell's verdict is
// stuck as soon as one replicate is.
func (lines) findings(t *Table, f *spec.Figure) []string {
	if !aboutRecovery(f.Metric) {
		return nil // the figure draws another metric
	}
	lineAx, _ := t.axis(f.Line)
	panelNames, panelRows := t.panels(f.Panel)
	var parts []string
	for _, pv := range panelNames {
		for _, lv := range lineAx.Values {
			var pts []lineCell
			for _, i := range panelRows[pv] {
				if v, _ := t.Rows[i].Get(f.Line); v.Text != lv.Text {
					continue
				}
				x, _ := t.Rows[i].Get(f.X)
				pts = append(pts, lineCell{x.Num, &t.Rows[i].Result})
			}
			if len(pts) == 0 {
				continue // a line the figure leaves out
			}
			sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
			name := fmt.Sprintf("%s %s", f.Line, lv.Text)
			if pv != "" {
				name += fmt.Sprintf(", %s %s", f.Panel, pv)
			}
			says := verdictSays(t, f.X, pts)
			if pts[0].r.Replicates > 1 {
				says = shareSays(t, f.X, pts)
			}
			parts = append(parts, fmt.Sprintf("at %s it %s", name, joinAnd(says)))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{"Across " + f.X + ": " + strings.Join(parts, "; ") + "."}
}

// lineCell is one cell of a line: its x and its results.
type lineCell struct {
	x float64
	r *model.Result
}

// verdictSays says at which x values of a line of single runs the system
// recovers, is stuck, still drains or is not judged.
func verdictSays(t *Table, x string, pts []lineCell) []string {
	var rec, stuck, slow, unjudged []float64
	slowest := 0.0
	for _, p := range pts {
		switch p.r.Verdict {
		case model.Recovered:
			rec = append(rec, p.x)
			if !math.IsNaN(p.r.RecoveryS) {
				slowest = math.Max(slowest, p.r.RecoveryS)
			}
		case model.Draining:
			slow = append(slow, p.x)
		case model.NotJudged:
			unjudged = append(unjudged, p.x)
		default:
			stuck = append(stuck, p.x)
		}
	}
	var says []string
	switch {
	case len(rec) == len(pts):
		says = append(says, fmt.Sprintf("recovers at every %s (at most %s s after the fault)", x, Number(slowest)))
	case len(rec) > 0:
		says = append(says, fmt.Sprintf("recovers at %s %s (at most %s s after the fault)", x, t.spans(x, rec), Number(slowest)))
	}
	switch {
	case len(stuck) == len(pts):
		says = append(says, "is stuck (never recovers) throughout")
	case len(stuck) > 0:
		says = append(says, fmt.Sprintf("is stuck (never recovers) at %s", t.spans(x, stuck)))
	}
	if len(slow) > 0 {
		says = append(says, fmt.Sprintf("is still draining when the run ends at %s", t.spans(x, slow)))
	}
	if len(unjudged) > 0 {
		says = append(says, fmt.Sprintf("is not judged at %s (no request after the fault)", t.spans(x, unjudged)))
	}
	return says
}

// shareSays says at which x values of a line of replicated cells every
// run recovers, some do (with the shares' range) and none does.
func shareSays(t *Table, x string, pts []lineCell) []string {
	var all, some, none []float64
	lo, hi := 1.0, 0.0
	for _, p := range pts {
		switch sh := p.r.RecoveredShare; {
		case sh >= 1:
			all = append(all, p.x)
		case sh <= 0:
			none = append(none, p.x)
		default:
			some = append(some, p.x)
			lo, hi = math.Min(lo, sh), math.Max(hi, sh)
		}
	}
	var says []string
	if len(all) > 0 {
		says = append(says, fmt.Sprintf("recovers in every run at %s %s", x, t.spans(x, all)))
	}
	if len(some) > 0 {
		share := pct(lo)
		if hi > lo {
			share += "–" + pct(hi)
		}
		says = append(says, fmt.Sprintf("recovers in some runs at %s %s (%s of them)", x, t.spans(x, some), share))
	}
	if len(none) > 0 {
		says = append(says, fmt.Sprintf("recovers in none at %s %s", x, t.spans(x, none)))
	}
	return says
}
