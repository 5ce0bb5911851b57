package serve

import (
	"context"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/model"
)

// maxPending is the events kept for a page that is not attached.
const maxPending = 64

// run is one live run, owned by one browser tab: its timeline, its engine
// standing at the last row streamed, the rows streamed, and how fast they
// go. One stream at a time feeds its page; the handlers change it under
// mu and wake the stream.
type run struct {
	id  string
	srv *Server

	engMu sync.Mutex // taken before mu; held while the engine advances
	eng   engine

	mu       sync.Mutex
	tl       *live
	sent     []model.SeriesRow // the rows streamed: the run so far
	svc      serviceSeries     // in a graph's run, each service's rows streamed
	now      *inForce          // the scenario in force now; nil: read it again from the file
	policy   string            // the experiment's policy the run follows now; "" after a change by hand
	speed    speed
	paused   bool
	pauseAt  int    // pause when this many rows are streamed (0: not set)
	ended    string // why the run cannot go on; "" while it can
	pending  []event
	attached int       // streams feeding a page
	seen     time.Time // when a stream last detached, or the run was made
	detach   context.CancelFunc
	around   context.CancelFunc // the phase diagram under way
	aroundID int                // counts the diagrams started
	lab      context.CancelFunc // the lab run under way
	labID    int                // counts the lab runs started
	labNow   *labProgress       // the last lab run, as far as it came
	closed   bool
	wake     chan struct{}
}

// newRun makes a run of the setup, not yet streamed.
func newRun(srv *Server, id string, tl *live) *run {
	return &run{id: id, srv: srv, tl: tl, svc: newServiceSeries(tl.graph), policy: tl.setup.Policy, speed: realTime, seen: time.Now(), wake: make(chan struct{}, 1)}
}

// capRows is the rows a run may reach.
func (r *run) capRows() int { return r.srv.capRows(r.tl) }

// poke wakes the stream.
func (r *run) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// pushLocked queues an event for the page; a page away for long gets the
// whole state when it comes back, so old events are dropped.
func (r *run) pushLocked(e event) {
	if len(r.pending) >= maxPending {
		r.pending = slices.Delete(r.pending, 0, len(r.pending)-maxPending+1)
	}
	r.pending = append(r.pending, e)
	r.poke()
}

// endLocked ends the run: it streams no more rows until a reset.
func (r *run) endLocked(why string) {
	if r.ended == "" {
		r.ended = why
		r.pushLocked(event{"end", why})
	}
}

// intervene adds an intervention at the moment the page has reached,
// after checking the run's file with it, as the loader checks any file.
// The fault is unforeseen (model/unforeseen.go): the run takes it up at
// its start, as the live engine does, and so does the exported file.
func (r *run) intervene(st intervention, policy string) error {
	r.engMu.Lock()
	defer r.engMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended != "" {
		return badInput("the run has ended (%s); reset to start again", r.ended)
	}
	if len(r.tl.steps) >= maxInterventions {
		return badInput("a run takes at most %d faults and changes; export it, or reset to start again", maxInterventions)
	}
	st.Row = len(r.sent)
	if st.Fault != nil {
		if err := r.checkFaultLocked(st.Fault); err != nil {
			return err
		}
		f := *st.Fault
		f.Start = r.tl.at(st.Row)
		f.Unforeseen = true
		st.Fault = &f
	}
	steps := append(slices.Clone(r.tl.steps), st)
	e, err := r.srv.planOf(r.tl, steps)
	if err != nil {
		return r.spikeCap(steps, err)
	}
	p := e.Grid.Cells()[0].Plan
	r.tl.steps = steps
	r.now = nowFrom(r.tl, e)
	if st.Fault == nil {
		r.policy = policy
	}
	r.replanLocked(p)
	r.pushLocked(event{"state", r.stateLocked(false)})
	return nil
}

// inForce is the scenario in force after the run's interventions, and its
// healthy queue limit (0 when the queue rule does not judge it): kept from
// one intervention to the next, as reading the run's file costs a little
// more with each.
type inForce struct {
	sc    model.Scenario
	limit float64
}

// nowFrom is what is in force in the run's file e.
func nowFrom(tl *live, e *experiments.Experiment) *inForce {
	in := &inForce{sc: tl.now(e)}
	if p := e.Grid.Cells()[0].Plan; p.Health.Rule == model.HealthQueue {
		in.limit = p.Health.Limit
	}
	return in
}

// nowLocked is what is in force now.
func (r *run) nowLocked() (*inForce, error) {
	if r.now == nil {
		e, err := r.tl.parse(len(r.sent)+1, r.tl.steps)
		if err != nil {
			return nil, err
		}
		r.now = nowFrom(r.tl, e)
	}
	return r.now, nil
}

// current is the run's file over the rows streamed and one more, and the
// scenario in force now.
func (r *run) currentLocked() (*experiments.Experiment, model.Scenario, error) {
	e, err := r.tl.parse(len(r.sent)+1, r.tl.steps)
	if err != nil {
		return nil, model.Scenario{}, err
	}
	return e, r.tl.now(e), nil
}

// control sets the speed, pauses or resumes, and sets the second to
// pause at (a breakpoint: 0 clears it).
func (r *run) control(s *speed, paused *bool, pauseAt *float64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if pauseAt != nil {
		at := int(math.Round(*pauseAt / r.tl.step))
		switch {
		case *pauseAt == 0:
			at = 0
		case !(*pauseAt > 0) || at <= len(r.sent) || at > r.capRows():
			return badInput("pause_at: the run is at %v and may last %v; give a second in between, got %v",
				r.tl.at(len(r.sent)), r.tl.at(r.capRows()), *pauseAt)
		}
		r.pauseAt = at
	}
	if s != nil {
		r.speed = *s
	}
	if paused != nil {
		r.paused = *paused
	}
	r.pushLocked(event{"state", r.stateLocked(false)})
	return nil
}

// reset starts the run again from its start, with a new setup.
func (r *run) reset(tl *live) {
	r.engMu.Lock()
	defer r.engMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopAroundLocked()
	r.stopLabLocked()
	r.labNow = nil
	r.dropEngineLocked()
	r.tl, r.sent, r.svc, r.ended, r.policy, r.pauseAt, r.now = tl, nil, newServiceSeries(tl.graph), "", tl.setup.Policy, 0, nil
	r.pushLocked(event{"state", r.stateLocked(true)})
}

// stopAroundLocked cancels the phase diagram under way, if any.
func (r *run) stopAroundLocked() {
	if r.around != nil {
		r.around()
		r.around = nil
	}
}

// close ends the run: its stream stops and its diagram is cancelled.
func (r *run) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	r.stopAroundLocked()
	r.stopLabLocked()
	if r.detach != nil {
		r.detach()
	}
}

// isClosed reports whether the run has ended for good.
func (r *run) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

// idle reports whether no page has been attached since before t.
func (r *run) idle(t time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.attached == 0 && r.seen.Before(t)
}

// snapshot is the run's timeline over the rows streamed, for an export:
// its rows and, in a graph's run, each service's.
func (r *run) snapshot() (*live, []intervention, *model.Series) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tl, slices.Clone(r.tl.steps), &model.Series{Step: r.tl.step, Rows: slices.Clone(r.sent), Services: r.svc.clone()}
}
