package plots

import (
	"fmt"
	"math"
	"strings"
)

// The functions below write numbers and values in sentences and tables:
// the figures' findings, and the report around them (package reports).

// Number writes a number for a sentence: a whole number with commas
// between thousands (6,290,460), anything else with one decimal (36.5).
func Number(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return grouped(x, 0)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Sprintf("%.1f", x)
	}
	return grouped(x, 1)
}

// Ratio writes a ratio with two decimals: 1.43.
func Ratio(x float64) string { return fmt.Sprintf("%.2f", x) }

// Escape makes text safe in a cell of a Markdown table.
func Escape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// JoinAnd joins clauses as a sentence does: "a", "a and b", "a, b and c"
// (joinAnd, for the reports' prose).
func JoinAnd(parts []string) string { return joinAnd(parts) }

// joinAnd joins clauses as a sentence does: "a", "a and b", "a, b and c".
func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
