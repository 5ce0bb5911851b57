package lab

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/hedgepolicy"

	"github.com/stormlab/stormlab/model"
)

// hedging runs a bottom layer's tries hedged as the model's hedge kind
// hedges them, with failsafe-go's hedgepolicy, one executor per try (so a
// hedge is not counted as one of the retry policy's attempts, as
// failsafe-go would count it in one execution): a try without an answer
// after the layer's delay gets one second copy; the first success answers
// the try and the other copy is cancelled (gRPC cancels its call, and the
// dependency withdraws it from its waiting room); a copy that fails after
// the hedge was sent leaves its twin to carry the try alone, the try
// failing when both have; a copy that fails before then fails the try at
// once; an answer not to retry decides the try as a success does. Both
// copies share the try's deadline. A hedge is asked of the retry budget
// when it is due and charged as the model charges one
// (model.SharedBudgets.Hedge); one the budget refuses is not sent. grpc-go has no hedging of
// its own: it ignores a service config's hedgingPolicy.
type hedging struct {
	exec failsafe.Executor[any]
	k    *counters
}

// hedgeNote is the report's note on how the lab hedges.
const hedgeNote = "Hedges are failsafe-go's hedge policy around each try, not gRPC's hedgingPolicy: grpc-go accepts a service config's hedgingPolicy and ignores it. As the model's hedge kind, one copy goes after the fixed delay, the first success answers the try and the loser's call is cancelled (gRPC cancels it; the dependency withdraws it while it waits), a copy that fails leaves its twin to carry the try, and a hedge is charged to the retry budget as the model charges it (the model's own budget, asked when the hedge is due). gRPC's hedgingPolicy, where a library implements it, differs: after a non-fatal status it sends the next copy at once, where the model fails the try (before its hedge) or waits for the twin; its hedges pass only while retryThrottling has more than half its tokens; and it has no cap on the share of hedged tries (the lab hedges only with max_share = 1, where the model's cap never refuses)"

// hedgeTry is one hedged try's memory: whether its hedge was sent, and
// the successes its copies were answered with.
type hedgeTry struct {
	hedged atomic.Bool
	ok     atomic.Int32
}

type hedgeKey struct{}

// alone is the failure of a try's only copy before its hedge was sent: it
// decides the try.
type alone struct{ err error }

func (a *alone) Error() string { return a.err.Error() }
func (a *alone) Unwrap() error { return a.err }

// newHedging is the hedging of a layer with plan h, or nil for none.
func newHedging(h model.HedgePlan, c *clock, k *counters) *hedging {
	if h.Delay <= 0 {
		return nil
	}
	p := hedgepolicy.NewBuilderWithDelay[any](c.wallTicks(float64(h.Delay))).
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
	return &hedging{exec: failsafe.With[any](p), k: k}
}

// errHedgeRefused is a hedge the retry budget did not let go: the try's
// first copy carries on alone.
var errHedgeRefused = errors.New("hedge refused by the retry budget")

// try sends one try through send, hedged; send is given each copy's
// context, which the winner's answer cancels for the loser. The budgets
// are asked for the hedge, and told when it ends, as for a retry.
func (h *hedging) try(ctx context.Context, send func(context.Context) error, budgets *budgetGate, layer, client int) error {
	t := &hedgeTry{}
	ctx = context.WithValue(ctx, hedgeKey{}, t)
	return h.exec.WithContext(ctx).RunWithExecution(func(ex failsafe.Execution[any]) error {
		if ex.IsHedge() {
			if budgets.on() {
				if !budgets.hedge(layer, client) {
					return errHedgeRefused
				}
				defer budgets.end(layer, client, true)
			}
			h.k.add(cHedges, 1)
		}
		err := send(ex.Context())
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
}
