package serve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/stormlab/stormlab/cmd/stormlab/lab"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// labProgress is a lab run of a live run's file as the page gets it: how
// far it is, the lab's series so far in the page's rows and, at its end,
// the verdicts of the lab and of the model on the same file; Problem says
// in words why it stopped short (the machine could not keep up, it
// failed, it was stopped).
type labProgress struct {
	Stage        string   `json:"stage"`  // running, done, distorted, failed, stopped
	Speed        float64  `json:"speed"`  // times faster than the scenario's time
	Length       float64  `json:"length"` // seconds of the scenario it runs
	Rows         []row    `json:"rows"`
	Verdict      string   `json:"verdict,omitempty"`       // the lab's, by the model's rule
	ModelVerdict string   `json:"model_verdict,omitempty"` // the model's run of the same file
	Notes        []string `json:"notes,omitempty"`         // where the real libraries differ from the model
	// Behind is the lab's calls and answers that crossed a hop in a later
	// tick than the model has them in (a note says so in words).
	Behind  int64  `json:"behind,omitempty"`
	Problem string `json:"problem,omitempty"`
}

// labRequest starts a lab run: its speed, or the experiment's [lab] speed
// (1 when it has none).
type labRequest struct {
	Speed *float64 `json:"speed"`
}

// startLab starts a lab run of the run's file as the export gives it, over
// the experiment's length (or the rows streamed, when longer), with every
// fault and change made so far. One lab run at a time per server.
func (r *run) startLab(req labRequest) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	speed := 1.0
	if l := r.tl.from.Exp.Lab; l != nil && l.Speed > 0 {
		speed = l.Speed
	}
	if req.Speed != nil {
		speed = *req.Speed
	}
	if !(speed > 0) || math.IsInf(speed, 0) {
		return badField("speed", "give a speed above 0 (times faster than the scenario's time), got %v", speed)
	}
	if r.lab != nil {
		return badInput("this run's lab run is under way; stop it first")
	}
	rows := max(len(r.sent), int(math.Round(r.tl.base.Duration.Seconds()/r.tl.step)), 1)
	// The lab runs the faults added live as planned from the start (its
	// dependency follows the plan's fault segments): the same scenario,
	// which the model draws differently only before the fault.
	steps := slices.Clone(r.tl.steps)
	for i := range steps {
		if f := steps[i].Fault; f != nil {
			g := *f
			g.Unforeseen = false
			steps[i].Fault = &g
		}
	}
	e, err := r.tl.parse(rows, steps)
	if err != nil {
		return err
	}
	if err := lab.Check(e); err != nil {
		var ue *lab.UnsupportedError
		if errors.As(err, &ue) {
			return badInput("%v", ue.Err)
		}
		return err
	}
	select {
	case r.srv.labs <- struct{}{}:
	default:
		return &busyError{"a lab run is under way on this server (another run's): it runs one at a time, on the machine's own cores; wait for it to end"}
	}
	ctx, cancel := context.WithCancel(r.srv.ctx)
	r.lab = cancel
	r.labID++
	p := labProgress{Stage: "running", Speed: speed, Length: r.tl.at(rows).Seconds(), Rows: []row{}}
	r.labNow = &p
	r.pushLocked(event{"lab", p})
	go r.runLab(ctx, cancel, r.labID, e.Grid.Cells()[0], p, r.tl.faultRows())
	return nil
}

// runLab runs the cell on the real stack and sends its series as it comes
// and its end to the page.
func (r *run) runLab(ctx context.Context, cancel context.CancelFunc, id int, c sweep.Cell, p labProgress, faults [][2]float64) {
	defer func() { <-r.srv.labs }()
	defer cancel()
	send := func(p labProgress) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.labID != id {
			return
		}
		r.labNow = &p
		if p.Stage != "running" {
			r.lab = nil
		}
		r.pushLocked(event{"lab", p})
	}
	step := r.tl.step
	res, err := lab.RunSweepCell(ctx, c, lab.Options{Speed: p.Speed, Progress: func(s *model.Series) {
		if ctx.Err() == nil {
			q := p
			q.Rows = rowsOf(s.Rows, nil, 0, step, faults)
			send(q)
		}
	}})
	switch {
	case ctx.Err() != nil:
		p.Stage, p.Problem = "stopped", "the lab run was stopped"
		send(p)
		return
	case err != nil:
		p.Stage, p.Problem = "failed", "the lab run failed: "+err.Error()
		send(p)
		return
	}
	if why := res.Keep.Distorted(); why != "" {
		p.Stage = "distorted"
		p.Problem = fmt.Sprintf("This machine could not keep up with the lab at %v× (%s), so its run is not shown: run it at a lower speed, or on a quieter machine.", p.Speed, why)
		send(p)
		return
	}
	mr, err := model.RunPlan(ctx, c.Plan, c.Seed, model.Options{Windows: c.Windows})
	if err != nil {
		p.Stage, p.Problem = "failed", "the model's run of the same file failed: "+err.Error()
		send(p)
		return
	}
	p.Stage = "done"
	p.Rows = rowsOf(res.Result.Series.Rows, nil, 0, step, faults)
	p.Verdict, p.ModelVerdict = res.Result.Verdict.String(), mr.Verdict.String()
	p.Notes = res.Notes
	if why := res.Keep.Behindness(); why != "" {
		p.Behind = res.Keep.Behind
		p.Notes = append(slices.Clone(p.Notes), why)
	}
	send(p)
}

// stopLabLocked stops the run's lab run, if one is under way.
func (r *run) stopLabLocked() {
	if r.lab != nil {
		r.lab()
		r.lab = nil
	}
}
