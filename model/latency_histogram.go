package model

import (
	"math"
	"math/bits"
)

// latencyHistogram counts latencies in whole ticks, for the quantiles of
// the time from a user request's arrival to its answer (Metrics.LatencyP50
// and the others, with measure_latency). Latencies up to 2,047 ticks are
// counted exactly; a longer one falls in a bucket of 1/1,024 of its power
// of two (the latencies from 2^e to 2^(e+1) − 1, e ≥ 11, in 1,024 buckets
// of 2^(e−10) ticks each). A quantile is the longest latency of its bucket:
// exact below 2,048 ticks, at most 0.1% long above. The counts grow with
// the longest latency seen, to about 1,024 × (log2(longest) − 9) entries.
type latencyHistogram struct {
	counts []int64 // by bucket (latencyBucket)
	n      int64   // latencies counted
}

// latencyExact is the first latency, in ticks, counted in a bucket wider
// than one tick; buckets above it are latencyExact/2 to a power of two.
const latencyExact = 2048

// add counts k latencies of lat ticks.
func (h *latencyHistogram) add(lat, k int64) {
	i := latencyBucket(max(0, lat))
	if i >= len(h.counts) {
		h.counts = append(h.counts, make([]int64, i+1-len(h.counts))...)
	}
	h.counts[i] += k
	h.n += k
}

// quantile is the smallest latency, in ticks, that at least the share q of
// the latencies counted do not exceed (the longest of its bucket); false
// when none was counted.
func (h *latencyHistogram) quantile(q float64) (int64, bool) {
	if h.n == 0 {
		return 0, false
	}
	need := max(1, int64(math.Ceil(q*float64(h.n)-1e-9)))
	var cum int64
	for i, c := range h.counts {
		if cum += c; cum >= need {
			return latencyBucketEnd(i), true
		}
	}
	return latencyBucketEnd(len(h.counts) - 1), true
}

// seconds is quantile in seconds at ticks of tickS seconds; NaN when no
// latency was counted.
func (h *latencyHistogram) seconds(q, tickS float64) float64 {
	lat, ok := h.quantile(q)
	if !ok {
		return math.NaN()
	}
	return float64(lat) * tickS
}

// latencyBucket is the bucket a latency of v ≥ 0 ticks is counted in.
func latencyBucket(v int64) int {
	if v < latencyExact {
		return int(v)
	}
	shift := bits.Len64(uint64(v)) - 11 // v >> shift is in [1024, 2047]
	return latencyExact + (shift-1)*latencyExact/2 + int(v>>shift) - latencyExact/2
}

// latencyBucketEnd is the longest latency, in ticks, counted in bucket i.
func latencyBucketEnd(i int) int64 {
	if i < latencyExact {
		return int64(i)
	}
	j := i - latencyExact
	shift := j/(latencyExact/2) + 1
	m := int64(j%(latencyExact/2) + latencyExact/2)
	return (m+1)<<shift - 1
}
