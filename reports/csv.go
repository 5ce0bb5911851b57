// Package reports renders an experiment's results: results.csv (one row per
// grid cell), series.csv (per-second time series of the cells that record
// one), report.md with the figures, reports/README.md indexing every
// experiment, and the baseline comparison behind `stormlab check`.
package reports

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
)

// column is one results.csv column after the axis columns.
type column struct {
	name   string
	metric model.Metric
	sd     bool // the spread over replicates rather than the mean
}

// columns lists the metric columns of an experiment's results.csv: every
// metric (a policy's details only when some cell has one), and when any
// cell runs several replicates the summaries of replicates and a "_sd"
// column for each metric with a spread.
func columns(results []model.Result) []column {
	replicated := false
	for i := range results {
		replicated = replicated || results[i].Replicates > 1
	}
	shown := func(m model.Metric) bool {
		if m.Replicated && !replicated {
			return false
		}
		if !m.Optional {
			return true
		}
		for i := range results {
			if v := m.Value(&results[i]); v != 0 && !math.IsNaN(v) {
				return true
			}
		}
		return false
	}
	var cols []column
	for _, m := range model.MetricList() {
		if shown(m) {
			cols = append(cols, column{name: m.Name, metric: m})
		}
	}
	if replicated {
		for _, m := range model.MetricList() {
			if m.SD != nil && shown(m) {
				cols = append(cols, column{name: m.Name + "_sd", metric: m, sd: true})
			}
		}
	}
	return cols
}

// cell formats one metric of one result as it appears in results.csv.
func (c column) cell(r *model.Result) string {
	if c.sd {
		return formatNumber(c.metric.SD(r))
	}
	v := c.metric.Value(r)
	if c.metric.Kind == "bool" {
		return strconv.FormatBool(v != 0)
	}
	return formatNumber(v)
}

// formatNumber writes a number with at most six decimals and no trailing
// zeros; NaN (no value) is an empty field.
func formatNumber(v float64) string { return string(appendNumber(nil, v)) }

// appendNumber appends v as formatNumber writes it.
func appendNumber(dst []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return dst
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.AppendInt(dst, int64(v), 10)
	}
	r := math.Round(v*1e6) / 1e6
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.AppendFloat(dst, r, 'f', -1, 64)
}

// WriteResults writes results.csv: a column per grid axis named as the grid
// names it, then the metric columns, one row per cell in grid order.
func WriteResults(w io.Writer, g *sweep.Grid, results []model.Result) error {
	cw := csv.NewWriter(w)
	cols := columns(results)
	header := make([]string, 0, len(g.Axes)+len(cols))
	for _, a := range g.Axes {
		header = append(header, a.Name)
	}
	for _, c := range cols {
		header = append(header, c.name)
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	cells := g.Cells()
	for i := range results {
		row := make([]string, 0, len(header))
		for _, p := range cells[i].Params {
			row = append(row, p.Text)
		}
		for _, c := range cols {
			row = append(row, c.cell(&results[i]))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// seriesColumns are series.csv's columns after the axis columns; an
// optional one (a policy's detail) is written only when some row has a value
// other than 0.
var seriesColumns = []struct {
	name     string
	get      func(r *model.SeriesRow) float64
	optional bool
}{
	{"t_s", func(r *model.SeriesRow) float64 { return r.T }, false},
	{"requests", func(r *model.SeriesRow) float64 { return r.Requests }, false},
	{"calls", func(r *model.SeriesRow) float64 { return r.Calls }, false},
	{"retries", func(r *model.SeriesRow) float64 { return r.Retries }, false},
	{"successes", func(r *model.SeriesRow) float64 { return r.Successes }, false},
	{"failures", func(r *model.SeriesRow) float64 { return r.Failures }, false},
	{"timeouts", func(r *model.SeriesRow) float64 { return r.Timeouts }, false},
	{"refused", func(r *model.SeriesRow) float64 { return r.Refused }, false},
	{"refused_budget", func(r *model.SeriesRow) float64 { return r.RefusedBudget }, true},
	{"refused_breaker", func(r *model.SeriesRow) float64 { return r.RefusedBreaker }, true},
	{"refused_deadline", func(r *model.SeriesRow) float64 { return r.RefusedDeadline }, true},
	{"refused_pushback", func(r *model.SeriesRow) float64 { return r.RefusedPushback }, true},
	{"not_retryable", func(r *model.SeriesRow) float64 { return r.NotRetryable }, true},
	{"hedges", func(r *model.SeriesRow) float64 { return r.Hedges }, true},
	{"served", func(r *model.SeriesRow) float64 { return r.Served }, false},
	{"wasted", func(r *model.SeriesRow) float64 { return r.Wasted }, false},
	{"queue", func(r *model.SeriesRow) float64 { return r.Queue }, false},
	{"in_flight", func(r *model.SeriesRow) float64 { return r.InFlight }, false},
	{"capacity_per_s", func(r *model.SeriesRow) float64 { return r.Capacity }, false},
	{"healthy", func(r *model.SeriesRow) float64 {
		if r.Unhealthy {
			return 0
		}
		return 1
	}, false},
}

// seriesHas reports whether some row of some series has a value other than 0.
func seriesHas(results []model.Result, get func(r *model.SeriesRow) float64) bool {
	for i := range results {
		if s := results[i].Series; s != nil {
			for j := range s.Rows {
				if get(&s.Rows[j]) != 0 {
					return true
				}
			}
		}
	}
	return false
}

// hasSeries reports whether any cell recorded a time series.
func hasSeries(results []model.Result) bool {
	for i := range results {
		if results[i].Series != nil {
			return true
		}
	}
	return false
}

// WriteSeries writes series.csv: the axis columns, then one row per second
// (or per bin of Series.Step seconds) of every cell that recorded a series.
// Counts are totals over the bin; queue and in_flight are values at its end.
func WriteSeries(w io.Writer, g *sweep.Grid, results []model.Result) error {
	var header []string
	for _, a := range g.Axes {
		header = append(header, a.Name)
	}
	cols := seriesColumns[:0:0]
	for _, c := range seriesColumns {
		if !c.optional || seriesHas(results, c.get) {
			cols = append(cols, c)
			header = append(header, c.name)
		}
	}
	line, err := csvLine(header)
	if err != nil {
		return err
	}
	if _, err := w.Write(line); err != nil {
		return err
	}
	cells := g.Cells()
	var buf []byte
	for i := range results {
		s := results[i].Series
		if s == nil {
			continue
		}
		// The axis fields are the same on every row of a cell: encode them
		// once, then append the numbers, which never need quoting.
		params := make([]string, len(cells[i].Params))
		for j, p := range cells[i].Params {
			params[j] = p.Text
		}
		prefix, err := csvLine(params)
		if err != nil {
			return err
		}
		prefix = prefix[:len(prefix)-1]
		for j := range s.Rows {
			buf = append(buf[:0], prefix...)
			for k, c := range cols {
				if k > 0 || len(params) > 0 {
					buf = append(buf, ',')
				}
				buf = appendNumber(buf, c.get(&s.Rows[j]))
			}
			buf = append(buf, '\n')
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
	}
	return nil
}

// csvLine encodes one CSV record, newline included.
func csvLine(fields []string) ([]byte, error) {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	if err := cw.Write(fields); err != nil {
		return nil, err
	}
	cw.Flush()
	return b.Bytes(), cw.Error()
}

// ColumnsMarkdown documents the metric columns of results.csv as a
// Markdown table, for the README.
func ColumnsMarkdown() string {
	var b strings.Builder
	b.WriteString("| column | meaning |\n|---|---|\n")
	for _, m := range model.MetricList() {
		fmt.Fprintf(&b, "| `%s` | %s |\n", m.Name, m.Doc)
	}
	return b.String()
}

// KeysMarkdown is the reference of every scenario key, its default, unit
// and meaning, as a Markdown table (`stormlab keys` prints it; the README
// embeds it).
func KeysMarkdown() string {
	var b strings.Builder
	b.WriteString("| key | default | unit | meaning |\n|---|---|---|---|\n")
	for _, k := range sweep.Reference() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k.Path, k.Value, k.Unit, plots.Escape(k.Doc))
	}
	return b.String()
}
