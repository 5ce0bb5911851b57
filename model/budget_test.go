package model

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// budgetPlan makes the BudgetPlan a budget of a kind with its parameters
// resolves to.
func budgetPlan(t *testing.T, kind string, params any) *BudgetPlan {
	t.Helper()
	sc := Default()
	sc.Engine = "stochastic"
	sc.Budget = Budget{Kind: kind, Scope: "chain", Params: params}
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return &p.Budget
}

// TestPerTickBudget: round(ratio × arrivals), ties to even, spent by the
// retries due in the tick, renewed every tick; first tries pass.
func TestPerTickBudget(t *testing.T) {
	b := newPerTickBudget(budgetPlan(t, "per_tick", PerTickParams{Ratio: 0.1}), nil)
	b.(ticker).tick(0, 70) // 7
	if got := []int64{b.send(true, 5), b.send(true, 5), b.send(true, 5)}; got[0] != 5 || got[1] != 2 || got[2] != 0 {
		t.Errorf("gates %v, want 5, 2, 0 of an allowance of 7", got)
	}
	if b.send(false, 100) != 100 || b.fail(9, false, false) != 9 {
		t.Error("the per-tick allowance limits retries when they are due, nothing else")
	}
	b.(ticker).tick(1, 25) // 2.5 rounds to 2
	if got := b.send(true, 10); got != 2 {
		t.Errorf("allowance of round(2.5) = %d, want 2 (ties to even)", got)
	}
	b.(ticker).tick(2, 35) // 3.5 rounds to 4
	if got := b.send(true, 10); got != 4 {
		t.Errorf("allowance of round(3.5) = %d, want 4", got)
	}
}

// TestRatioBudget: failed tries may retry while retries counted so far ≤
// ratio × first tries so far, all of a group or none; counted when sent, or
// when granted.
func TestRatioBudget(t *testing.T) {
	b := newRatioBudget(budgetPlan(t, "ratio", RatioParams{Ratio: 0.3}), nil)
	b.send(false, 10) // 10 first tries
	if got := b.fail(5, false, false); got != 5 {
		t.Errorf("0 ≤ 3: %d of 5 may retry", got)
	}
	b.send(true, 3) // 3 retries sent: 3 ≤ 3 still
	if got := b.fail(4, false, false); got != 4 {
		t.Errorf("3 ≤ 3: %d of 4 may retry", got)
	}
	b.send(true, 1) // 4 > 3
	if got := b.fail(4, false, false); got != 0 {
		t.Errorf("4 > 3: %d of 4 may retry, want none", got)
	}
	b.send(false, 4) // 4 ≤ 0.3 × 14 = 4.2
	if got := b.fail(2, true, false); got != 2 {
		t.Errorf("4 ≤ 4.2: %d of 2 may retry", got)
	}
	if b.fail(2, false, true) != 0 {
		t.Error("no retry after the last attempt")
	}
	g := newRatioBudget(budgetPlan(t, "ratio", RatioParams{Ratio: 0.1, Count: "granted"}), nil)
	g.send(false, 10)
	// The asyncio call(): allowed while retries ≤ 0.1 × 10, counted as
	// granted: 0 ≤ 1 and 1 ≤ 1 pass, 2 ≤ 1 does not.
	if got := []int64{g.fail(1, false, false), g.fail(1, false, false), g.fail(1, false, false)}; !equal(got, []int64{1, 1, 0}) {
		t.Errorf("granted: %v, want [1 1 0]", got)
	}
}

// TestTokenBucket: starts full, a retry takes a whole token, a success
// deposits ratio up to the size; a last failure takes nothing.
func TestTokenBucket(t *testing.T) {
	b := newTokenBucket(budgetPlan(t, "token_bucket", TokenBucketParams{Ratio: 0.1, MaxTokens: 3}), nil)
	if got := b.fail(1, false, true); got != 0 || b.(*tokenBucket).tokens != 3 {
		t.Errorf("a last failure: %d, tokens %v", got, b.(*tokenBucket).tokens)
	}
	if got := b.fail(5, false, false); got != 3 {
		t.Errorf("a full bucket of 3 lets %d of 5 retry", got)
	}
	if got := b.fail(1, false, false); got != 0 {
		t.Errorf("an empty bucket lets %d retry", got)
	}
	b.succeed(15, false, false) // 1.5 tokens
	if got := b.fail(2, false, false); got != 1 {
		t.Errorf("1.5 tokens let %d of 2 retry, want 1", got)
	}
	b.succeed(1000, false, false) // capped at 3
	if got := b.fail(10, false, false); got != 3 {
		t.Errorf("a bucket refilled past its size lets %d retry, want 3", got)
	}
	sc := Default()
	sc.Budget = Budget{Kind: "token_bucket", Scope: "chain", Params: TokenBucketParams{Ratio: 0.1, MaxTokens: 0.5}}
	if e, ok := sc.Validate().(*FieldError); !ok || e.Path != "budget.max_tokens" {
		t.Errorf("max_tokens 0.5: %v", e)
	}
}

// TestTokenBucketDeposit: with deposit = "request" every first try earns
// ratio when it is sent, whatever its outcome, and successes earn nothing;
// retries earn nothing either way; the bucket still starts full and holds
// at most max_tokens.
func TestTokenBucketDeposit(t *testing.T) {
	b := newTokenBucket(budgetPlan(t, "token_bucket", TokenBucketParams{Ratio: 0.1, MaxTokens: 3, Deposit: "request"}), nil)
	tokens := func() float64 { return b.(*tokenBucket).tokens }
	if got := b.send(false, 50); got != 50 || tokens() != 3 {
		t.Fatalf("50 first tries into a full bucket: %d sent, %v tokens, want 50 and 3 (capped)", got, tokens())
	}
	if got := b.fail(5, false, false); got != 3 || tokens() != 0 {
		t.Fatalf("a full bucket of 3: %d of 5 retry, %v left", got, tokens())
	}
	if b.send(true, 3); tokens() != 0 {
		t.Errorf("3 retries sent earned %v tokens, want none", tokens())
	}
	b.succeed(20, true, false)
	b.succeed(20, false, false)
	if tokens() != 0 {
		t.Errorf("successes earned %v tokens with deposit = request, want none", tokens())
	}
	b.send(false, 15) // 1.5 tokens, however the 15 calls end
	if got := b.fail(15, false, false); got != 1 || math.Abs(tokens()-0.5) > 1e-12 {
		t.Errorf("15 calls earned 1.5 tokens: %d of their 15 failures retry, %v left; want 1 and 0.5", got, tokens())
	}
	// The same steps with deposit = success: the calls earn nothing, their
	// successes do.
	s := newTokenBucket(budgetPlan(t, "token_bucket", TokenBucketParams{Ratio: 0.1, MaxTokens: 3}), nil)
	s.fail(3, false, false)
	s.send(false, 15)
	if got := s.fail(1, false, false); got != 0 {
		t.Errorf("deposit = success: 15 calls sent earned a retry")
	}
	s.succeed(15, false, false)
	if got := s.fail(2, false, false); got != 1 {
		t.Errorf("deposit = success: 15 successes let %d of 2 retry, want 1", got)
	}
}

// TestGRPCThrottle pins gRPC retry throttling with max_tokens 10 and
// token_ratio 0.1: every failed try takes a token; a retry passes only if
// more than 5 remain after it; successes add 0.1.
func TestGRPCThrottle(t *testing.T) {
	b := newGRPCThrottle(budgetPlan(t, "grpc", GRPCParams{MaxTokens: 10, TokenRatio: 0.1}), nil)
	tokens := func() float64 { return b.(*grpcThrottle).tokens }
	// Failures one at a time: 9, 8, 7, 6 pass; 5 does not.
	var got []int64
	for range 5 {
		got = append(got, b.fail(1, false, false))
	}
	if want := []int64{1, 1, 1, 1, 0}; !equal(got, want) || tokens() != 5 {
		t.Fatalf("five single failures: %v (tokens %v), want %v and 5 tokens", got, tokens(), want)
	}
	// 11 successes: 5 + 1.1 = 6.1 tokens; a failure leaves 5.1 > 5: passes;
	// the next leaves 4.1: does not.
	b.succeed(11, false, false)
	if a, c := b.fail(1, false, false), b.fail(1, false, false); a != 1 || c != 0 {
		t.Errorf("after 11 successes: %d then %d pass, want 1 then 0", a, c)
	}
	// A last failure still takes its token; tokens never go below zero.
	b.fail(1, false, true)
	b.fail(100, false, false)
	if tokens() != 0 {
		t.Errorf("tokens %v, want 0", tokens())
	}
	// A group of 6 failing on a full bucket: the first 4 pass (tokens 9, 8,
	// 7, 6 after each), then 5 and 4 do not.
	full := newGRPCThrottle(budgetPlan(t, "grpc", GRPCParams{MaxTokens: 10, TokenRatio: 0.1}), nil)
	if got := full.fail(6, false, false); got != 4 || full.(*grpcThrottle).tokens != 4 {
		t.Errorf("six failures at once on 10 tokens: %d pass, %v left; want 4 and 4", got, full.(*grpcThrottle).tokens)
	}
	b.succeed(1000, false, false)
	if tokens() != 10 {
		t.Errorf("tokens never exceed max_tokens: %v", tokens())
	}
	sc := Default()
	sc.Budget = Budget{Kind: "grpc", Scope: "chain", Params: GRPCParams{MaxTokens: 0, TokenRatio: 0.1}}
	if e, ok := sc.Validate().(*FieldError); !ok || e.Path != "budget.max_tokens" {
		t.Errorf("max_tokens 0: %v", e)
	}
}

// TestFinagleBudget: a reserve of min_retries_per_sec × ttl retries; each
// request deposits percent_can_retry of a retry; deposits and withdrawals
// expire after ttl.
func TestFinagleBudget(t *testing.T) {
	p := budgetPlan(t, "finagle", nil) // 10 s, 10/s, 20%
	b := newFinagleBudget(p, nil)
	f := b.(*finagleBudget)
	if f.cost != 5000 || f.deposit != 1000 || f.reserve != 100*5000 {
		t.Fatalf("cost %d, deposit %d, reserve %d; want 5000, 1000 and 100 retries", f.cost, f.deposit, f.reserve)
	}
	b.(ticker).tick(0, 0)
	if got := b.fail(150, false, false); got != 100 {
		t.Errorf("with no requests the reserve allows %d of 150, want 100", got)
	}
	if got := b.fail(1, false, false); got != 0 {
		t.Errorf("the reserve spent: %d", got)
	}
	b.send(false, 50) // 50 requests: 10 retries
	if got := b.fail(20, false, false); got != 10 {
		t.Errorf("50 requests allow %d retries, want 10", got)
	}
	// A second (1 s, ten slices of the 10 s ttl: 100 ticks at 10 ms... here
	// ticks are 1 s, so a slice is one tick) later nothing expired yet; after
	// the ttl everything has.
	b.(ticker).tick(5, 0)
	if got := b.fail(1, false, false); got != 0 {
		t.Errorf("5 s later, nothing expired: %d", got)
	}
	b.(ticker).tick(10, 0)
	if got := b.fail(200, false, false); got != 100 {
		t.Errorf("a ttl later the window is empty again: %d of 200 pass, want the reserve's 100", got)
	}
}

// TestEnvoyBudget: retries in flight ≤ max(min_retry_concurrency,
// budget_percent × tries in flight).
func TestEnvoyBudget(t *testing.T) {
	b := newEnvoyBudget(budgetPlan(t, "envoy", nil), nil) // 20%, 3
	b.send(false, 10)
	if got := b.fail(5, false, false); got != 3 {
		t.Errorf("10 in flight: %d of 5 may retry, want the floor of 3", got)
	}
	b.send(false, 40) // 50 in flight: 20% = 10, 3 granted already
	if got := b.fail(20, false, false); got != 7 {
		t.Errorf("50 in flight: %d more may retry, want 7", got)
	}
	b.end(true, 10) // those retries end
	b.end(false, 40)
	if got := b.fail(5, false, false); got != 3 {
		t.Errorf("after they ended: %d, want 3", got)
	}
}

// TestAWSQuota: 500 tokens; a retry takes 5, or 10 after a timeout; a
// success on a retry gives its cost back, one on a first try adds 1.
func TestAWSQuota(t *testing.T) {
	b := newAWSQuota(budgetPlan(t, "aws", nil), nil)
	tokens := func() float64 { return b.(*awsQuota).tokens }
	if got := b.fail(10, true, false); got != 10 || tokens() != 400 {
		t.Errorf("10 retries after timeouts: %d, %v tokens left, want 10 and 400", got, tokens())
	}
	if got := b.fail(100, false, false); got != 80 || tokens() != 0 {
		t.Errorf("100 retries after errors on 400 tokens: %d, %v left, want 80 and 0", got, tokens())
	}
	b.succeed(3, true, true) // three retries after timeouts succeed: 30 back
	b.succeed(4, false, false)
	if tokens() != 34 {
		t.Errorf("after refunds: %v tokens, want 34", tokens())
	}
	b.succeed(1000, false, false)
	if tokens() != 500 {
		t.Errorf("the quota never exceeds 500: %v", tokens())
	}
}

// TestAdaptiveThrottle: tries are rejected with probability max(0, (tries
// − k × accepted)/(tries + 1)) over the window.
func TestAdaptiveThrottle(t *testing.T) {
	p := budgetPlan(t, "adaptive", AdaptiveParams{K: 2, Window: Duration(10 * time.Second)})
	b := newAdaptiveThrottle(p, newPCG(1))
	b.(ticker).tick(0, 0)
	if got := b.send(false, 1000); got != 1000 {
		t.Errorf("no history: %d of 1000 sent", got)
	}
	b.succeed(1000, false, false) // all accepted: 1000 − 2000 < 0
	if got := b.send(false, 1000); got != 1000 {
		t.Errorf("all accepted: %d of 1000 sent", got)
	}
	// 2000 tries, 1000 accepted; now 10,000 tries, none accepted:
	b.send(false, 10000) // p was 0 when drawn
	a := b.(*adaptiveThrottle)
	p0 := (float64(a.tries.sum) - 2*float64(a.accepts.sum)) / float64(a.tries.sum+1) // (12000 − 2000)/12001
	sent := b.send(false, 100000)
	if want := 100000 * (1 - p0); math.Abs(float64(sent)-want) > 5*math.Sqrt(100000*p0*(1-p0)) {
		t.Errorf("rejection p = %.3f: %d of 100000 sent, want about %.0f", p0, sent, want)
	}
	b.(ticker).tick(10, 0) // the window has moved on
	if got := b.send(false, 10); got != 10 {
		t.Errorf("a window later: %d of 10 sent", got)
	}
}

// TestBudgetScopeRules: a chain's budget counts first tries at the top only
// and successes of user requests only; a layer's budget counts its own; a
// client's budget gets its client's arrivals; the dependency's covers the
// bottom layer only.
func TestBudgetScopeRules(t *testing.T) {
	plan := func(kind string, scope BudgetScope) *Plan {
		params := map[string]any{"ratio": RatioParams{Ratio: 0.5}, "per_tick": PerTickParams{Ratio: 0.5}, "token_bucket": TokenBucketParams{Ratio: 0.5, MaxTokens: 5}}[kind]
		return &Plan{Budget: BudgetPlan{Kind: kind, Scope: scope, Params: params, TickNs: int64(time.Second)}}
	}
	chain := newBudgets(plan("ratio", ScopeChain), 3, 1, nil)
	chain.send(0, 0, false, 10) // user requests
	chain.send(2, 0, false, 10) // first tries at the bottom: not counted
	chain.send(1, 0, true, 5)   // retries anywhere: counted
	if r := chain.list[0].(*ratioBudget); r.firsts != 10 || r.retries != 5 {
		t.Errorf("chain: firsts %d retries %d, want 10 and 5", r.firsts, r.retries)
	}
	layer := newBudgets(plan("ratio", ScopeLayer), 3, 1, nil)
	layer.send(2, 0, false, 10)
	if r := layer.list[2].(*ratioBudget); r.firsts != 10 || layer.list[0].(*ratioBudget).firsts != 0 {
		t.Errorf("layer: the bottom layer's budget counts its own first tries")
	}
	tok := newBudgets(plan("token_bucket", ScopeChain), 2, 1, nil)
	tok.fail(0, 0, 5, false, false) // empty
	tok.succeed(1, 0, 3, false, false)
	if got := tok.fail(0, 0, 5, false, false); got != 0 {
		t.Errorf("chain token bucket refilled by a lower layer's successes: %d retry", got)
	}
	tok.succeed(0, 0, 2, false, false)
	if got := tok.fail(0, 0, 5, false, false); got != 1 {
		t.Errorf("chain token bucket after 2 user successes (1 token) lets %d retry, want 1", got)
	}
	clients := newBudgets(plan("per_tick", ScopeClient), 1, 3, nil)
	clients.tick(0, []int64{2, 4, 0})
	if got := [3]int64{clients.send(0, 0, true, 9), clients.send(0, 1, true, 9), clients.send(0, 2, true, 9)}; got != [3]int64{1, 2, 0} {
		t.Errorf("per-client allowances %v, want [1 2 0]", got)
	}
	dep := newBudgets(plan("token_bucket", ScopeDependency), 3, 1, nil)
	if dep.fail(0, 0, 9, false, false) != 9 || dep.fail(2, 0, 9, false, false) != 5 {
		t.Error("dependency scope: the layers above retry freely, the bottom one from its bucket of 5")
	}
	none := newBudgets(&Plan{Budget: BudgetPlan{Kind: "none"}}, 1, 1, nil)
	if none.on() || none.fail(0, 0, 7, false, false) != 7 || none.send(0, 0, true, 7) != 7 {
		t.Error("no budget must let everything through")
	}
}

// TestBudgetHedges: a hedge is charged as a retry (asked for like a failed
// try's retry, then sent as one), except under gRPC throttling, where
// hedges pass while more than max_tokens / 2 tokens remain and cost none.
func TestBudgetHedges(t *testing.T) {
	one := func(x budget) *budgets { return &budgets{list: []budget{x}, scope: ScopeChain} }

	g := newGRPCThrottle(budgetPlan(t, "grpc", GRPCParams{MaxTokens: 10, TokenRatio: 0.1}), nil)
	bs := one(g)
	if got := bs.hedge(0, 0, 7); got != 7 || g.(*grpcThrottle).tokens != 10 {
		t.Errorf("gRPC with 10 tokens: %d of 7 hedges, %v tokens left; want 7 and 10", got, g.(*grpcThrottle).tokens)
	}
	g.fail(5, false, false) // 5 tokens: not more than 10 / 2
	if got := bs.hedge(0, 0, 3); got != 0 {
		t.Errorf("gRPC with 5 of 10 tokens let %d hedges through", got)
	}

	r := newRatioBudget(budgetPlan(t, "ratio", RatioParams{Ratio: 0.1}), nil)
	bs = one(r)
	r.send(false, 100)
	if got := bs.hedge(0, 0, 20); got != 20 {
		t.Errorf("ratio: 0 retries ≤ 10: %d of 20 hedges", got)
	}
	if got := bs.hedge(0, 0, 1); got != 0 || r.(*ratioBudget).retries != 20 {
		t.Errorf("ratio: 20 retries counted > 10: %d hedges, %d retries", got, r.(*ratioBudget).retries)
	}

	pt := newPerTickBudget(budgetPlan(t, "per_tick", PerTickParams{Ratio: 0.1}), nil)
	bs = one(pt)
	pt.(ticker).tick(0, 50) // 5 a tick
	if a, b := bs.hedge(0, 0, 3), bs.hedge(0, 0, 3); a != 3 || b != 2 {
		t.Errorf("per tick allowance of 5: hedges %d then %d, want 3 then 2", a, b)
	}
}

// TestBudgetsCountBeyondTheirRanges: however large a budget's capacity, or
// however small a cost, a kind answers a count from 0 to what was asked,
// and a larger capacity never lets fewer through. A token bucket of 1e19
// tokens answered -2^63 (its floor converted to an int64), which left a
// negative count of calls in the queue server's waiting room and spun its
// work loop; Validate keeps every key in a range where this cannot happen,
// and the kinds' arithmetic holds beyond them too.
func TestBudgetsCountBeyondTheirRanges(t *testing.T) {
	const k = int64(MaxRate) // a second's worth at the highest load, at 1 s ticks
	for _, c := range []struct {
		key          string
		make         func(*BudgetPlan, *rng) budget
		set          func(b *BudgetPlan, x float64)
		small, large float64
	}{
		{"token_bucket max_tokens", newTokenBucket, func(b *BudgetPlan, x float64) { b.Params = TokenBucketParams{Ratio: 0.1, MaxTokens: x} }, 1e19, 1e300},
		{"aws quota", newAWSQuota, func(b *BudgetPlan, x float64) {
			b.Params = AWSParams{Quota: x, RetryCost: 5, TimeoutCost: 10, NoRetryIncrement: 1}
		}, 1e19, 1e300},
		{"aws 1 / retry_cost", newAWSQuota, func(b *BudgetPlan, x float64) {
			b.Params = AWSParams{Quota: 500, RetryCost: 1 / x, TimeoutCost: 10, NoRetryIncrement: 1}
		}, 1e10, 1e300},
		{"grpc max_tokens", newGRPCThrottle, func(b *BudgetPlan, x float64) { b.Params = GRPCParams{MaxTokens: x, TokenRatio: 0.1} }, 1e19, 1e300},
		{"finagle min_retries_per_sec", newFinagleBudget, func(b *BudgetPlan, x float64) {
			b.Params = FinagleParams{TTL: Duration(10 * time.Second), MinRetriesPerSec: x, PercentCanRetry: 0.2}
		}, 1e6, 1e300},
		{"finagle percent_can_retry 1e-300, min_retries_per_sec", newFinagleBudget, func(b *BudgetPlan, x float64) {
			b.Params = FinagleParams{TTL: Duration(10 * time.Second), MinRetriesPerSec: x, PercentCanRetry: 1e-300}
		}, 0, 10},
	} {
		var bs [2]budget
		for i, x := range []float64{c.small, c.large} {
			p := &BudgetPlan{TickNs: int64(time.Second)}
			c.set(p, x)
			bs[i] = c.make(p, nil)
		}
		name := fmt.Sprintf("%s %g, %g", c.key, c.small, c.large)
		var small, large int64
		for range 3 {
			for _, b := range bs {
				if x, ok := b.(ticker); ok {
					x.tick(0, k)
				}
				b.send(false, k)
			}
			s, l := bs[0].fail(k, false, false), bs[1].fail(k, false, false)
			if s < 0 || s > k || l < 0 || l > k {
				t.Fatalf("%s: %d and %d of %d failed tries may retry", name, s, l, k)
			}
			small, large = small+s, large+l
		}
		if large < small {
			t.Errorf("%s: the larger budget let %d retries through, the smaller %d", name, large, small)
		}
	}
}
