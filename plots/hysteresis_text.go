package plots

import (
	"fmt"
	"math"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
)

// This file holds what a hysteresis figure says: its caption and its
// findings for the report.

// hysteresisCaption is what the figure adds to its cells' facts: what the
// panels, the lines and the markers show.
func hysteresisCaption(loops []*loop) string {
	more := "Left: requests answered with a success per second against the load offered that second; right: the share of replicates healthy. " +
		"Solid: the load rising; dashed: the load falling. Triangles: the load at which it first turned unhealthy (▲) and the one at which it turned healthy for good (▼), means over the replicates."
	if loops[0].replicates == 1 {
		more = strings.ReplaceAll(more, "the share of replicates healthy", "healthy (1) or not (0)")
		more = strings.ReplaceAll(more, ", means over the replicates", "")
	}
	var ns []choice
	for _, l := range loops {
		ns = append(ns, choice{float64(l.replicates), fmt.Sprint(l.replicates)})
	}
	if n := choices(ns); n != "1" {
		more += " Lines: the mean of " + n + " replicates per cell, second by second."
	}
	return more
}

// findings say, per cell, the load at which it tipped on the way up and
// the one at which it came back on the way down, and what it delivers at a
// load in between on each way.
func (hysteresis) findings(t *Table, f *spec.Figure) []string {
	loops, cells, err := t.loops()
	if err != nil {
		return nil
	}
	axes := t.varying(cells)
	var out []string
	for k, l := range loops {
		who := "On the ramp"
		if len(loops) > 1 {
			who = "With " + cellLabel(&cells[k], axes)
		}
		load := func(x, sd float64) string {
			s := Number(math.Round(x)) + " requests/s"
			if l.replicates > 1 {
				s = fmt.Sprintf("%s ± %s requests/s", Number(math.Round(x)), Number(math.Round(sd*10)/10))
			}
			return s
		}
		switch {
		case math.IsNaN(l.tip):
			out = append(out, fmt.Sprintf("%s the system stays healthy all the way up to the peak load of %s requests/s.", who, Number(l.peak)))
		case math.IsNaN(l.back):
			out = append(out, fmt.Sprintf("%s the system first turns unhealthy at %s on the way up and has not come back by the end of the run, at %s requests/s.",
				who, load(l.tip, l.tipSD), Number(math.Round(l.end))))
		default:
			s := fmt.Sprintf("%s the system first turns unhealthy at %s on the way up and is healthy for good again at %s on the way down",
				who, load(l.tip, l.tipSD), load(l.back, l.backSD))
			if l.backShare < 1 {
				s += fmt.Sprintf(" (the %s of the replicates that came back by the end of the run)", pct(l.backShare))
			}
			if math.IsNaN(l.mid) || l.dnMid >= 0.5*l.upMid {
				s += ": the two ways do not part."
			} else {
				s += fmt.Sprintf(", %s%% lower. In between, at %s requests/s, it answers %s requests/s with a success on the way up and %s on the way down.",
					Number(math.Round(100*(l.tip-l.back)/l.tip)), Number(math.Round(l.mid)), Number(math.Round(l.upMid)), Number(math.Round(l.dnMid)))
			}
			out = append(out, s)
		}
	}
	return out
}
