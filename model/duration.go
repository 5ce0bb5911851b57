package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Duration is a span of simulated time. In TOML and on the command line it is
// written as a Go duration string ("250ms", "1.5s", "1h"); a bare number is
// read as seconds.
type Duration time.Duration

// MaxDuration is the longest span a Duration holds, either way (about 292
// years): a longer one written in a file is too large, not wrapped round.
const MaxDuration = Duration(math.MaxInt64)

// Seconds returns d in seconds.
func (d Duration) Seconds() float64 { return time.Duration(d).Seconds() }

// String formats d the way a user writes it: "30s", "250ms", "1h0m0s" is
// shortened to "1h".
func (d Duration) String() string {
	if d == 0 {
		return "0s"
	}
	s := time.Duration(d).String()
	// time.Duration prints 1h as "1h0m0s"; drop the zero tails.
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// ParseDuration reads a duration written as a Go duration string or as a
// number of seconds. One beyond MaxDuration is too large, and the error
// says so with the limit.
func ParseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return DurationOf(f)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		if x, ok := spanSeconds(s); ok {
			return 0, tooLarge(strconv.Quote(s), x)
		}
		return 0, fmt.Errorf("%q is not a duration (write it like \"30s\", \"250ms\" or \"1h\")", s)
	}
	return Duration(v), nil
}

// DurationOf converts a number of seconds, as a file writes one, to a
// Duration rounded to the nanosecond; an error when it is not a number or
// is beyond MaxDuration.
func DurationOf(s float64) (Duration, error) {
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return 0, fmt.Errorf("%v is not a duration", s)
	case math.Abs(s) > MaxDuration.Seconds():
		return 0, tooLarge(strconv.FormatFloat(s, 'g', -1, 64)+" s", s)
	}
	return Seconds(s), nil
}

// tooLarge is the error for a duration of x seconds, written as what,
// that no Duration holds.
func tooLarge(what string, x float64) error {
	if x < 0 {
		return fmt.Errorf("%s is too large: a duration is at most %v either way", what, MaxDuration)
	}
	return fmt.Errorf("%s is too large: a duration is at most %v", what, MaxDuration)
}

// spanSeconds reads a Go duration string ("1.5h30m") in floating point, so
// that one too large for a Duration can be told from one that is not a
// duration at all; ok is false for the latter.
func spanSeconds(s string) (x float64, ok bool) {
	units := []struct {
		name string
		s    float64
	}{{"ns", 1e-9}, {"us", 1e-6}, {"µs", 1e-6}, {"μs", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}}
	sign := 1.0
	if s != "" && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
		if i <= 0 {
			return 0, false
		}
		n, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return 0, false
		}
		s = s[i:]
		matched := false
		for _, u := range units { // "ms" before "m" and "s"
			if strings.HasPrefix(s, u.name) {
				x += n * u.s
				s = s[len(u.name):]
				matched = true
				break
			}
		}
		if !matched {
			return 0, false
		}
	}
	return sign * x, true
}

// Seconds converts a number of seconds to a Duration, rounded to the
// nanosecond; beyond MaxDuration it saturates (DurationOf refuses such a
// number instead).
func Seconds(s float64) Duration {
	ns := s*float64(time.Second) + copysignHalf(s)
	switch {
	case ns >= float64(math.MaxInt64):
		return MaxDuration
	case ns <= float64(math.MinInt64):
		return -MaxDuration
	}
	return Duration(ns)
}

func copysignHalf(x float64) float64 {
	if x < 0 {
		return -0.5
	}
	return 0.5
}
