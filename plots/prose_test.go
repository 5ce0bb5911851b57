package plots

import "testing"

// Number writes a count as the reports' tables and sentences show it:
// thousands separators whether or not it is whole, one decimal when not.
func TestNumber(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{12000, "12,000"},
		{11977.4, "11,977.4"},
		{0.5, "0.5"},
		{-1234.56, "-1,234.6"},
		{999.96, "1,000.0"},
	} {
		if got := Number(c.v); got != c.want {
			t.Errorf("Number(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
