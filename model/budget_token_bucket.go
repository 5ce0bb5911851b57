package model

import "math"

// tokenBucket is a retry budget as a bucket of tokens that starts full at
// max_tokens: a failed try that may retry takes one token, and one whose
// bucket holds less than one token is not retried. What earns tokens is the
// deposit rule, ratio tokens each, up to max_tokens:
//
//   - per success (deposit = "success"): the FIG. 1 bucket, which a
//     dependency that fails everything never refills;
//   - per request (deposit = "request"): every call the budget counts earns
//     ratio once, when its first try is sent, whatever becomes of it — the
//     per-origin budget of "Retries can make an outage worse: designing a
//     retry budget", which earns per logical call, so retries stay near
//     ratio of the calls however many fail.
type tokenBucket struct {
	ratio, max, tokens float64
	perRequest         bool
}

// TokenBucketParams are the keys of a token bucket.
type TokenBucketParams struct {
	Ratio     float64 `toml:"ratio" doc:"tokens a deposit adds"`
	MaxTokens float64 `toml:"max_tokens" doc:"the bucket's size; it starts full"`
	Deposit   string  `toml:"deposit" oneof:",success,request" doc:"what earns ratio tokens: success (each success, the FIG. 1 bucket) or request (each call it covers earns once, as its first try is sent, whatever the call's outcome — the user's requests for a chain or client budget, the layer's calls for a layer's — as the per-origin budget of \"Retries can make an outage worse: designing a retry budget\" earns per logical call)"`
}

func (p *TokenBucketParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"ratio", "", Range{0, 1000, ""}, &p.Ratio}, Bound{"max_tokens", "", Range{1, 1e9, ""}, &p.MaxTokens})
}

func tokenBucketKind() budgetKind {
	return budgetKind{Kind: Kind{Name: "token_bucket", Doc: "a bucket of max_tokens that starts full: a deposit adds ratio, a retry costs one token, none is sent below one",
		Engines: OnBoth, Params: TokenBucketParams{Ratio: 0.1, MaxTokens: 10, Deposit: "success"}}, make: newTokenBucket, more: "max_tokens"}
}

func newTokenBucket(b *BudgetPlan, _ *rng) budget {
	q := b.Params.(TokenBucketParams)
	return &tokenBucket{ratio: q.Ratio, max: q.MaxTokens, tokens: q.MaxTokens, perRequest: q.Deposit == "request"}
}

func (b *tokenBucket) end(bool, int64) {}

// send deposits for n first tries with the per-request rule; it refuses
// nothing.
func (b *tokenBucket) send(retry bool, n int64) int64 {
	if b.perRequest && !retry {
		b.deposit(n)
	}
	return n
}

func (b *tokenBucket) fail(k int64, _, last bool) int64 {
	if last {
		return 0
	}
	ok := k
	if b.tokens < float64(k) { // compared as floats: a count converts, a bucket may not
		ok = int64(math.Max(0, math.Floor(b.tokens)))
	}
	b.tokens -= float64(ok)
	return ok
}

func (b *tokenBucket) succeed(k int64, _, _ bool) {
	if !b.perRequest {
		b.deposit(k)
	}
}

// deposit adds ratio tokens for each of k, up to max_tokens.
func (b *tokenBucket) deposit(k int64) {
	b.tokens = math.Min(b.max, b.tokens+b.ratio*float64(k))
}
