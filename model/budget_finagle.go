package model

import (
	"math"
	"time"
)

// finagleBudget is Finagle's RetryBudget: every request deposits, a retry
// withdraws, and deposits and withdrawals expire after ttl; a retry is
// allowed while the balance covers it. In Finagle's integer form a deposit
// is 1000 and a withdrawal 1000 / percent_can_retry, and the balance is the
// sum over the last ttl (kept in ten slices, as its WindowedAdder does)
// plus a reserve of min_retries_per_sec × ttl withdrawals: about
// percent_can_retry of the requests may be retried, on top of
// min_retries_per_sec retries a second. A withdrawal is at most 2^31 − 1
// (a percent_can_retry below about 5e-7), so that the reserve, worked out
// in int64, holds any min_retries_per_sec × ttl of its ranges.
type finagleBudget struct {
	deposit, cost int64
	reserve       int64
	balance       slidingSum // deposits less withdrawals over the last ttl
}

// FinagleParams are the keys of Finagle's RetryBudget, at its defaults.
type FinagleParams struct {
	TTL              Duration `toml:"ttl" doc:"deposits expire after it"`
	MinRetriesPerSec float64  `toml:"min_retries_per_sec" doc:"retries allowed per second on top of the share (a reserve of min_retries_per_sec × ttl)"`
	PercentCanRetry  float64  `toml:"percent_can_retry" doc:"share of requests that may be retried (each request deposits)"`
}

// bounds: Finagle's RetryBudget takes a ttl from 1 s to 60 s and a
// percent_can_retry from 0 to 1000.
func (p *FinagleParams) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"ttl", "", span(Duration(time.Second), Duration(time.Minute)), &p.TTL},
		Bound{"min_retries_per_sec", "", Range{0, 1e6, ""}, &p.MinRetriesPerSec},
		Bound{"percent_can_retry", "", Range{0, 1000, ""}, &p.PercentCanRetry},
	)
}

func finagleKind() budgetKind {
	return budgetKind{Kind: Kind{Name: "finagle", Doc: "Finagle's RetryBudget: every request deposits, a retry withdraws, deposits expire after ttl; about percent_can_retry of the requests may retry, on top of min_retries_per_sec",
		Engines: OnBoth, Params: FinagleParams{TTL: Duration(10 * time.Second), MinRetriesPerSec: 10, PercentCanRetry: 0.2},
		check: func(p any) *FieldError {
			if q := p.(FinagleParams); q.PercentCanRetry == 0 && q.MinRetriesPerSec == 0 {
				return bad("percent_can_retry", "with min_retries_per_sec = 0 too, the budget allows no retry at all")
			}
			return nil
		}}, make: newFinagleBudget, more: "percent_can_retry"}
}

func newFinagleBudget(b *BudgetPlan, _ *rng) budget {
	q := b.Params.(FinagleParams)
	f := &finagleBudget{balance: newSlidingSum(b.ticks(q.TTL) / 10)}
	if q.PercentCanRetry == 0 {
		f.cost = 1 // only the reserve, refilled by time
	} else {
		f.deposit = 1000
		f.cost = int64(math.Min(1000/q.PercentCanRetry, math.MaxInt32))
	}
	f.reserve = int64(math.Min(math.Floor(q.MinRetriesPerSec*q.TTL.Seconds())*float64(f.cost), 1<<62))
	return f
}

// tick moves the window to tick t: what is older than ttl expires.
func (f *finagleBudget) tick(t, _ int64) { f.balance.slide(t) }

func (f *finagleBudget) send(retry bool, n int64) int64 {
	if !retry {
		f.balance.add(n * f.deposit)
	}
	return n
}

func (f *finagleBudget) fail(k int64, _, last bool) int64 {
	if last {
		return 0
	}
	ok := min(k, max(0, (f.balance.sum+f.reserve)/f.cost))
	f.balance.add(-ok * f.cost)
	return ok
}

func (f *finagleBudget) succeed(int64, bool, bool) {}
func (f *finagleBudget) end(bool, int64)           {}
