package model

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat"
)

// Window is a span of the run measured as result columns, so that "goodput
// between 40 and 80 s over 40 seeds" is one number: for each of its series
// columns, the rate per second of a count (successes, calls, ...) or the
// time-weighted mean of a level (queue, healthy, ...) over the series rows
// that start at or after From and before To, averaged over the replicates.
type Window struct {
	Name     string   // suffix of its result columns, e.g. "40s_80s"
	From, To Duration // from the start of the run
	Columns  []string // series columns (SeriesColumns names)
}

// bounds: a window is a span of a run.
func (w *Window) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"from", "", span(0, LongestRun), &w.From}, Bound{"to", "", span(0, LongestRun), &w.To})
}

// WindowValue is one windowed result column of a cell: the mean over the
// replicates and their standard deviation.
type WindowValue struct {
	Column   string
	Mean, SD float64
}

// WindowColumn names the result column of series column c in window w:
// "successes_per_s_40s_80s", "queue_40s_80s", "healthy_share_40s_80s".
func WindowColumn(w *Window, c SeriesColumn) string { return c.Name + c.Suffix + "_" + w.Name }

// WindowMetrics are the result columns windows add, in order: each
// window's columns in the order it lists them. Each reads the cell's
// Result.Windows at its position.
func WindowMetrics(ws []Window) []Metric {
	var out []Metric
	k := 0
	for i := range ws {
		w := &ws[i]
		for _, name := range w.Columns {
			c, _, ok := LookupSeriesColumn(name)
			if !ok {
				continue
			}
			at := k
			k++
			value := func(r *Result) float64 {
				if at >= len(r.Windows) {
					return math.NaN()
				}
				return r.Windows[at].Mean
			}
			sd := func(r *Result) float64 {
				if at >= len(r.Windows) {
					return math.NaN()
				}
				return r.Windows[at].SD
			}
			doc := fmt.Sprintf("%s from %v to %v, mean over the replicates", c.Doc, w.From, w.To)
			kind := "count" // written as a number of calls or requests (per second)
			if c.Suffix == "_share" {
				kind = "ratio"
			}
			out = append(out, Metric{Name: WindowColumn(w, c), Doc: doc, Kind: kind, Value: value, SD: sd})
		}
	}
	return out
}

// CheckWindow checks that window w measures something in runs of p: its
// columns are series columns, and some row of the series (one a second,
// or a tick when ticks are longer) starts within [From, To) inside the run.
// The error is a *FieldError at the window's key ("from", "to", "columns").
func CheckWindow(w *Window, p *Plan) error {
	end := float64(p.Ticks) * p.TickS
	step := p.SeriesStep()
	from, to := w.From.Seconds(), w.To.Seconds()
	for _, name := range w.Columns {
		if _, _, ok := LookupSeriesColumn(name); !ok {
			return bad("columns", "%q is not a series column; use %s", name, strings.Join(SeriesColumnNames(), ", "))
		}
	}
	if _, b := checkTable(w, nil); b != nil {
		return outOfRange(b.Key, b)
	}
	switch {
	case len(w.Columns) == 0:
		return bad("columns", "names no series column; use some of %s", strings.Join(SeriesColumnNames(), ", "))
	case to <= from:
		return bad("to", "must come after from (%v), got %v", w.From, w.To)
	case from >= end:
		return bad("from", "%v is past the end of the %v run", w.From, p.Run)
	case to > end+1e-9:
		return bad("to", "%v is past the end of the %v run", w.To, p.Run)
	}
	if first := math.Ceil(from/step-1e-9) * step; first >= to-1e-9 {
		return bad("to", "the window [%v, %v) holds no row of the series, whose rows start every %v s; widen it", w.From, w.To, step)
	}
	return nil
}

// SeriesStep is the width in seconds of a row of the runs' series: a
// second, or one tick when ticks are longer (a whole number of ticks either
// way).
func (p *Plan) SeriesStep() float64 { return float64(p.seriesBinTicks()) * p.TickS }

// seriesBinTicks is the ticks in a row of the series.
func (p *Plan) seriesBinTicks() int64 { return max(1, int64(math.Round(1/p.TickS))) }

// windowMeans measures the windows on one replicate's series of a run that
// ends at end seconds: per window column, in WindowMetrics order, the rate
// or mean over the rows that start within the window, each row weighted by
// the time it covers.
func windowMeans(s *Series, ws []Window, end float64) []float64 {
	var out []float64
	for i := range ws {
		w := &ws[i]
		from, to := w.From.Seconds(), w.To.Seconds()
		for _, name := range w.Columns {
			c, _, ok := LookupSeriesColumn(name)
			if !ok {
				continue
			}
			sum, span := 0.0, 0.0
			for j := range s.Rows {
				row := &s.Rows[j]
				if row.T < from-1e-9 || row.T >= to-1e-9 {
					continue
				}
				length := math.Min(row.T+s.Step, end) - row.T
				if c.Level {
					sum += c.Get(row) * length
				} else {
					sum += c.Get(row)
				}
				span += length
			}
			out = append(out, sum/span)
		}
	}
	return out
}

// aggregateWindows averages the replicates' window measurements (one slice
// per replicate, in WindowMetrics order) into the cell's window values.
func aggregateWindows(ws []Window, runs [][]float64) []WindowValue {
	return aggregateColumns(WindowMetrics(ws), runs)
}

// aggregateColumns summarises the values of columns ms over replicates
// (runs[r][k]: column k of replicate r): their mean and spread.
func aggregateColumns(ms []Metric, runs [][]float64) []WindowValue {
	if len(runs) == 0 {
		return nil
	}
	var out []WindowValue
	for _, m := range ms {
		out = append(out, WindowValue{Column: m.Name})
	}
	xs := make([]float64, len(runs))
	for k := range out {
		for r := range runs {
			xs[r] = runs[r][k]
		}
		if len(xs) == 1 {
			out[k].Mean = xs[0]
			continue
		}
		out[k].Mean, out[k].SD = stat.MeanStdDev(xs, nil)
	}
	return out
}

// WindowValues measures windows on the series of one run of p recorded
// outside the engines (the lab's), as the engines measure each replicate:
// one value per window column, in WindowMetrics order, its SD zero.
func WindowValues(s *Series, ws []Window, p *Plan) []WindowValue {
	means := windowMeans(s, ws, float64(p.Ticks)*p.TickS)
	var out []WindowValue
	for _, m := range WindowMetrics(ws) {
		out = append(out, WindowValue{Column: m.Name, Mean: means[len(out)]})
	}
	return out
}
