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
func columns(g *sweep.Grid, results []model.Result) []column {
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
	for _, m := range g.Metrics() {
		if shown(m) {
			cols = append(cols, column{name: m.Name, metric: m})
		}
	}
	if replicated {
		for _, m := range g.Metrics() {
			if m.SD != nil && shown(m) {
				cols = append(cols, column{name: m.Name + "_sd", metric: m, sd: true})
			}
		}
	}
	return cols
}

// cell formats one metric of one result as it appears in results.csv; a
// cell aborted at the memory cap has no metrics, so every field is empty.
func (c column) cell(r *model.Result) string {
	if r.Aborted != "" {
		return ""
	}
	if c.sd {
		return formatNumber(c.metric.SD(r))
	}
	v := c.metric.Value(r)
	switch {
	case c.metric.Kind == "verdict" && !math.IsNaN(v):
		return model.Verdict(v).String()
	case c.metric.Kind == "phase" && !math.IsNaN(v):
		return model.MarkovPhase(v).String()
	case c.metric.Kind == "bool" && !math.IsNaN(v):
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
// names it, then the metric columns, one row per cell in grid order. With
// refined results (each cell again at half its tick, in cell order) the
// verdict at half the tick follows; when any cell was aborted at the memory
// cap, an aborted column with the reason ends every row.
func WriteResults(w io.Writer, g *sweep.Grid, results, refined []model.Result) error {
	return writeRows(w, g, g.Cells(), false, results, refined)
}

// WriteShardRows writes a shard's rows.csv: results.csv's rows of the cells
// at positions pos of the grid (results and refined hold theirs, in that
// order), each led by its grid index in a cell column. Its metric columns
// are those the shard's own results call for.
func WriteShardRows(w io.Writer, g *sweep.Grid, pos []int, results, refined []model.Result) error {
	return writeRows(w, g, sweep.Pick(g.Cells(), pos), true, results, refined)
}

// writeRows writes results.csv's header and one row per cell of cells,
// whose results are results (and refined, with -refine) in the same order;
// with index, a first column named cell holds each cell's grid index.
func writeRows(w io.Writer, g *sweep.Grid, cells []sweep.Cell, index bool, results, refined []model.Result) error {
	cw := csv.NewWriter(w)
	cols := columns(g, results)
	header := make([]string, 0, len(g.Axes)+len(cols)+len(refineColumns)+2)
	if index {
		header = append(header, "cell")
	}
	for _, a := range g.Axes {
		header = append(header, a.Name)
	}
	for _, c := range cols {
		header = append(header, c.name)
	}
	if refined != nil {
		for _, c := range refineColumns {
			header = append(header, c.name)
		}
	}
	aborted := anyAborted(results) || anyAborted(refined)
	if aborted {
		header = append(header, "aborted")
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for i := range results {
		row := make([]string, 0, len(header))
		if index {
			row = append(row, strconv.Itoa(cells[i].Index))
		}
		for _, p := range cells[i].Params {
			row = append(row, p.Text)
		}
		for _, c := range cols {
			row = append(row, c.cell(&results[i]))
		}
		if refined != nil {
			for _, c := range refineColumns {
				row = append(row, c.get(&results[i], &refined[i]))
			}
		}
		if aborted {
			row = append(row, abortReason(&results[i], refined, i))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// refineColumns are the columns of a run with -refine: the verdict of each
// cell run again at half its tick, and whether it differs.
var refineColumns = []struct {
	name, doc string
	get       func(r, half *model.Result) string
}{
	{"refined_recovered", "with -refine: recovered, with the cell run again at half its tick", func(r, half *model.Result) string {
		if half.Aborted != "" {
			return ""
		}
		return strconv.FormatBool(half.Recovered())
	}},
	{"refined_recovery_s", "with -refine: recovery_s at half the tick", func(r, half *model.Result) string {
		if half.Aborted != "" {
			return ""
		}
		return formatNumber(half.RecoveryS)
	}},
	{"tick_flip", "with -refine: true when the verdict (recovered) differs at half the tick, so it hangs on the tick", func(r, half *model.Result) string {
		if r.Aborted != "" || half.Aborted != "" {
			return ""
		}
		return strconv.FormatBool(tickFlip(r, half))
	}},
}

// tickFlip reports whether a cell's verdict changes at half its tick.
func tickFlip(r, half *model.Result) bool {
	return r.Aborted == "" && half.Aborted == "" && r.Recovered() != half.Recovered()
}

// TickFlips counts the cells whose verdict changes at half their tick.
func TickFlips(results, half []model.Result) int {
	n := 0
	for i := range results {
		if tickFlip(&results[i], &half[i]) {
			n++
		}
	}
	return n
}

// CountAborted counts the results aborted at the memory cap.
func CountAborted(results []model.Result) int {
	n := 0
	for i := range results {
		if results[i].Aborted != "" {
			n++
		}
	}
	return n
}

func anyAborted(results []model.Result) bool { return CountAborted(results) > 0 }

// abortReason is the aborted field of row i: why the cell, or its run at
// half the tick, was stopped; empty for a cell that ran to its end.
func abortReason(r *model.Result, refined []model.Result, i int) string {
	if r.Aborted != "" {
		return r.Aborted
	}
	if refined != nil && refined[i].Aborted != "" {
		return "at half the tick: " + refined[i].Aborted
	}
	return ""
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
// A graph's services follow, each its <service>.<column> columns
// (model.ServiceColumns, and a worker pool's model.PoolServiceColumns).
func WriteSeries(w io.Writer, g *sweep.Grid, results []model.Result) error {
	var header []string
	for _, a := range g.Axes {
		header = append(header, a.Name)
	}
	header = append(header, "t_s")
	var cols []model.SeriesColumn
	for _, c := range model.SeriesColumns() {
		if !c.Optional || seriesHas(results, c.Get) {
			cols = append(cols, c)
			header = append(header, c.Name)
		}
	}
	services := seriesServices(results)
	header = append(header, serviceHeader(services)...)
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
			if len(params) > 0 {
				buf = append(buf, ',')
			}
			buf = appendNumber(buf, s.Rows[j].T)
			for _, c := range cols {
				buf = append(buf, ',')
				buf = appendNumber(buf, c.Get(&s.Rows[j]))
			}
			buf = appendServices(buf, services, s, j)
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

// ColumnsMarkdown documents the columns of results.csv after the axes as a
// Markdown table, for experiments/README.md: the metrics, the verdict at half the tick
// (-refine) and the reason a cell was aborted.
func ColumnsMarkdown() string {
	var b strings.Builder
	b.WriteString("| column | meaning |\n|---|---|\n")
	for _, m := range model.MetricList() {
		fmt.Fprintf(&b, "| `%s` | %s |\n", m.Name, m.Doc)
	}
	for _, c := range refineColumns {
		fmt.Fprintf(&b, "| `%s` | %s |\n", c.name, c.doc)
	}
	b.WriteString("| `aborted` | only when a cell was stopped at the memory cap (`-max-memory`): why, and when in simulated time; empty for the other rows. An aborted row's metric columns are empty |\n")
	return b.String()
}

// KeysMarkdown is the reference of every scenario key, its default, unit
// and meaning, as a Markdown table (`stormlab keys` prints it; experiments/README.md
// embeds it).
func KeysMarkdown() string {
	var b strings.Builder
	b.WriteString("| key | default | range | unit | meaning |\n|---|---|---|---|---|\n")
	for _, k := range sweep.Reference() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", k.Path, k.Value, k.Range, k.Unit, plots.Escape(k.Doc))
	}
	return b.String()
}
