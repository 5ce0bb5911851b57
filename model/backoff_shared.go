package model

// Waits draws one caller's waits before its retries, by the rule of
// backoff.go, for callers outside the engines: the lab's real clients wait
// what a simulated caller of the same layer waits. Not safe for concurrent
// use.
type Waits struct {
	w waits
	r *rng
}

// NewWaits returns the waits of layer l, their jitter drawn from a
// generator seeded by seed.
func NewWaits(l LayerPlan, seed uint64) *Waits { return &Waits{w: newWaits(l), r: newPCG(seed)} }

// Next is the wait in whole ticks before the retry of failed try number
// attempt (1 for the first try), prev the wait before that try (0 for the
// first): the retry is due in tick f + 1 + wait for a failure seen in tick
// f.
func (w *Waits) Next(attempt, prev int32) int64 { return w.w.one(w.r, attempt, prev) }
