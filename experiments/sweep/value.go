package sweep

import (
	"fmt"
	"math"
	"strconv"

	"github.com/stormlab/stormlab/model"
)

// Value is one point on an axis: what it assigns, and how it is written and
// plotted.
type Value struct {
	Text  string  // as a user writes it: "70", "2s", "no retries"
	Raw   any     // what is assigned: int64, float64, string (durations as strings), bool
	Num   float64 // numeric value for plotting (durations in seconds)
	IsNum bool
}

// NewValue makes an axis value from a raw value (int64, float64, string or
// bool, as a file or a flag gives it). For an axis over a duration a number
// means seconds and a string is parsed ("250ms", "1m"), and the text is the
// duration as model.Duration writes it.
func NewValue(raw any, duration bool) (Value, error) {
	v := Value{Raw: raw}
	switch x := raw.(type) {
	case int64:
		v.Text, v.Num, v.IsNum = strconv.FormatInt(x, 10), float64(x), true
	case float64:
		v.Text, v.Num, v.IsNum = strconv.FormatFloat(x, 'f', -1, 64), x, true
	case string:
		v.Text = x
		if duration {
			d, err := model.ParseDuration(x)
			if err != nil {
				return v, err
			}
			v.Text, v.Num, v.IsNum = d.String(), d.Seconds(), true
		}
	case bool:
		v.Text = strconv.FormatBool(x)
	default:
		return v, fmt.Errorf("an axis value must be a number, a string or a boolean, got %s", Describe(raw))
	}
	if duration && v.IsNum && v.Raw != nil {
		if _, ok := raw.(string); !ok { // seconds
			d, err := model.DurationOf(v.Num)
			if err != nil {
				return v, err
			}
			v.Text = d.String()
		}
	}
	return v, nil
}

// Float is a number as a file gives one (an int64 or a float64) as a
// float64; NaN for anything else.
func Float(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}
