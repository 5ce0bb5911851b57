package model

import "math"

// awsQuota is the AWS SDKs' standard retry quota: a pool of tokens that
// starts full at quota; a retry takes retry_cost tokens, or timeout_cost
// after a timeout, and is refused when the pool holds less; a call that
// succeeds on its first try adds no_retry_increment, one that succeeds on
// a retry gives back what that retry took; the pool never exceeds quota.
type awsQuota struct {
	max, tokens                 float64
	cost, timeoutCost, increase float64
}

// AWSParams are the keys of the AWS SDKs' standard retry quota, at its
// defaults.
type AWSParams struct {
	Quota            float64 `toml:"quota" doc:"tokens in the retry quota; it starts full"`
	RetryCost        float64 `toml:"retry_cost" doc:"tokens a retry after an error takes"`
	TimeoutCost      float64 `toml:"timeout_cost" doc:"tokens a retry after a timeout takes"`
	NoRetryIncrement float64 `toml:"no_retry_increment" doc:"tokens a success on the first try adds (a success on a retry gives back what the retry took)"`
}

// bounds: a cost below a thousandth of a token would be lost against a
// quota of a billion.
func (p *AWSParams) bounds(dst []Bound) []Bound {
	return append(dst,
		Bound{"quota", "", Range{0, 1e9, ""}, &p.Quota},
		Bound{"retry_cost", "", Range{0.001, 1e6, ""}, &p.RetryCost},
		Bound{"timeout_cost", "", Range{0.001, 1e6, ""}, &p.TimeoutCost},
		Bound{"no_retry_increment", "", Range{0, 1e6, ""}, &p.NoRetryIncrement},
	)
}

func awsKind() budgetKind {
	return budgetKind{Kind: Kind{Name: "aws", Doc: "the AWS SDKs' standard retry quota: a retry takes retry_cost tokens (timeout_cost after a timeout), a success on the first try adds no_retry_increment",
		Engines: OnStochastic, Params: AWSParams{Quota: 500, RetryCost: 5, TimeoutCost: 10, NoRetryIncrement: 1}}, make: newAWSQuota, more: "quota", timeouts: true}
}

func newAWSQuota(b *BudgetPlan, _ *rng) budget {
	q := b.Params.(AWSParams)
	return &awsQuota{max: q.Quota, tokens: q.Quota, cost: q.RetryCost, timeoutCost: q.TimeoutCost, increase: q.NoRetryIncrement}
}

func (b *awsQuota) send(_ bool, n int64) int64 { return n }
func (b *awsQuota) end(bool, int64)            {}

func (b *awsQuota) fail(k int64, timeout, last bool) int64 {
	if last {
		return 0
	}
	c := b.cost
	if timeout {
		c = b.timeoutCost
	}
	ok := k
	if n := math.Floor(b.tokens/c + 1e-9); c > 0 && n < float64(k) { // compared as floats: a count converts, tokens/c may not
		ok = int64(math.Max(0, n))
	}
	b.tokens -= float64(ok) * c
	return ok
}

func (b *awsQuota) succeed(k int64, retry, afterTimeout bool) {
	back := b.increase
	if retry {
		back = b.cost
		if afterTimeout {
			back = b.timeoutCost
		}
	}
	b.tokens = math.Min(b.max, b.tokens+float64(k)*back)
}
