package experiments_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// BenchmarkShardBalance simulates blip-phase's cells shard by shard, as
// sweep.Split deals them to 4 shards, on one worker, and reports each
// shard's time and how far the slowest is from the fastest (spread_%):
//
//	go test -run '^$' -bench ShardBalance -count 6 ./experiments
func BenchmarkShardBalance(b *testing.B) {
	e, err := experiments.Load("blip-phase.toml", nil)
	if err != nil {
		b.Fatal(err)
	}
	const n = 4
	cells := e.Grid.Cells()
	split := sweep.Split(cells, n)
	took := make([]time.Duration, n)
	for b.Loop() {
		for k, pos := range split {
			start := time.Now()
			if _, err := sweep.Run(context.Background(), sweep.Pick(cells, pos), sweep.Options{Workers: 1}); err != nil {
				b.Fatal(err)
			}
			took[k] += time.Since(start)
		}
	}
	lo, hi := took[0], took[0]
	for k, d := range took {
		b.ReportMetric(float64(d.Milliseconds())/float64(b.N), fmt.Sprintf("shard%d_ms", k))
		lo, hi = min(lo, d), max(hi, d)
	}
	b.ReportMetric(100*float64(hi-lo)/float64(lo), "spread_%")
}
