package model

import "math"

// tokenBucket is the budget of the FIG. 1 article: a bucket that starts full
// at max_tokens; each success deposits ratio tokens, up to max_tokens; a
// failed try that may retry takes one token, and one whose bucket holds
// less than one token is not retried.
type tokenBucket struct {
	ratio, max, tokens float64
}

func newTokenBucket(b *BudgetPlan, _ *rng) budget {
	return &tokenBucket{ratio: b.Ratio, max: b.MaxTokens, tokens: b.MaxTokens}
}

func tokenBucketBounds(b *Budget, dst []Bound) []Bound {
	return append(dst, Bound{"ratio", "", Range{0, 1000, ""}, &b.Ratio}, Bound{"max_tokens", "", Range{1, 1e9, ""}, &b.MaxTokens})
}

func (b *tokenBucket) send(_ bool, n int64) int64 { return n }
func (b *tokenBucket) end(bool, int64)            {}

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
	b.tokens = math.Min(b.max, b.tokens+b.ratio*float64(k))
}
