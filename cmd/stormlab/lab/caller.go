package lab

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/stormlab/stormlab/model"
)

// caller is one layer's client: it sends the layer's calls to the hop
// below with the layer's policies. Retries, their waits and the circuit
// breaker are failsafe-go's (retrypolicy, circuitbreaker), composed as the
// breaker's placement says: failsafe.With(retry, breaker) guards every try
// (inside_retry), failsafe.With(breaker, retry) every call (outside_retry).
// A per-try timeout is a gRPC deadline on each try's context, which gRPC
// sends to the server below. The budget is the model's own kind through
// the gate; with the grpc budget kind the layer uses gRPC's own retries and
// retry throttling instead (native).
type caller struct {
	layer int
	lp    model.LayerPlan // the layer as the run starts (gRPC's own retries)
	// phases are the layer's policies from each change of the run on (the
	// first from its start): a call follows those of the tick it starts in.
	phases []phase
	clock  *clock
	k      *counters
	seed   uint64
	// conn returns the connection a client's calls go through.
	conn func(client int) *grpc.ClientConn
	// native: gRPC's retryPolicy and retryThrottling do the retries.
	native bool

	mu       sync.Mutex
	state    map[stateKey]*clientState
	breakers map[stateKey]failsafe.Policy[any]
}

// phase is a layer's policies from a tick on: the layer's plan and the
// run's budgets then. breakerFrom is the first phase whose breaker this one
// keeps (a change that leaves the breaker alone leaves its state alone, as
// in the model).
type phase struct {
	from        int64
	lp          model.LayerPlan
	budgets     *budgetGate
	breakerFrom int
	hedging     *hedging // nil: the layer does not hedge
}

// stateKey names a client's state in a phase.
type stateKey struct{ phase, client int }

// clientState is what one client of a layer keeps in a phase: its policies
// (the breaker's state inside) and its waits.
type clientState struct {
	exec  failsafe.Executor[any]
	mu    sync.Mutex
	waits *model.Waits
}

// phaseAt is the index of the phase tick t is in.
func (c *caller) phaseAt(t int64) int {
	i := 0
	for i+1 < len(c.phases) && c.phases[i+1].from <= t {
		i++
	}
	return i
}

// refusedByBudget is a failed try whose retry the budget refused: it ends
// the call (retrypolicy.AbortIf).
type refusedByBudget struct{ err error }

func (r *refusedByBudget) Error() string { return "retry refused by the budget: " + r.err.Error() }
func (r *refusedByBudget) Unwrap() error { return r.err }

// callState is one call's memory across its tries, and due, the tick the
// model has the call's latest event in: its arrival, then each try's
// answer (or its timeout) and each retry's send. A try is sent with the
// due its retry was given, and the call's answer is due when its last
// event was.
type callState struct {
	prevWait     int32
	afterTimeout bool
	due          atomic.Int64 // set by each copy of a hedged try
}

// answered checks that a try's answer came in the tick it is due in, as
// its trailer says, and makes it the call's latest event.
func (cs *callState) answered(k *counters, trailer metadata.MD) {
	if at := dueOf(trailer); at >= 0 {
		k.crossed(at)
		cs.due.Store(at)
	}
}

type callKey struct{}

// client is the client whose state a call of phase ph uses: its own when
// the phase's budget is per client, else the one every client shares.
func (c *caller) client(ph int, n note) int {
	if c.phases[ph].budgets.b.PerClient() {
		return int(n.Client)
	}
	return 0
}

// stateOf is client cl's state in phase ph, made when first asked for.
func (c *caller) stateOf(ph, cl int) *clientState {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := stateKey{ph, cl}
	if s, ok := c.state[key]; ok {
		return s
	}
	lp := c.phases[ph].lp
	s := &clientState{waits: model.NewWaits(lp, model.SplitMix(c.seed^uint64(c.layer)<<32^uint64(ph)<<48^uint64(cl)))}
	bk := stateKey{c.phases[ph].breakerFrom, cl}
	breaker, ok := c.breakers[bk]
	if !ok {
		breaker = c.breaker(lp.Breaker)
		c.breakers[bk] = breaker
	}
	s.exec = c.executor(lp, s, breaker)
	c.state[key] = s
	return s
}

// breaker is a new failsafe-go circuit breaker for plan b; nil for none.
func (c *caller) breaker(b model.BreakerPlan) failsafe.Policy[any] {
	if b.Kind == model.BreakerNone {
		return nil
	}
	bb := circuitbreaker.NewBuilder[any]().WithDelay(c.clock.wallTicks(float64(b.OpenTicks))).
		WithSuccessThreshold(uint(max(1, b.Probes)))
	if b.Kind == model.BreakerConsecutive {
		bb = bb.WithFailureThreshold(uint(b.Threshold))
	} else {
		bb = bb.WithFailureRateThreshold(b.Ratio, uint(max(1, b.MinCalls)), c.clock.wallTicks(float64(10*b.SliceTicks)))
	}
	return bb.Build()
}

// executor composes a layer's failsafe-go policies for one client: the
// retry policy, and the breaker inside or outside it.
func (c *caller) executor(lp model.LayerPlan, s *clientState, breaker failsafe.Policy[any]) failsafe.Executor[any] {
	var policies []failsafe.Policy[any]
	perCall := lp.Breaker.PerCall
	if breaker != nil && perCall {
		policies = append(policies, breaker)
	}
	if lp.Attempts > 1 && !c.native {
		rp := retrypolicy.NewBuilder[any]().
			WithMaxAttempts(int(lp.Attempts)).
			ReturnLastFailure().
			AbortIf(func(_ any, err error) bool {
				var r *refusedByBudget
				var f *final
				return errors.As(err, &r) || errors.As(err, &f) || errors.Is(err, circuitbreaker.ErrOpen)
			}).
			WithDelayFunc(func(ex failsafe.ExecutionAttempt[any]) time.Duration {
				cs, _ := ex.Context().Value(callKey{}).(*callState)
				s.mu.Lock()
				w := s.waits.Next(int32(ex.Attempts()), cs.prevWait)
				s.mu.Unlock()
				cs.prevWait = int32(w)
				// due in tick f + 1 + wait, f the tick the failure is seen in
				// (the model's: the tick it was due to be seen in)
				cs.due.Add(1 + w)
				return time.Until(c.clock.at(c.clock.tick() + 1 + w))
			}).Build()
		policies = append(policies, rp)
	}
	if breaker != nil && !perCall {
		policies = append(policies, breaker)
	}
	if len(policies) == 0 {
		return nil
	}
	return failsafe.With(policies...)
}

// call sends one call of the layer down, with its policies, and answers
// its outcome and the tick the model has it answered in.
func (c *caller) call(ctx context.Context, n note) (int64, error) {
	ph := c.phaseAt(c.clock.tick())
	cl := c.client(ph, n)
	s := c.stateOf(ph, cl)
	lp, budgets := c.phases[ph].lp, c.phases[ph].budgets
	cs := &callState{}
	cs.due.Store(n.Due)
	ctx = context.WithValue(ctx, callKey{}, cs)
	try := func(ex failsafe.Execution[any]) error {
		attempt := 1
		tctx := ctx
		if ex != nil {
			attempt, tctx = ex.Attempts(), ex.Context()
		}
		retry := attempt > 1
		if budgets.on() && !budgets.send(c.layer, cl, retry) {
			return &refusedByBudget{err: unavailable("budget")}
		}
		if lp.Timeout >= 0 {
			var cancel context.CancelFunc
			tctx, cancel = context.WithTimeout(tctx, c.clock.wallTicks(float64(lp.Timeout)))
			defer cancel()
		}
		due := cs.due.Load()
		send := func(ctx context.Context, due int64) error {
			c.k.inFlight.Add(1)
			defer c.k.inFlight.Add(-1)
			nt := n
			nt.Due = due
			body := nt.frame()
			var out frame
			var trailer metadata.MD
			err := grpc.Invoke(ctx, hopMethod, &body, &out, c.conn(cl), grpc.Trailer(&trailer))
			cs.answered(c.k, trailer)
			return finalOf(err, trailer)
		}
		var err error
		if h := c.phases[ph].hedging; h != nil {
			err = h.try(tctx, due, send, budgets, c.layer, cl)
		} else {
			err = send(tctx, due)
		}
		timedOut := err != nil && errors.Is(tctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		if timedOut {
			c.k.add(cTimeouts, 1)
			cs.due.Store(due + lp.Timeout)
		}
		afterTimeout := cs.afterTimeout
		cs.afterTimeout = timedOut
		var f *final
		if errors.As(err, &f) {
			// an answer not to retry: refused if attempts were left, and
			// not told to the budget as a failure, as in the model
			c.countFinal(f, attempt < int(lp.Attempts))
			if budgets.on() {
				budgets.end(c.layer, cl, retry)
			}
			return err
		}
		if !budgets.on() {
			return err
		}
		defer budgets.end(c.layer, cl, retry)
		if err == nil {
			budgets.succeed(c.layer, cl, retry, retry && afterTimeout)
			return nil
		}
		last := attempt >= int(lp.Attempts)
		if !budgets.fail(c.layer, cl, timedOut, last) && !last {
			return &refusedByBudget{err: err}
		}
		return err
	}
	if c.native {
		try = func(ex failsafe.Execution[any]) error {
			if ex != nil {
				return c.callNative(ex.Context(), cl, n, cs)
			}
			return c.callNative(ctx, cl, n, cs)
		}
	}
	var err error
	if s.exec == nil {
		err = try(nil)
	} else {
		err = s.exec.WithContext(ctx).RunWithExecution(try)
	}
	c.countRefusal(err)
	return cs.due.Load(), err
}

// countFinal counts an answer not to retry that ended a call with attempts
// left: a retry the answer refused.
func (c *caller) countFinal(f *final, attemptsLeft bool) {
	switch {
	case !attemptsLeft:
	case f.pushback:
		c.k.add(cRefusedPushback, 1)
	default:
		c.k.add(cNotRetryable, 1)
	}
}

// countRefusal counts the refusal that ended a call, if one did.
func (c *caller) countRefusal(err error) {
	var r *refusedByBudget
	switch {
	case errors.As(err, &r):
		c.k.add(cRefusedBudget, 1)
	case errors.Is(err, circuitbreaker.ErrOpen):
		c.k.add(cRefusedBreaker, 1)
	}
}
