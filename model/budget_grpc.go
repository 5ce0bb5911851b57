package model

import "math"

// grpcThrottle is gRPC's retry throttling (gRFC A6, as grpc-go implements
// it): a token count that starts at max_tokens; every failed try that could
// be retried takes one token (down to zero), the last one of a call
// included; every successful call adds token_ratio (up to max_tokens); a
// failed try is retried only if, after its token is taken, more than
// max_tokens / 2 remain. For k tries failing together with T tokens left,
// taken one after the other, the i-th passes when T − i > max_tokens / 2:
// the first ⌈T − max_tokens/2⌉ − 1 of them.
type grpcThrottle struct {
	max, ratio, tokens float64
}

// GRPCParams are the keys of gRPC's retry throttling (the service config's
// retryThrottling: maxTokens, tokenRatio).
type GRPCParams struct {
	MaxTokens  float64 `toml:"max_tokens" doc:"tokens the throttle starts with and holds at most"`
	TokenRatio float64 `toml:"token_ratio" doc:"tokens a successful call adds (a failed try takes 1; retries pass only while tokens > max_tokens / 2)"`
}

// bounds: gRFC A6 takes max_tokens in (0, 1000] and a token_ratio above
// 0, kept to three decimals.
func (p *GRPCParams) bounds(dst []Bound) []Bound {
	return append(dst, Bound{"max_tokens", "", Range{0.001, 1000, ""}, &p.MaxTokens}, Bound{"token_ratio", "", Range{0.001, 1000, ""}, &p.TokenRatio})
}

func grpcKind() budgetKind {
	return budgetKind{Kind: Kind{Name: "grpc", Doc: "gRPC retry throttling (gRFC A6): a failed try takes a token, a success adds token_ratio, retries pass while more than max_tokens / 2 remain",
		Engines: OnBoth, Params: GRPCParams{MaxTokens: 10, TokenRatio: 0.1}}, make: newGRPCThrottle, more: "max_tokens"}
}

func newGRPCThrottle(b *BudgetPlan, _ *rng) budget {
	q := b.Params.(GRPCParams)
	return &grpcThrottle{max: q.MaxTokens, ratio: q.TokenRatio, tokens: q.MaxTokens}
}

func (b *grpcThrottle) send(_ bool, n int64) int64 { return n }
func (b *grpcThrottle) end(bool, int64)            {}

func (b *grpcThrottle) fail(k int64, _, last bool) int64 {
	// Passes: the i in 1..k with tokens − i > max/2.
	pass := min(k, max(0, int64(math.Ceil(b.tokens-b.max/2))-1))
	b.tokens = math.Max(0, b.tokens-float64(k))
	if last {
		return 0
	}
	return pass
}

func (b *grpcThrottle) succeed(k int64, _, _ bool) {
	b.tokens = math.Min(b.max, b.tokens+b.ratio*float64(k))
}

// hedge lets hedges through while more than max_tokens / 2 tokens remain;
// they cost none (gRFC A6: only failures do).
func (b *grpcThrottle) hedge(n int64) int64 {
	if b.tokens > b.max/2 {
		return n
	}
	return 0
}
