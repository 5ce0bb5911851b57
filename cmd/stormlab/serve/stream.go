package serve

import (
	"context"
	"fmt"
	"time"
)

// keepAlive is how often a stream with nothing to send tells the page it
// is there.
const keepAlive = 15 * time.Second

// sink is where a stream's events go: a Server-Sent Events response, or
// a WebSocket (the page's).
type sink interface {
	send(e event) error
	ping() error
}

// stream feeds the page: first the whole state, then rows at the run's
// speed, advancing the run's engine as they fall due, and every event the
// handlers queue. It returns when the page goes, another stream takes
// over, or the run is closed.
func (r *run) stream(ctx context.Context, out sink) error {
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
		due := 0                               // rows to run and send now
		wait, timed := time.Duration(0), false // timed: the next row is due after wait; else until woken
		switch {
		case r.ended != "" || r.paused:
			next = time.Time{}
		case len(r.sent) >= r.capRows():
			r.endLocked(fmt.Sprintf("the run reached the %v a live run may last; export it, or reset to start again", r.tl.at(r.capRows())))
			evs = append(evs, r.pending...)
			r.pending = nil
		default:
			now, every := time.Now(), r.speed.interval(r.tl.step, r.srv.frame)
			if next.IsZero() || now.Sub(next) > every {
				next = now // after a pause or a slow page, no catching up
			}
			if !now.Before(next) {
				due = 1
				if r.speed == fastest {
					due = r.srv.batch
				}
				due = min(due, r.capRows()-len(r.sent))
				if r.pauseAt > len(r.sent) {
					due = min(due, r.pauseAt-len(r.sent))
				}
				next = next.Add(every)
			}
			wait, timed = time.Until(next), true
		}
		r.mu.Unlock()
		for _, e := range evs {
			if err := out.send(e); err != nil {
				return err
			}
		}
		if due > 0 {
			batch, evs := r.step(ctx, due)
			if ctx.Err() != nil {
				return nil
			}
			if batch != nil {
				if err := out.send(event{"rows", batch}); err != nil {
					return err
				}
			}
			for _, e := range evs {
				if err := out.send(e); err != nil {
					return err
				}
			}
		}
		if timed && time.Until(next) <= 0 {
			continue // due already: at full speed, or behind
		}
		if timed {
			wait = time.Until(next)
		} else {
			wait = keepAlive
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case <-r.wake:
		case <-timer.C:
			if !timed {
				// Paused or ended: a page gone without closing its
				// connection shows up as a failed write, and the run
				// can end when idle.
				if err := out.ping(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// step runs the next n rows and streams them: the rows for the page, and
// the events they bring (a pause reached, the run ended by its engine).
func (r *run) step(ctx context.Context, n int) ([]row, []event) {
	r.engMu.Lock()
	defer r.engMu.Unlock()
	rows, svc, err := r.advance(ctx, n)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.endLocked(err.Error())
	}
	var batch []row
	if len(rows) > 0 {
		from := len(r.sent)
		r.sent = append(r.sent, rows...)
		r.svc.add(svc)
		batch = rowsOf(r.sent, r.svc, from, r.tl.step, r.tl.faultRows())
		if len(r.sent) == r.pauseAt {
			r.paused, r.pauseAt = true, 0
			r.pending = append(r.pending, event{"state", r.stateLocked(false)})
		}
	}
	evs := r.pending
	r.pending = nil
	return batch, evs
}
