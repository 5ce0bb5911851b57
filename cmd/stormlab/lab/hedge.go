package lab

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/hedgepolicy"

	"github.com/stormlab/stormlab/model"
)

// hedging runs a bottom layer's tries hedged as the model's hedge kind
// hedges them, with failsafe-go's hedgepolicy, one executor per try (so a
// hedge is not counted as one of the retry policy's attempts, as
// failsafe-go would count it in one execution): a try without an answer
// after the hedge delay gets one second copy; the first success answers
// the try and the other copy is cancelled (gRPC cancels its call, and the
// dependency withdraws it from its waiting room); a copy that fails after
// the hedge was sent leaves its twin to carry the try alone, the try
// failing when both have; a copy that fails before then fails the try at
// once; an answer not to retry decides the try as a success does. Both
// copies share the try's deadline. When the hedge is due and how many may
// go are the model's own hedger's (model.SharedHedger: the fixed delay, or
// the percentile of the layer's recent successes; the cap on the share of
// the tries), asked one try at a time; a hedge is then asked of the retry
// budget and charged as the model charges one (model.SharedBudgets.Hedge).
// A hedge either refuses is not sent. grpc-go has no hedging of its own:
// it ignores a service config's hedgingPolicy.
type hedging struct {
	exec  failsafe.Executor[any]
	clock *clock
	k     *counters
	mu    sync.Mutex
	rule  *model.SharedHedger
}

// hedgeTry is one hedged try's memory: the tick it was sent in, its hedge
// delay, whether its hedge was sent, and the successes its copies were
// answered with.
type hedgeTry struct {
	born   int64
	delay  int64
	hedged atomic.Bool
	ok     atomic.Int32
}

type hedgeKey struct{}

// alone is the failure of a try's only copy before its hedge was sent: it
// decides the try.
type alone struct{ err error }

func (a *alone) Error() string { return a.err.Error() }
func (a *alone) Unwrap() error { return a.err }

// hedgeRefused is a hedge the cap or the retry budget did not let go: the
// try's first copy carries on alone.
type hedgeRefused struct{}

func (hedgeRefused) Error() string { return "hedge refused" }

// newHedging is the hedging of layer of p, or nil for none.
func newHedging(p *model.Plan, layer int, c *clock, k *counters) *hedging {
	rule := model.NewSharedHedger(p, layer)
	if rule == nil {
		return nil
	}
	h := &hedging{clock: c, k: k, rule: rule}
	pol := hedgepolicy.NewBuilderWithDelayFunc[any](func(ex failsafe.ExecutionAttempt[any]) time.Duration {
		t, _ := ex.Context().Value(hedgeKey{}).(*hedgeTry)
		return c.wallTicks(float64(t.delay))
	}).
		WithMaxHedges(1).
		CancelIf(func(_ any, err error) bool {
			var a *alone
			var f *final
			return err == nil || errors.As(err, &a) || errors.As(err, &f)
		}).
		OnHedge(func(ev failsafe.ExecutionEvent[any]) {
			if t, ok := ev.Context().Value(hedgeKey{}).(*hedgeTry); ok {
				t.hedged.Store(true)
			}
		}).Build()
	h.exec = failsafe.With[any](pol)
	return h
}

// hedgingOf is layer's hedging in a phase of plan p that follows phases:
// the last phase's, when the layer hedges as it did (its hedger's memory
// kept, as the model keeps it across a change that leaves it alone), or a
// new one.
func hedgingOf(phases []phase, p *model.Plan, layer int, c *clock, k *counters) *hedging {
	if n := len(phases); n > 0 && phases[n-1].lp.Hedge == p.Chain[layer].Hedge {
		return phases[n-1].hedging
	}
	return newHedging(p, layer, c, k)
}

// try sends one try, due in tick due, through send, hedged; send is given
// each copy's context, which the winner's answer cancels for the loser,
// and the tick the copy is due in.
func (h *hedging) try(ctx context.Context, due int64, send func(context.Context, int64) error, budgets *budgetGate, layer, client int) error {
	t := &hedgeTry{born: h.clock.tick()}
	h.mu.Lock()
	t.delay = h.rule.Sent(t.born)
	h.mu.Unlock()
	ctx = context.WithValue(ctx, hedgeKey{}, t)
	err := h.exec.WithContext(ctx).RunWithExecution(func(ex failsafe.Execution[any]) error {
		if ex.IsHedge() {
			h.mu.Lock()
			capped := !h.rule.Take(h.clock.tick())
			h.mu.Unlock()
			if capped {
				return hedgeRefused{}
			}
			if budgets.on() {
				if !budgets.hedge(layer, client) {
					return hedgeRefused{}
				}
				defer budgets.end(layer, client, true)
			}
			h.k.add(cHedges, 1)
		}
		copyDue := due
		if ex.IsHedge() {
			copyDue += t.delay
		}
		err := send(ex.Context(), copyDue)
		if err == nil && t.ok.Add(1) > 1 {
			// both copies answered with a success: the second is wasted
			// work, as the model counts an answer to a copy its twin
			// has decided
			h.k.add(cWasted, 1)
		}
		if err != nil && !t.hedged.Load() {
			return &alone{err}
		}
		return err
	})
	if err == nil {
		// the answer's tick, never before the try's: a dependency far
		// behind the clock answers at once what it serves late
		now := max(h.clock.answered(), t.born)
		h.mu.Lock()
		h.rule.Succeeded(now, now-t.born)
		h.mu.Unlock()
	}
	return err
}

// hedgeNote is the report's note on how the lab hedges.
const hedgeNote = "Hedges are failsafe-go's hedge policy around each try, not gRPC's hedgingPolicy: grpc-go accepts a service config's hedgingPolicy and ignores it. As the model's hedge kind, one copy goes after the hedge delay, the first success answers the try and the loser's call is cancelled (gRPC cancels it; the dependency withdraws it while it waits), and a copy that fails leaves its twin to carry the try. The delay (fixed, or the percentile of the layer's recent successes) and the cap on the hedges' share of the tries are the model's own hedger's, and a hedge is charged to the retry budget as the model charges it, each asked when a try is sent or its hedge is due: failsafe-go's quantile delay (a decaying estimate over every execution) and hedge budget (a cap on the hedges in flight) are other rules. gRPC's hedgingPolicy, where a library implements it, differs again: after a non-fatal status it sends the next copy at once, where the model fails the try (before its hedge) or waits for the twin; its hedges pass only while retryThrottling has more than half its tokens; and it has no cap on the share of hedged tries"
