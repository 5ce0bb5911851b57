package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/stats"

	"github.com/stormlab/stormlab/model"
)

// nativeProblem says why gRPC's own retries cannot run layer lp, or "".
func nativeProblem(lp model.LayerPlan) string {
	if lp.Attempts > 5 {
		return fmt.Sprintf("gRPC's retries with %d attempts (gRPC caps maxAttempts at 5)", lp.Attempts)
	}
	if lp.Breaker.Kind != model.BreakerNone && !lp.Breaker.PerCall {
		return "a breaker inside gRPC's own retries (use placement = \"outside_retry\" with the grpc budget)"
	}
	return ""
}

// nativeConfig is the gRPC service config of a layer whose budget is gRPC's
// retry throttling: retryPolicy with the layer's attempts and backoff, and
// retryThrottling with the budget's max_tokens and token_ratio (gRFC A6).
// gRPC's backoff is always fully jittered (a wait uniform in [0,
// min(initialBackoff × multiplier^(n−1), maxBackoff))), so a layer without
// backoff waits up to one tick, where the model retries in the next tick.
// gRPC has no per-try timeout: the tries of such a layer are watched
// instead (tryCounter.late).
func nativeConfig(lp model.LayerPlan, q model.GRPCParams, c *clock) (string, error) {
	if why := nativeProblem(lp); why != "" {
		return "", fmt.Errorf("%s", why)
	}
	base, factor, capT := 1.0, 1.0, 1.0
	switch lp.Backoff.Kind {
	case model.BackoffConstant:
		base, capT = max(1, lp.Backoff.Base), max(1, lp.Backoff.Base)
	case model.BackoffExponential:
		base, factor, capT = max(1, lp.Backoff.Base), lp.Backoff.Factor, lp.Backoff.Cap
		if capT == 0 {
			capT = base * 1e6
		}
	}
	secs := func(ticks float64) string {
		return fmt.Sprintf("%.6fs", c.wallTicks(ticks).Seconds())
	}
	cfg := map[string]any{
		"methodConfig": []any{map[string]any{
			"name": []any{map[string]any{"service": "stormlab.lab.Hop"}},
			"retryPolicy": map[string]any{
				"maxAttempts":          max(2, lp.Attempts),
				"initialBackoff":       secs(base),
				"maxBackoff":           secs(capT),
				"backoffMultiplier":    factor,
				"retryableStatusCodes": []string{"UNAVAILABLE"},
			},
		}},
		"retryThrottling": map[string]any{"maxTokens": q.MaxTokens, "tokenRatio": q.TokenRatio},
	}
	b, err := json.Marshal(cfg)
	return string(b), err
}

// tryCounter counts a call's tries as gRPC makes them, through the
// connection's stats handler: every attempt but gRPC's transparent ones
// (a stream that never left the client), and those that took longer than
// the layer's per-try timeout, which gRPC cannot enforce.
type tryCounter struct {
	n, late atomic.Int32
	timeout time.Duration // the per-try timeout; 0 for none
}

type tryKey struct{}

// tryStats is the stats handler that feeds the try counters.
type tryStats struct{}

func (tryStats) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }
func (tryStats) HandleRPC(ctx context.Context, s stats.RPCStats) {
	t, ok := ctx.Value(tryKey{}).(*tryCounter)
	if !ok {
		return
	}
	switch s := s.(type) {
	case *stats.Begin:
		if !s.IsTransparentRetryAttempt {
			t.n.Add(1)
		}
	case *stats.End:
		if t.timeout > 0 && s.EndTime.Sub(s.BeginTime) > t.timeout {
			t.late.Add(1)
		}
	}
}
func (tryStats) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }
func (tryStats) HandleConn(context.Context, stats.ConnStats)                       {}

// callNative sends a call through gRPC's own retries; a call that failed
// with attempts left was refused by the retry throttling. Its tries carry
// no due tick (gRPC resends the first's body); its answer does, into cs.
func (c *caller) callNative(ctx context.Context, cl int, n note, cs *callState) error {
	n.Due = -1
	body := n.frame()
	tc := &tryCounter{}
	if c.lp.Timeout >= 0 {
		tc.timeout = c.clock.wallTicks(float64(c.lp.Timeout))
	}
	ctx = context.WithValue(ctx, tryKey{}, tc)
	var out frame
	var trailer metadata.MD
	c.k.inFlight.Add(1)
	err := finalOf(grpc.Invoke(ctx, hopMethod, &body, &out, c.conn(cl), grpc.Trailer(&trailer)), trailer)
	c.k.inFlight.Add(-1)
	cs.answered(c.k, trailer)
	var f *final
	switch left := tc.n.Load() < c.lp.Attempts; {
	case errors.As(err, &f):
		c.countFinal(f, left) // gRPC retries neither (retryableStatusCodes, pushback)
	case err != nil && ctx.Err() == nil && left:
		c.k.add(cRefusedBudget, 1)
	}
	c.k.late.Add(int64(tc.late.Load()))
	return err
}
