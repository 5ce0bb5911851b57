package model

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLatencyHistogramExact: below 2,048 ticks the quantiles are those of
// the latencies themselves (the smallest value with at least the share at
// or below it).
func TestLatencyHistogramExact(t *testing.T) {
	var h latencyHistogram
	if _, ok := h.quantile(0.5); ok {
		t.Error("an empty histogram has a quantile")
	}
	for lat := int64(1); lat <= 100; lat++ {
		h.add(lat, 1)
	}
	for _, c := range []struct {
		q    float64
		want int64
	}{{0.5, 50}, {0.95, 95}, {0.99, 99}, {0.999, 100}, {0.01, 1}, {0, 1}} {
		if got, _ := h.quantile(c.q); got != c.want {
			t.Errorf("q%v of 1..100 = %d, want %d", c.q, got, c.want)
		}
	}
	h.add(7, 1000)
	if got, _ := h.quantile(0.5); got != 7 {
		t.Errorf("p50 = %d, want 7", got)
	}
}

// TestLatencyHistogramBuckets: above 2,047 ticks a quantile is at most
// 1/1,024 longer than the exact one, never shorter, and the buckets tile
// the latencies without a gap.
func TestLatencyHistogramBuckets(t *testing.T) {
	for v := int64(1); v < 1<<16; v++ {
		b, prev := latencyBucket(v), latencyBucket(v-1)
		switch {
		case latencyBucketEnd(b) < v:
			t.Fatalf("latency %d: bucket %d ends at %d", v, b, latencyBucketEnd(b))
		case b != prev && (b != prev+1 || latencyBucketEnd(prev) != v-1):
			t.Fatalf("latencies %d and %d: buckets %d and %d, the first ending at %d", v-1, v, prev, b, latencyBucketEnd(prev))
		case v < latencyExact && b != int(v):
			t.Fatalf("latency %d is not counted exactly (bucket %d)", v, b)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	var h latencyHistogram
	var xs []int64
	for range 20000 {
		v := int64(r.ExpFloat64() * 1e6)
		h.add(v, 1)
		xs = append(xs, v)
	}
	slices.Sort(xs)
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
		exact := xs[int(q*float64(len(xs)))-1]
		got, _ := h.quantile(q)
		if got < exact || float64(got-exact) > float64(exact)/1024 {
			t.Errorf("q%v: %d, exact %d", q, got, exact)
		}
	}
}
