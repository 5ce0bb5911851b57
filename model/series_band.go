package model

import (
	"slices"

	"gonum.org/v1/gonum/stat"
)

// SeriesBand is a cell's time series over its replicates, bin by bin: for
// every series column (SeriesColumns order) the mean over the replicates and
// the 10th and 90th percentiles, the band a figure shades around the mean.
// The mean of the healthy column is the share of replicates healthy in the
// bin.
type SeriesBand struct {
	Step       float64     // bin width in seconds
	T          []float64   // start of each bin, seconds
	Replicates int         // series behind the band
	Mean       [][]float64 // [column][bin]
	P10, P90   [][]float64 // [column][bin]: the smallest value with at least 10% (90%) of the replicates at or below it
}

// Column returns the mean and the band of the named series column.
func (b *SeriesBand) Column(name string) (mean, p10, p90 []float64, ok bool) {
	_, i, ok := LookupSeriesColumn(name)
	if !ok || i >= len(b.Mean) {
		return nil, nil, nil, false
	}
	return b.Mean[i], b.P10[i], b.P90[i], true
}

// newSeriesBand summarises the series of a cell's replicates, which share
// their bins (one plan, one clock). It is nil for fewer than two series.
func newSeriesBand(series []*Series) *SeriesBand {
	if len(series) < 2 || series[0] == nil {
		return nil
	}
	first := series[0]
	n := len(first.Rows)
	for _, s := range series {
		if s == nil || len(s.Rows) != n || s.Step != first.Step {
			return nil
		}
	}
	cols := SeriesColumns()
	b := &SeriesBand{Step: first.Step, T: make([]float64, n), Replicates: len(series),
		Mean: make([][]float64, len(cols)), P10: make([][]float64, len(cols)), P90: make([][]float64, len(cols))}
	for j := range first.Rows {
		b.T[j] = first.Rows[j].T
	}
	xs := make([]float64, len(series))
	for c, col := range cols {
		b.Mean[c], b.P10[c], b.P90[c] = make([]float64, n), make([]float64, n), make([]float64, n)
		for j := 0; j < n; j++ {
			for r, s := range series {
				xs[r] = col.Get(&s.Rows[j])
			}
			b.Mean[c][j] = stat.Mean(xs, nil)
			slices.Sort(xs)
			b.P10[c][j] = stat.Quantile(0.1, stat.Empirical, xs, nil)
			b.P90[c][j] = stat.Quantile(0.9, stat.Empirical, xs, nil)
		}
	}
	return b
}
