package spec

import (
	"strconv"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// Figure asks for one figure of the report.
type Figure struct {
	Kind        string // a figure kind (plots.Kinds): "phase", "lines", "bars", "series", "hysteresis", "collapse" or "graph"
	Name        string // file name without extension; "" for the kind's default
	Title       string // "" for the kind's default
	X, Y        string // axis names (phase: both axes; lines: x axis; bars: the categories)
	Panel       string // axis with one panel per value ("" = one panel)
	Line        string // lines: axis with one line per value; bars: one bar per value in each category
	Metric      string // results.csv column drawn ("" = recovery_s)
	RuleOfThumb bool   // phase: draw the rule of thumb for naive retries
	// Band draws replicated cells as their mean over the replicates with
	// the 10th–90th percentile band around it (series).
	Band bool
	// Select keeps the cells whose values it holds: a Range zooms on part
	// of a numeric axis, Only draws one slice of the grid.
	Select sweep.Selector
}

// FigureError is a problem with one key of one figure.
type FigureError struct {
	Figure int    // index in Report.Figures
	Key    string // the figure's key at fault ("kind", "y"); "" for the figure as a whole
	Msg    string
}

func (e *FigureError) Error() string {
	if e.Key == "" {
		return "figure " + strconv.Itoa(e.Figure) + ": " + e.Msg
	}
	return "figure " + strconv.Itoa(e.Figure) + ": " + e.Key + ": " + e.Msg
}
