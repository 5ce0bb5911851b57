package model

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration is a span of simulated time. In TOML and on the command line it is
// written as a Go duration string ("250ms", "1.5s", "1h"); a bare number is
// read as seconds.
type Duration time.Duration

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
// number of seconds.
func ParseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return Seconds(f), nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (write it like \"30s\", \"250ms\" or \"1h\")", s)
	}
	return Duration(v), nil
}

// Seconds converts a number of seconds to a Duration, rounded to the nanosecond.
func Seconds(s float64) Duration {
	return Duration(time.Duration(s*float64(time.Second) + copysignHalf(s)))
}

func copysignHalf(x float64) float64 {
	if x < 0 {
		return -0.5
	}
	return 0.5
}
