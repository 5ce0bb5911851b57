package model

import "testing"

// BenchmarkBlipStorm: one op is the 27-attempt hour that never recovers, the
// heaviest cell of the 30-second blip article.
func BenchmarkBlipStorm(b *testing.B) {
	sc := blip(27)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(sc, 1, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBlipNoRetries: one op is the hour without retries.
func BenchmarkBlipNoRetries(b *testing.B) {
	sc := blip(1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(sc, 1, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBlipStormStepped: the same hour stepped tick by tick, without
// jumping over the ticks that repeat (what the engine does when it records
// a series).
func BenchmarkBlipStormStepped(b *testing.B) {
	sc := blip(27)
	p, err := sc.Resolve()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := newQueueSim(p, 1, false)
		s.st = nil
		s.run()
	}
}
