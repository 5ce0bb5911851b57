package model

// finagleBudget is Finagle's RetryBudget: every request deposits, a retry
// withdraws, and deposits and withdrawals expire after ttl; a retry is
// allowed while the balance covers it. In Finagle's integer form a deposit
// is 1000 and a withdrawal 1000 / percent_can_retry, and the balance is the
// sum over the last ttl (kept in ten slices, as its WindowedAdder does)
// plus a reserve of min_retries_per_sec × ttl withdrawals: about
// percent_can_retry of the requests may be retried, on top of
// min_retries_per_sec retries a second.
type finagleBudget struct {
	deposit, cost int64
	reserve       int64
	balance       slidingSum // deposits less withdrawals over the last ttl
}

func newFinagleBudget(b *BudgetPlan, _ *rng) budget {
	f := &finagleBudget{balance: newSlidingSum(b.TTLTicks / 10)}
	if b.PercentCanRetry == 0 {
		f.cost = 1 // only the reserve, refilled by time
	} else {
		f.deposit = 1000
		f.cost = int64(1000 / b.PercentCanRetry)
	}
	f.reserve = int64(b.MinRetriesPerSec*b.TTL.Seconds()) * f.cost
	return f
}

func checkFinagleBudget(b Budget) *FieldError {
	switch {
	case b.TTL.Seconds() < 1 || b.TTL.Seconds() > 60:
		return bad("budget.ttl", "Finagle's RetryBudget takes a ttl from 1 s to 60 s, got %v", b.TTL)
	case b.PercentCanRetry > 1000:
		return bad("budget.percent_can_retry", "must be at most 1000, got %v", b.PercentCanRetry)
	case b.PercentCanRetry == 0 && b.MinRetriesPerSec == 0:
		return bad("budget.percent_can_retry", "with min_retries_per_sec = 0 too, the budget allows no retry at all")
	}
	return nil
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
