package model

import "testing"

// benchMarkov solves the whole analysis of a chain (stationary
// distribution, spectral gap, four hitting times) per iteration.
func benchMarkov(b *testing.B, p MarkovPlan) {
	b.ReportMetric(float64(p.States()), "states")
	for b.Loop() {
		if _, notes := analyseMarkov(p); len(notes) > 0 {
			b.Fatal(notes)
		}
	}
}

// BenchmarkMarkovMetaforReadme is Metafor's README example, 2,000 states;
// Metafor's own dense solve of it is timed in
// testdata/metafor/outputs.txt (seconds_total).
func BenchmarkMarkovMetaforReadme(b *testing.B) { benchMarkov(b, metaforPlan(9.5, 4)) }

// BenchmarkMarkov20kNarrow is 20,000 states, a queue of 999 and an orbit
// of 19: a band of 21.
func BenchmarkMarkov20kNarrow(b *testing.B) {
	p := metaforPlan(9.5, 4)
	p.Limit = 999
	benchMarkov(b, p)
}

// BenchmarkMarkov20kWide is 20,000 states, a queue of 199 and an orbit of
// 99: a band of 101, the cost of a solve growing with its square.
func BenchmarkMarkov20kWide(b *testing.B) {
	p := metaforPlan(9.5, 4)
	p.Limit, p.Orbit = 199, 99
	benchMarkov(b, p)
}
