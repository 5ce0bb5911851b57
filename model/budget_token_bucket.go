package model

import "math"

// tokenBucket is the budget of the FIG. 1 article: a bucket that starts full
// at max_tokens; each success deposits ratio tokens, up to max_tokens; each
// retry takes one token when its try fails, and a failed try whose bucket
// holds less than one token is not retried.
type tokenBucket struct {
	ratio, max, tokens float64
}

func newTokenBucket(b BudgetPlan) budget {
	return &tokenBucket{ratio: b.Ratio, max: b.MaxTokens, tokens: b.MaxTokens}
}

func checkTokenBucket(b Budget) *FieldError {
	if b.MaxTokens < 1 {
		return bad("budget.max_tokens", "a token bucket needs max_tokens ≥ 1, got %v", b.MaxTokens)
	}
	return nil
}

func (b *tokenBucket) tick(int64) {}

func (b *tokenBucket) sent(bool, int64) {}

func (b *tokenBucket) gate(n int64) int64 { return n }

func (b *tokenBucket) admit(k int64) int64 {
	ok := min(k, int64(math.Max(0, math.Floor(b.tokens))))
	b.tokens -= float64(ok)
	return ok
}

func (b *tokenBucket) succeeded(k int64) {
	b.tokens = math.Min(b.max, b.tokens+b.ratio*float64(k))
}
