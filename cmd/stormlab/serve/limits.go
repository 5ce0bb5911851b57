package serve

import (
	"fmt"

	"github.com/stormlab/stormlab/model"
)

// capRows is the rows a run of the timeline may reach.
func (s *Server) capRows(tl *live) int { return max(1, int(s.opt.MaxLength.Seconds()/tl.step)) }

// fits refuses a run's plan (over the longest a run may last) whose state
// could outgrow the memory a live run may hold, or that could make more
// calls than a live run may, by the engine's estimates from above, before
// a core is spent finding out.
func (s *Server) fits(p *model.Plan) error {
	worst := p.Cost(true).State
	for _, c := range p.Changes {
		worst = max(worst, c.Plan.Cost(true).State)
	}
	if worst > s.opt.MaxMemory {
		return badInput("too large to run live: its state could reach %s (an estimate from above), over the %s a live run may hold; export the run and use stormlab run, which may use more",
			model.Bytes(worst), model.Bytes(s.opt.MaxMemory))
	}
	if c := p.Cost(false).Calls; c > s.opt.MaxCalls {
		return &inputError{says: fmt.Sprintf("too much to simulate live: the run could make up to %.3g calls in %v (every request at its peak rate making every attempt the chain allows), over the %.3g a live run may make; export the run and use stormlab run",
			c, model.Duration(p.Ticks*p.TickNs), s.opt.MaxCalls), tooMany: true}
	}
	return nil
}
