package serve

import "github.com/stormlab/stormlab/model"

// capRows is the rows a run of the timeline may reach.
func (s *Server) capRows(tl *live) int { return max(1, int(s.opt.MaxLength.Seconds()/tl.step)) }

// fits refuses a run's plan (over the longest a run may last) whose state
// could outgrow the memory a live run may hold, by the engine's estimate
// from above, before a core is spent finding out.
func (s *Server) fits(p *model.Plan) error {
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
