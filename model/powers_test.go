package model

import (
	"math"
	"testing"
)

// TestBinomialPowSameDraw: a binomial draw taking q^n from powers is the
// draw worked out afresh, whatever n (within the table and past it) and
// whatever p, as two servers of different failure probabilities ask for
// the same n in turn.
func TestBinomialPowSameDraw(t *testing.T) {
	fresh, kept := newPCG(7), newPCG(7)
	var pw powers
	for i := range 20000 {
		n := int64(17 + (i*7919)%(2*maxPowers+1)) // a period of 8,193 draws: each n comes back with another p
		p := []float64{0.01, 0.002, 0.3, 0.7}[i%4]
		if a, b := binomial(fresh, n, p), binomialPow(kept, n, p, &pw); a != b {
			t.Fatalf("draw %d: binomial(%d, %v) = %d afresh, %d with powers", i, n, p, a, b)
		}
		q := 1 - p
		if got, want := pw.pow(q, n), math.Pow(q, float64(n)); got != want {
			t.Fatalf("pow(%v, %d) = %v, want math.Pow's %v", q, n, got, want)
		}
	}
}
