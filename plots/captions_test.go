package plots

import "testing"

// TestRateText: a capacity reads as a person would write it.
func TestRateText(t *testing.T) {
	for x, want := range map[float64]string{100: "100", 12000: "12,000", 1e8: "100,000,000", 12345.6: "12,350", 100.2: "100.2", 100.00117794669637: "100", 33.333333: "33.33", 0.5: "0.5"} {
		if got := rateText(x); got != want {
			t.Errorf("rateText(%v) = %q, want %q", x, got, want)
		}
	}
}
