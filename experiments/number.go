package experiments

import (
	"fmt"
	"math"
	"strconv"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// ranged is a number of an experiment file outside its scenario (the
// seed, max_cells, a search's scan, a tolerance): its type declares its
// range, as the scenario's keys declare theirs beside their kinds, and
// refuses a value outside it with the range.
type ranged interface {
	bounds() model.KeyRange
}

// readNumber reads v, the value of a key whose range is r: a number within
// it, a whole one where r says so.
func readNumber(v any, r model.KeyRange) (float64, error) {
	var x float64
	var got string
	switch y := v.(type) {
	case int64:
		x, got = float64(y), strconv.FormatInt(y, 10)
	case float64:
		x, got = y, strconv.FormatFloat(y, 'g', -1, 64)
		if r.Whole && y != math.Trunc(y) {
			x = math.NaN()
		}
	default:
		return 0, fmt.Errorf("wants %s, got %s", r.Text(), sweep.Describe(v))
	}
	if !(x >= r.Min && x <= r.Max) {
		return 0, fmt.Errorf("must be %s, got %s", r.Text(), got)
	}
	return x, nil
}
