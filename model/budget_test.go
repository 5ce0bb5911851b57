package model

import "testing"

// TestPerTickBudget: round(ratio × arrivals), ties to even, spent by the
// retries due in the tick, renewed every tick.
func TestPerTickBudget(t *testing.T) {
	b := newPerTickBudget(BudgetPlan{Ratio: 0.1})
	b.tick(70) // 7
	if got := []int64{b.gate(5), b.gate(5), b.gate(5)}; got[0] != 5 || got[1] != 2 || got[2] != 0 {
		t.Errorf("gates %v, want 5, 2, 0 of an allowance of 7", got)
	}
	if b.admit(9) != 9 {
		t.Error("the per-tick allowance decides when retries are due, not when tries fail")
	}
	b.tick(25) // 2.5 rounds to 2
	if got := b.gate(10); got != 2 {
		t.Errorf("allowance of round(2.5) = %d, want 2 (ties to even)", got)
	}
	b.tick(35) // 3.5 rounds to 4
	if got := b.gate(10); got != 4 {
		t.Errorf("allowance of round(3.5) = %d, want 4", got)
	}
}

// TestRatioBudget: failed tries may retry while retries sent so far ≤ ratio
// × first tries sent so far, all of a group or none.
func TestRatioBudget(t *testing.T) {
	b := newRatioBudget(BudgetPlan{Ratio: 0.3})
	b.sent(false, 10) // 10 first tries
	if got := b.admit(5); got != 5 {
		t.Errorf("0 ≤ 3: admit %d of 5", got)
	}
	b.sent(true, 3) // 3 retries: 3 ≤ 3 still
	if got := b.admit(4); got != 4 {
		t.Errorf("3 ≤ 3: admit %d of 4", got)
	}
	b.sent(true, 1) // 4 > 3
	if got := b.admit(4); got != 0 {
		t.Errorf("4 > 3: admit %d of 4, want none", got)
	}
	b.sent(false, 4) // 4 ≤ 0.3 × 14 = 4.2
	if got := b.admit(2); got != 2 {
		t.Errorf("4 ≤ 4.2: admit %d of 2", got)
	}
	if b.gate(7) != 7 {
		t.Error("the ratio decides when tries fail, not when retries are due")
	}
}

// TestTokenBucket: starts full, a retry takes a whole token, a success
// deposits ratio up to the size.
func TestTokenBucket(t *testing.T) {
	b := newTokenBucket(BudgetPlan{Ratio: 0.1, MaxTokens: 3})
	if got := b.admit(5); got != 3 {
		t.Errorf("a full bucket of 3 admits %d of 5", got)
	}
	if got := b.admit(1); got != 0 {
		t.Errorf("an empty bucket admits %d", got)
	}
	b.succeeded(15) // 1.5 tokens
	if got := b.admit(2); got != 1 {
		t.Errorf("1.5 tokens admit %d of 2, want 1", got)
	}
	b.succeeded(1000) // capped at 3
	if got := b.admit(10); got != 3 {
		t.Errorf("a bucket refilled past its size admits %d, want 3", got)
	}
	if e := checkTokenBucket(Budget{Kind: "token_bucket", MaxTokens: 0.5}); e == nil || e.Path != "budget.max_tokens" {
		t.Errorf("max_tokens 0.5: %v", e)
	}
}

// TestBudgetScopes: a chain's budget counts first tries at the top only and
// successes of user requests only; a layer's budget counts its own; a
// client's budget gets its client's arrivals.
func TestBudgetScopeRules(t *testing.T) {
	plan := func(scope BudgetScope) *Plan {
		return &Plan{Budget: BudgetPlan{Kind: "ratio", Ratio: 0.5, Scope: scope}}
	}
	chain := newBudgets(plan(ScopeChain), 3, 1)
	chain.sent(0, 0, 1, 10) // user requests
	chain.sent(2, 0, 1, 10) // first tries at the bottom: not counted
	chain.sent(1, 0, 2, 5)  // retries anywhere: counted
	if r := chain.list[0].(*ratioBudget); r.firsts != 10 || r.retries != 5 {
		t.Errorf("chain: firsts %d retries %d, want 10 and 5", r.firsts, r.retries)
	}
	layer := newBudgets(plan(ScopeLayer), 3, 1)
	layer.sent(2, 0, 1, 10)
	if r := layer.list[2].(*ratioBudget); r.firsts != 10 || layer.list[0].(*ratioBudget).firsts != 0 {
		t.Errorf("layer: the bottom layer's budget counts its own first tries")
	}
	tok := newBudgets(&Plan{Budget: BudgetPlan{Kind: "token_bucket", Ratio: 1, MaxTokens: 5, Scope: ScopeChain}}, 2, 1)
	tok.admit(0, 0, 5)            // empty
	tok.succeeded(1, 0, false, 3) // a lower layer's successes: not the user's
	if got := tok.admit(0, 0, 5); got != 0 {
		t.Errorf("chain token bucket refilled by a lower layer's successes: admits %d", got)
	}
	tok.succeeded(0, 0, true, 2)
	if got := tok.admit(0, 0, 5); got != 2 {
		t.Errorf("chain token bucket after 2 user successes admits %d, want 2", got)
	}
	clients := newBudgets(&Plan{Budget: BudgetPlan{Kind: "per_tick", Ratio: 0.5, Scope: ScopeClient}}, 1, 3)
	clients.tick([]int64{2, 4, 0})
	if got := [3]int64{clients.gate(0, 0, 9), clients.gate(0, 1, 9), clients.gate(0, 2, 9)}; got != [3]int64{1, 2, 0} {
		t.Errorf("per-client allowances %v, want [1 2 0]", got)
	}
	none := newBudgets(&Plan{Budget: BudgetPlan{Kind: "none"}}, 1, 1)
	if none.on() || none.admit(0, 0, 7) != 7 || none.gate(0, 0, 7) != 7 {
		t.Error("no budget must let everything through")
	}
}
