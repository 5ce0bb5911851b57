package lab

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/stormlab/stormlab/model"
)

// dependency is the bottom of the chain as a real gRPC service: it serves
// calls at the scenario's capacity per second (its fault segments applied,
// degradations and outages included, and its collapse law above capacity),
// tick by tick of the scenario's time, from a waiting room served oldest or
// newest first with its limit, or as a loss server that fails at once what
// the tick's capacity does not cover. A waiting call whose caller has gone
// (gRPC cancelled its context: the caller's per-try deadline passed, or it
// cancelled) is skipped when the scenario drops expired work, and served as
// wasted work otherwise; a call its caller cancelled (a hedge that lost,
// or work abandoned where the scenario cancels it) is always withdrawn.
// Flaky requests fail their first tries at once, and a served call fails
// with the scenario's failure probability; an error answer is one not to
// retry (INVALID_ARGUMENT) with the scenario's fatal share, UNAVAILABLE
// otherwise. Above the scenario's pushback, a call that arrives is answered
// at once with gRPC's pushback (final). A served call is answered after
// the scenario's service latency (times a slowdown's factor), in the
// model's whole ticks (model.Plan.ServiceTicks).
type dependency struct {
	p     *model.Plan
	clock *clock
	k     *counters

	mu      sync.Mutex
	waiting []*waiter // the waiting room, oldest first
	head    int       // waiting[head:] are waiting (fifo)
	live    int64     // waiting calls not withdrawn
	credit  float64   // calls of capacity carried (model credit rule)
	lastCap float64   // the capacity of the last tick served, in calls
	served  int64     // last tick served (the waiting room, or a loss server's credit)
	seg     int       // fault segment of the last tick served
	tries   map[uint64]int32
	r       *rand.Rand
}

// waiter is a call waiting for the dependency's capacity.
type waiter struct {
	ctx  context.Context
	done chan reply
	gone bool // its caller has gone and it was withdrawn
}

// reply is a served call's answer, the tick it is due in (the tick it was
// served in plus the service latency), and the tick its caller is due to
// see it in: the same, but for a waiting room's answer served with no
// latency, which the room gives just after the tick it was served in.
type reply struct {
	err error
	at  int64
	due int64
}

func newDependency(p *model.Plan, c *clock, k *counters, seed uint64) *dependency {
	return &dependency{p: p, clock: c, k: k, served: -1, tries: map[uint64]int32{}, r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// unavailable is the error every failure of the dependency answers: gRPC's
// UNAVAILABLE, the status retry policies retry.
func unavailable(why string) error { return status.Error(codes.Unavailable, why) }

func (d *dependency) call(ctx context.Context, n note) (int64, error) {
	d.k.crossed(n.Due)
	t := d.clock.tick()
	d.k.addAt(cCalls, t, 1)
	d.mu.Lock()
	if n.Flaky && d.p.FlakyTries > 0 {
		d.tries[n.Request]++
		if d.tries[n.Request] <= d.p.FlakyTries {
			err := d.failure("flaky")
			d.mu.Unlock()
			d.endOfTick(ctx, t)
			return t, err
		}
	}
	if !d.p.Server.Queues() {
		d.advance(t)
		ok := d.credit >= 1-1e-9
		if ok {
			d.credit--
		}
		var err error
		switch {
		case !ok:
			err = d.failure("over capacity")
		case d.failAnyway():
			err = d.failure("failed")
		}
		at := t + d.p.ServiceTicks(d.seg)
		d.mu.Unlock()
		if !ok {
			d.endOfTick(ctx, t)
			return t, err
		}
		d.k.addAt(cServed, t, 1)
		return d.answer(ctx, reply{err, at, at})
	}
	if d.p.Pushback > 0 && d.live > d.p.Pushback {
		d.mu.Unlock()
		d.endOfTick(ctx, t)
		return t, pushback(ctx, "overloaded: do not retry")
	}
	if d.p.QueueLimit > 0 && d.live >= d.p.QueueLimit {
		err := d.failure("queue full")
		d.mu.Unlock()
		return t, err
	}
	w := &waiter{ctx: ctx, done: make(chan reply, 1)}
	d.waiting = append(d.waiting, w)
	d.live++
	d.mu.Unlock()
	select {
	case r := <-w.done:
		return d.answer(ctx, r)
	case <-ctx.Done():
		if d.p.DropExpired || d.p.Cancel || ctx.Err() == context.Canceled {
			d.mu.Lock()
			if !w.gone {
				select {
				case <-w.done: // served meanwhile
				default:
					w.gone = true
					d.live--
				}
			}
			d.mu.Unlock()
		}
		return -1, status.FromContextError(ctx.Err()).Err()
	}
}

// endOfTick waits until just before tick t ends: a call the dependency
// answers at once is answered at the end of its tick, as every call the
// model's dependency answers in a tick is answered after all of the tick's
// calls have been sent. On a real stack, an answer given at once could
// reach its caller, and change a budget, before another caller of the same
// tick has sent its call.
func (d *dependency) endOfTick(ctx context.Context, t int64) {
	wait := time.Until(d.clock.at(t+1)) - d.clock.wallTicks(0.1)
	if wait <= 0 {
		return
	}
	tm := time.NewTimer(wait)
	defer tm.Stop()
	select {
	case <-tm.C:
	case <-ctx.Done():
	}
}

// answer gives a served call's answer at the end of the tick it is due in
// (at once when that has passed). A success whose caller has gone by then
// is wasted work, counted in that tick, as the model counts an answer
// nobody waits for.
func (d *dependency) answer(ctx context.Context, r reply) (int64, error) {
	gone := ctx.Err() != nil // gone before it was served: counted then
	d.endOfTick(ctx, r.at)
	if ctx.Err() != nil {
		if r.err == nil && !gone {
			d.k.addAt(cWasted, r.at, 1)
		}
		return -1, status.FromContextError(ctx.Err()).Err()
	}
	return r.due, r.err
}

// failure is an error answer of the dependency: one not to retry with the
// scenario's fatal share, drawn (under the lock), UNAVAILABLE otherwise.
func (d *dependency) failure(why string) error {
	if d.p.FatalShare > 0 && d.r.Float64() < d.p.FatalShare {
		return fatal(why)
	}
	return unavailable(why)
}

// failAnyway draws whether a served call fails anyway.
func (d *dependency) failAnyway() bool {
	return d.p.FailureP > 0 && d.r.Float64() < d.p.FailureP
}

// capacity is the calls tick t may serve: its segment's rate, kept as the
// collapse law says, for one tick.
func (d *dependency) capacity(t int64) float64 {
	d.seg = d.p.SegmentAt(d.seg, t)
	rate := d.p.Faults[d.seg].CapRate
	if c := d.p.Collapse; c.On() && rate > 0 {
		var demand float64
		if c.Offered {
			demand = float64(d.k.sum(cCalls, t-c.WindowTicks, t))
		} else {
			demand = float64(d.live)
		}
		rate *= c.Keep(demand / (rate * c.WindowS))
	}
	return rate * d.p.TickS
}

// advance serves every tick up to t by the model's credit rule: a tick
// ends with whole calls of credit it left unused lost (a server of less
// than one call a tick stays ready for one instead), and the next adds its
// capacity to the credit (a server of less than one call a tick that is
// ready gains nothing); whole calls of it are served.
func (d *dependency) advance(t int64) {
	for x := d.served + 1; x <= t; x++ {
		if x > 0 { // the end of tick x − 1
			if d.credit >= 1-1e-9 {
				if d.lastCap < 1 {
					d.credit = 1
				} else {
					d.credit -= math.Floor(d.credit + 1e-9)
				}
			}
			d.credit = max(0, d.credit)
		}
		c := d.capacity(x)
		switch {
		case c <= 0:
			d.credit = 0
		case c < 1 && d.credit >= 1-1e-9:
			d.credit = 1
		default:
			d.credit += c
		}
		d.lastCap = c
		if d.p.Server.Queues() {
			d.serve(x)
			d.k.sampleQueue(x, d.live)
		}
	}
	d.served = max(d.served, t)
}

// serve completes waiting calls while the credit has whole calls.
func (d *dependency) serve(t int64) {
	for d.credit >= 1-1e-9 && d.live > 0 {
		var w *waiter
		if d.p.Server == model.ServerLIFO {
			w = d.waiting[len(d.waiting)-1]
			d.waiting = d.waiting[:len(d.waiting)-1]
		} else {
			w = d.waiting[d.head]
			d.waiting[d.head] = nil
			d.head++
		}
		if w.gone {
			continue
		}
		d.live--
		d.credit--
		d.k.addAt(cServed, t, 1)
		if w.ctx.Err() != nil {
			d.k.addAt(cWasted, t, 1)
		}
		var err error
		if d.failAnyway() {
			err = d.failure("failed")
		}
		at := t + d.p.ServiceTicks(d.seg)
		w.done <- reply{err, at, max(at, t+1)}
	}
	if d.head > 1024 && d.head*2 > len(d.waiting) {
		d.waiting = append(d.waiting[:0], d.waiting[d.head:]...)
		d.head = 0
	}
	if d.p.Server == model.ServerLIFO {
		for len(d.waiting) > 0 && d.waiting[len(d.waiting)-1].gone {
			d.waiting = d.waiting[:len(d.waiting)-1]
		}
	}
}

// work serves the waiting room as the scenario's time passes, until ctx
// ends: every real period, every tick that has ended.
func (d *dependency) work(ctx context.Context) {
	if !d.p.Server.Queues() {
		return
	}
	period := max(d.clock.wallTicks(1), time.Millisecond)
	tk := time.NewTicker(period)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
			d.mu.Lock()
			d.advance(min(d.clock.tick()-1, d.clock.ticks-1))
			d.mu.Unlock()
		}
	}
}

// finish serves the run's last ticks, which work may not have reached
// when the run's time ended (the model serves a call in its last tick
// too), and records their waiting room; endRun calls it before the callers
// are stopped.
func (d *dependency) finish() {
	if !d.p.Server.Queues() {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.advance(d.clock.ticks - 1)
}
