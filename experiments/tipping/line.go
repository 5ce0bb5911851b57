package tipping

import (
	"math"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// line is the values a search moves its key along: From, one Tolerance
// further towards To each step, and To itself last (the last step may be
// shorter). Point 0 is the mild end.
type line struct {
	t *spec.Tipping
	n int // points, both ends included
}

// newLine lays out the points of t's range.
func newLine(t *spec.Tipping) line {
	steps := math.Ceil(math.Abs(t.To-t.From)/t.Tolerance - 1e-9)
	return line{t: t, n: int(steps) + 1}
}

// Points is the number of points of the line of t's range: the cells a
// uniform grid of the search's resolution runs.
func Points(t *spec.Tipping) int { return newLine(t).n }

// value is point i's value in the key's unit (seconds for a duration).
func (l line) value(i int) float64 {
	t := l.t
	switch {
	case i >= l.n-1:
		return t.To
	case i <= 0:
		return t.From
	}
	dir := 1.0
	if t.To < t.From {
		dir = -1
	}
	x := t.From + dir*float64(i)*t.Tolerance
	if t.Duration {
		return model.Seconds(x).Seconds() // whole nanoseconds, as the scenario holds it
	}
	return math.Round(x*1e9) / 1e9
}

// axisValue is point i as a grid value of the key: what Assign takes and
// how the grid writes it ("2s", "70").
func (l line) axisValue(i int) (sweep.Value, error) {
	x := l.value(i)
	var raw any
	switch {
	case l.t.Duration:
		raw = model.Seconds(x).String()
	case l.t.Whole:
		raw = int64(math.Round(x))
	default:
		raw = x
	}
	return sweep.NewValue(raw, l.t.Duration)
}

// scanPoints is the indices of a scan of k points over a line of n, evenly
// spread, both ends included, without repeats.
func scanPoints(n, k int) []int {
	k = max(2, min(k, n))
	out := make([]int, 0, k)
	for j := 0; j < k; j++ {
		i := int(math.Round(float64(j) * float64(n-1) / float64(k-1)))
		if len(out) == 0 || out[len(out)-1] != i {
			out = append(out, i)
		}
	}
	return out
}
