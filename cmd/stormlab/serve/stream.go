package serve

import (
	"context"
	"fmt"
	"time"
)

// keepAlive is how often a stream with nothing to send tells the page it
// is there.
const keepAlive = 15 * time.Second

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
