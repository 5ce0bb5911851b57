package serve

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/model"
)

// speed is how fast a run's rows reach its page.
type speed string

const (
	realTime speed = "1"   // a second of the run a second
	tenTimes speed = "10"  // ten seconds of the run a second
	fastest  speed = "max" // as fast as the page takes them
)

// At full speed rows go out in batches of maxBatch, one batch a frame.
const (
	maxBatch   = 20
	frame      = 16 * time.Millisecond
	aheadSpan  = 60.0 // seconds simulated ahead of the page, at least
	maxPending = 64   // events kept for a page that is not attached
)

// interval is the wall time between two rows at speed s, or between two
// batches of rows at full speed, one a frame.
func (s speed) interval(step float64, frame time.Duration) time.Duration {
	switch s {
	case tenTimes:
		return time.Duration(step * float64(time.Second) / 10)
	case fastest:
		return frame
	}
	return time.Duration(step * float64(time.Second))
}

// run is one live run, owned by one browser tab: its timeline, the rows
// simulated ahead of the page and those already streamed, and how fast
// they go. One stream at a time feeds its page; the handlers change it
// under mu and wake the stream.
type run struct {
	id  string
	srv *Server

	mu       sync.Mutex
	tl       *live
	version  int               // bumps with every intervention and reset
	sent     []model.SeriesRow // the rows streamed: the run so far
	ahead    []model.SeriesRow // rows simulated beyond sent, for version aheadFor
	aheadFor int
	policy   string // the experiment's policy the run follows now; "" after a change by hand
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
	closed   bool
	wake     chan struct{}
}

// newRun makes a run of the setup, not yet streamed.
func newRun(srv *Server, id string, tl *live) *run {
	return &run{id: id, srv: srv, tl: tl, policy: tl.setup.Policy, speed: realTime, seen: time.Now(), wake: make(chan struct{}, 1)}
}

// capRows is the rows a run may reach.
func (r *run) capRows() int { return r.srv.capRows(r.tl) }

// capRows is the rows a run of the timeline may reach.
func (s *Server) capRows(tl *live) int { return max(1, int(s.opt.MaxLength.Seconds()/tl.step)) }

// fits refuses a timeline whose run could outgrow the memory a live run
// may hold, by the engine's estimate from above of its state over the
// longest a run may last, before a core is spent finding out.
func (s *Server) fits(tl *live, steps []intervention) error {
	e, err := tl.parse(s.capRows(tl), steps)
	if err != nil {
		return err
	}
	p := e.Grid.Cells()[0].Plan
	worst := p.Cost(true).State
	for _, c := range p.Changes {
		worst = max(worst, c.Plan.Cost(true).State)
	}
	if worst > s.opt.MaxMemory {
		return badInput("too large to run live: its state could reach %s (an estimate from above), over the %s a live run may hold; export the run and use stormlab run, which may use more",
			model.Bytes(worst), model.Bytes(s.opt.MaxMemory))
	}
	return nil
}

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

// simJob is a stretch of the run to simulate: the timeline as it was at
// version, over rows rows.
type simJob struct {
	tl      *live
	steps   []intervention
	rows    int
	version int
}

// jobLocked is the next stretch to simulate: well ahead of the page, and
// further the longer the run (so a long run is simulated again only a few
// times), up to the cap. nil at the cap.
func (r *run) jobLocked() *simJob {
	have := len(r.sent)
	rows := min(r.capRows(), max(have+int(aheadSpan/r.tl.step), 2*have))
	if rows <= have {
		return nil
	}
	return &simJob{tl: r.tl, steps: slices.Clone(r.tl.steps), rows: rows, version: r.version}
}

// simulate runs a job within the server's caps on time and memory.
func (r *run) simulate(ctx context.Context, j *simJob) ([]model.SeriesRow, error) {
	ctx, cancel := context.WithTimeout(ctx, r.srv.opt.SimTimeout)
	defer cancel()
	rows, err := j.tl.simulate(ctx, j.rows, j.steps, r.srv.opt.MaxMemory)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("simulating %v of this run took over %v, too long to stream it live; export it and run it with stormlab run", j.tl.at(j.rows), r.srv.opt.SimTimeout)
	}
	return rows, err
}

// install keeps the rows of a job, unless the timeline changed meanwhile.
// The rows already streamed must come out of it as they were: the engine
// is deterministic and nothing after a moment changes the run before it.
func (r *run) install(j *simJob, rows []model.SeriesRow, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if j.version != r.version || j.tl != r.tl {
		return // a change came meanwhile: simulate again
	}
	if err != nil {
		r.endLocked(err.Error())
		return
	}
	have := len(r.sent)
	if len(rows) < have || !slices.Equal(rows[:have], r.sent) {
		r.pushLocked(event{"problem", "the run simulated again differs before the last change; the export may not match what was shown"})
		have = min(have, len(rows))
	}
	r.ahead, r.aheadFor = rows[have:], j.version
}

// endLocked ends the run: it streams no more rows until a reset.
func (r *run) endLocked(why string) {
	if r.ended == "" {
		r.ended = why
		r.pushLocked(event{"end", why})
	}
}

// stream feeds the page: first the whole state, then rows at the run's
// speed, simulating ahead when the rows run out, and every event the
// handlers queue. It returns when the page goes, another stream takes
// over, or the run is closed.
func (r *run) stream(ctx context.Context, out *sse) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return &goneError{"this run has ended"}
	}
	if r.detach != nil {
		r.detach() // a page has one stream: the newest
	}
	r.detach = cancel
	r.attached++
	first := r.stateLocked(true)
	r.pending = nil
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.attached--
		r.seen = time.Now()
		r.mu.Unlock()
	}()
	if err := out.send(event{"state", first}); err != nil {
		return err
	}
	var next time.Time // when the next row is due
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for ctx.Err() == nil {
		r.mu.Lock()
		evs := r.pending
		r.pending = nil
		var job *simJob
		var batch []row
		wait, timed := time.Duration(0), false // timed: the next row is due after wait; else until woken
		switch {
		case r.ended != "" || r.paused:
			next = time.Time{}
		case len(r.ahead) == 0 || r.aheadFor != r.version:
			if job = r.jobLocked(); job == nil {
				r.endLocked(fmt.Sprintf("the run reached the %v a live run may last; export it, or reset to start again", r.tl.at(r.capRows())))
				evs = append(evs, r.pending...)
				r.pending = nil
			}
		default:
			now, every := time.Now(), r.speed.interval(r.tl.step, r.srv.frame)
			if next.IsZero() || now.Sub(next) > every {
				next = now // after a pause or a slow page, no catching up
			}
			if !now.Before(next) {
				n := 1
				if r.speed == fastest {
					n = min(r.srv.batch, len(r.ahead))
				}
				if r.pauseAt > len(r.sent) {
					n = min(n, r.pauseAt-len(r.sent))
				}
				from := len(r.sent)
				r.sent = append(r.sent, r.ahead[:n]...)
				r.ahead = r.ahead[n:]
				batch = rowsOf(r.sent, from, r.tl.step, r.tl.faultRows())
				next = next.Add(every)
				if len(r.sent) == r.pauseAt {
					r.paused, r.pauseAt = true, 0
					evs = append(evs, event{"state", r.stateLocked(false)})
				}
			}
			wait, timed = time.Until(next), true
		}
		r.mu.Unlock()
		for _, e := range evs {
			if err := out.send(e); err != nil {
				return err
			}
		}
		if batch != nil {
			if err := out.send(event{"rows", batch}); err != nil {
				return err
			}
		}
		if job != nil {
			rows, err := r.simulate(ctx, job)
			if ctx.Err() != nil {
				return nil
			}
			r.install(job, rows, err)
			continue
		}
		if timed && wait <= 0 {
			continue // due already: at full speed, or behind
		}
		if !timed {
			wait = time.Hour
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case <-r.wake:
		case <-timer.C:
		}
	}
	return nil
}

// stateView is the run as the page shows it: its setup, its timeline, its
// controls as they are now and, for a page that just attached, every row
// streamed so far.
type stateView struct {
	ID         string         `json:"id"`
	Experiment string         `json:"experiment"`
	Title      string         `json:"title"`
	File       string         `json:"file"`
	Policy     string         `json:"policy"`      // the policy the run started with
	PolicyNow  string         `json:"policy_now"`  // the one it follows now; "" after a change by hand
	Policies   []string       `json:"policies"`    // the experiment's policies
	Seed       uint64         `json:"seed"`        // used as is
	Layers     int            `json:"layers"`      // depth of the chain
	Engine     string         `json:"engine"`      //
	Step       float64        `json:"step"`        // seconds per row
	Cap        float64        `json:"cap"`         // seconds a live run may last
	T          float64        `json:"t"`           // seconds streamed: where the run is
	Speed      speed          `json:"speed"`       //
	Paused     bool           `json:"paused"`      //
	PauseAt    float64        `json:"pause_at"`    // seconds it pauses at; 0 = none
	Ended      string         `json:"ended"`       // why it cannot go on
	Markers    []marker       `json:"markers"`     // its interventions
	Faults     [][2]float64   `json:"faults"`      // the windows of the faults added, seconds
	Now        map[string]any `json:"now"`         // the scenario's keys as they are now, by path
	Limit      float64        `json:"queue_limit"` // the healthy queue limit, when the queue rule judges health
	Rows       []row          `json:"rows,omitempty"`
	Full       bool           `json:"full"` // Rows holds every row streamed
}

// marker is one intervention on the charts.
type marker struct {
	T     float64 `json:"t"`
	Label string  `json:"label"`
	Kind  string  `json:"kind"` // fault or change
}

// stateLocked is the run's state; full includes every row streamed.
func (r *run) stateLocked(full bool) stateView {
	tl := r.tl
	v := stateView{ID: r.id, Experiment: tl.from.Exp.Name, Title: tl.from.Exp.Title, File: tl.from.File,
		Policy: tl.setup.Policy, PolicyNow: r.policy, Policies: policyNames(tl.from), Seed: tl.seed,
		Layers: len(tl.base.Layer), Engine: tl.base.Engine, Step: tl.step,
		Cap: tl.at(r.capRows()).Seconds(), T: tl.at(len(r.sent)).Seconds(), Speed: r.speed, Paused: r.paused, Ended: r.ended, PauseAt: tl.at(r.pauseAt).Seconds(),
		Faults: tl.faultRows(), Full: full}
	for _, st := range tl.steps {
		k := "change"
		if st.Fault != nil {
			k = "fault"
		}
		v.Markers = append(v.Markers, marker{T: tl.at(st.Row).Seconds(), Label: st.Label, Kind: k})
	}
	if e, err := tl.parse(len(r.sent)+1, tl.steps); err == nil {
		now := tl.now(e)
		v.Now = map[string]any{}
		for _, s := range valuesOf(now) {
			v.Now[s.Path] = s.Value
		}
		if p := e.Grid.Cells()[0].Plan; p.Health.Rule == model.HealthQueue {
			v.Limit = p.Health.Limit
		}
	}
	if full {
		v.Rows = rowsOf(r.sent, 0, tl.step, tl.faultRows())
	}
	return v
}

// intervene adds an intervention at the moment the page has reached,
// after checking the run's file with it, as the loader checks any file.
func (r *run) intervene(st intervention, policy string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended != "" {
		return badInput("the run has ended (%s); reset to start again", r.ended)
	}
	st.Row = len(r.sent)
	if st.Fault != nil {
		f := *st.Fault
		f.Start = r.tl.at(st.Row)
		st.Fault = &f
	}
	steps := append(slices.Clone(r.tl.steps), st)
	if _, err := r.tl.parse(st.Row+1, steps); err != nil {
		return err
	}
	if err := r.srv.fits(r.tl, steps); err != nil {
		return err
	}
	r.tl.steps = steps
	if st.Fault == nil {
		r.policy = policy
	}
	r.changedLocked()
	return nil
}

// changedLocked marks what was simulated ahead as stale and tells the page.
func (r *run) changedLocked() {
	r.version++
	r.ahead = nil
	r.pushLocked(event{"state", r.stateLocked(false)})
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
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopAroundLocked()
	r.tl, r.sent, r.ahead, r.ended, r.policy, r.pauseAt = tl, nil, nil, "", tl.setup.Policy, 0
	r.version++
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
	if r.detach != nil {
		r.detach()
	}
}

// idle reports whether no page has been attached since before t.
func (r *run) idle(t time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.attached == 0 && r.seen.Before(t)
}

// snapshot is the run's timeline over the rows streamed, for an export.
func (r *run) snapshot() (*live, []intervention, []model.SeriesRow) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tl, slices.Clone(r.tl.steps), slices.Clone(r.sent)
}
