package serve

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/stormlab/stormlab/model"
)

// aroundProgress is how far the phase diagram has come, for the page's
// progress bar; Result is set when it is done, Problem when it failed.
type aroundProgress struct {
	Stage   string        `json:"stage"` // waiting, cells, search, done, failed
	Done    int64         `json:"done"`
	Total   int64         `json:"total"`
	Result  *aroundResult `json:"result,omitempty"`
	Problem string        `json:"problem,omitempty"`
}

// startAround starts the phase diagram around the point the run has
// reached, replacing one under way. Diagrams take the worker pool one at a
// time, server-wide.
func (r *run) startAround() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, now, err := r.currentLocked()
	if err != nil {
		return err
	}
	p := e.Grid.Cells()[0].Plan
	load := p.LoadAt(int64(r.tl.at(len(r.sent))) / p.TickNs)
	// The fault: the last one injected, else the experiment's own.
	var fault *model.Fault
	blip := 0.0
	for _, st := range r.tl.steps {
		if st.Fault != nil {
			fault, blip = st.Fault, st.Fault.Length.Seconds()
		}
	}
	if own := r.tl.from.Exp.Grid.Base.Fault; fault == nil && len(own) > 0 {
		fault, blip = &own[0], own[0].Length.Seconds()
	}
	if g := r.tl.graph; fault == nil && g != nil {
		if _, one := g.serverCapacity(""); !one {
			return badInput("in a service graph of several servers the diagram sweeps a fault on one of them: fail the service you mean first, and the diagram sweeps that fault's length")
		}
	}
	a := newAroundSpec(now, r.tl.seed, load, fault, blip)
	r.stopAroundLocked()
	ctx, cancel := context.WithCancel(r.srv.ctx)
	r.around = cancel
	r.aroundID++
	total := int64(len(a.loads)*len(a.blips) + 1)
	r.pushLocked(event{"around", aroundProgress{Stage: "waiting", Total: total}})
	go r.runAround(ctx, cancel, r.aroundID, a, total)
	return nil
}

// aroundTimeout bounds the wall time of one phase diagram; the FIG. 1
// server's takes a few seconds.
const aroundTimeout = 2 * time.Minute

// runAround computes the diagram and sends its progress and its result to
// the page.
func (r *run) runAround(ctx context.Context, cancel context.CancelFunc, id int, a *aroundSpec, total int64) {
	defer cancel()
	send := func(p aroundProgress) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if ctx.Err() == nil {
			r.pushLocked(event{"around", p})
		}
	}
	select {
	case r.srv.diagrams <- struct{}{}:
		defer func() { <-r.srv.diagrams }()
	case <-ctx.Done():
		return
	}
	var done, last atomic.Int64
	send(aroundProgress{Stage: "cells", Total: total})
	cctx, stop := context.WithTimeout(ctx, aroundTimeout)
	defer stop()
	res, err := a.compute(cctx, r.srv.opt.Workers, r.srv.opt.MaxMemory, func() {
		n := done.Add(1)
		now := time.Now().UnixMilli()
		if l := last.Load(); now-l >= 100 && last.CompareAndSwap(l, now) {
			stage := "cells"
			if n >= total-1 {
				stage = "search"
			}
			send(aroundProgress{Stage: stage, Done: n, Total: total})
		}
	})
	switch {
	case ctx.Err() != nil:
		return
	case cctx.Err() != nil:
		send(aroundProgress{Stage: "failed", Done: done.Load(), Total: total,
			Problem: fmt.Sprintf("the phase diagram took over %v and was stopped; export the run and sweep it with stormlab run", aroundTimeout)})
	case err != nil:
		send(aroundProgress{Stage: "failed", Done: done.Load(), Total: total, Problem: err.Error()})
	default:
		send(aroundProgress{Stage: "done", Done: total, Total: total, Result: res})
	}
	r.mu.Lock()
	if r.aroundID == id {
		r.around = nil
	}
	r.mu.Unlock()
}
