package model

import (
	"strings"
	"testing"
)

// TestDurationTooLarge: a span no Duration holds, written as seconds or as
// a Go duration, is refused as too large with the limit, never wrapped
// round to a negative one; what is not a duration at all says so.
func TestDurationTooLarge(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1e12", "1e+12 s is too large: a duration is at most 2562047h47m16.854775807s"},
		{"-1e12", "-1e+12 s is too large: a duration is at most 2562047h47m16.854775807s either way"},
		{"3000000h", `"3000000h" is too large: a duration is at most 2562047h47m16.854775807s`},
		{"2562047h48m", `"2562047h48m" is too large`},
		{"-3000000h1.5s", "either way"},
		{"NaN", "NaN is not a duration"},
		{"30 parsecs", `"30 parsecs" is not a duration`},
		{"3000000hours", `is not a duration`},
	} {
		d, err := ParseDuration(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseDuration(%q) = %v, %v; want an error saying %q", c.in, d, err, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want Duration
	}{{"2562047h47m16.854775807s", MaxDuration}, {"9223372036.854775807", MaxDuration}, {"1.5h", Seconds(5400)}, {"-2s", Seconds(-2)}} {
		if d, err := ParseDuration(c.in); err != nil || d != c.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", c.in, d, err, c.want)
		}
	}
	if Seconds(1e12) != MaxDuration || Seconds(-1e12) != -MaxDuration {
		t.Errorf("Seconds saturates: %v, %v", Seconds(1e12), Seconds(-1e12))
	}
}
