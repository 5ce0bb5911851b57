package experiments_test

import (
	"context"
	"testing"
	"time"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// BenchmarkFractionalGrid simulates testdata/fractional-grid.toml's 4,001
// queue-engine cells on one worker and then on two, in each op, and
// reports both times and the speed-up of two workers over one (x_j2):
//
//	go test -run '^$' -bench FractionalGrid -count 6 ./experiments
func BenchmarkFractionalGrid(b *testing.B) {
	e, err := experiments.Load("testdata/fractional-grid.toml", nil)
	if err != nil {
		b.Fatal(err)
	}
	cells := e.Grid.Cells()
	if len(cells) != 4001 {
		b.Fatalf("%d cells, want 4001", len(cells))
	}
	var took [3]time.Duration
	b.ReportAllocs()
	for b.Loop() {
		for _, w := range []int{1, 2} {
			start := time.Now()
			if _, err := sweep.Run(context.Background(), cells, sweep.Options{Workers: w}); err != nil {
				b.Fatal(err)
			}
			took[w] += time.Since(start)
		}
	}
	b.ReportMetric(float64(took[1].Milliseconds())/float64(b.N), "j1_ms")
	b.ReportMetric(float64(took[2].Milliseconds())/float64(b.N), "j2_ms")
	b.ReportMetric(float64(took[1])/float64(took[2]), "x_j2")
}
