package serve

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/model"
)

// live is a run's timeline: where it started and what was done to it, in
// time order. Its file (the experiment it exports) is what the server
// simulates, so the run streamed and the file exported cannot part.
type live struct {
	from  *offered
	setup setup
	seed  uint64
	base  model.Scenario   // at the start: no faults, no changes
	step  float64          // seconds per row of the series
	graph *graphView       // the service graph it runs, as the page draws it; nil for a chain
	gp    *model.GraphPlan // the plan of that graph at its start, when its run records each service's rows
	steps []intervention
}

// newLive starts a timeline; the setup is checked as the file it makes.
func newLive(c *catalog, s setup) (*live, error) {
	o, err := c.get(s.Experiment)
	if err != nil {
		return nil, inputErr(err)
	}
	l := &live{from: o, setup: s}
	if l.base, err = s.scenario(o); err != nil {
		return nil, inputErr(err)
	}
	if l.base.Engine == "markov" {
		return nil, inputErr(fmt.Errorf("%s: the markov engine solves its chain and has no run to stream; POST /api/solve gives its results (the page shows them), and stormlab run %s sweeps its grid", s.Experiment, o.File))
	}
	if l.seed, err = s.seed(o); err != nil {
		return nil, inputErr(err)
	}
	// The series' step follows from the tick alone: resolve the start over
	// a thousand ticks to learn it, then check the file over one row.
	l.step = max(l.base.Tick.Seconds(), 1)
	probe := l.base
	probe.Duration = 1000 * probe.Tick
	p, err := probe.Resolve()
	if err == nil {
		l.step = p.SeriesStep()
	}
	if err == nil {
		l.gp = p.Graph
	}
	l.graph = graphOf(&l.base, l.gp)
	if _, err := l.parse(1, nil); err != nil {
		return nil, err
	}
	return l, nil
}

// name is the exported experiment's name, and its file's without ".toml".
func (l *live) name() string {
	n := l.from.Exp.Name
	if len(n) > 90 {
		n = n[:90]
	}
	return n + "-live"
}

// at is the moment of row r.
func (l *live) at(r int) model.Duration { return model.Seconds(float64(r) * l.step) }

// scenario is the run over its first rows rows, with the interventions
// steps: the faults added to its list, the changes at the same moment
// merged into one [[scenario.change]].
func (l *live) scenario(rows int, steps []intervention) model.Scenario {
	sc := l.base
	sc.Layer = slices.Clone(sc.Layer)
	sc.Fault, sc.Change = nil, nil
	sc.Duration = l.at(rows)
	for _, st := range steps {
		if st.Fault != nil {
			sc.Fault = append(sc.Fault, *st.Fault)
			continue
		}
		at := l.at(st.Row)
		if at <= 0 {
			at = sc.Tick // a change must come after the start; the first row is not yet shown
		}
		if n := len(sc.Change); n > 0 && sc.Change[n-1].At == at {
			sc.Change[n-1].Set = merge(sc.Change[n-1].Set, st.Set)
			continue
		}
		sc.Change = append(sc.Change, model.Change{At: at, Set: st.Set})
	}
	return sc
}

// export is the experiment file of the run's first rows rows with the
// interventions steps; later ones are named in its comments.
func (l *live) export(rows int, steps []intervention) *experiments.Export {
	var in, later []intervention
	for _, st := range steps {
		if st.Row < rows {
			in = append(in, st)
		} else {
			later = append(later, st)
		}
	}
	policy := "its [scenario] as written"
	if l.setup.Policy != "" {
		policy = fmt.Sprintf("policy %q", l.setup.Policy)
	}
	comment := []string{
		fmt.Sprintf("A live run of %s (%s), exported by stormlab serve: its", l.from.File, policy),
		"first " + l.at(rows).String() + " with the faults and changes made while it ran. stormlab run",
		"reproduces it exactly: the same seed, used as is (same_seed), and the same series.",
	}
	for _, st := range later {
		comment = append(comment, fmt.Sprintf("Not in this file: %s at %v, after its end.", st.Label, l.at(st.Row)))
	}
	title := l.from.Exp.Title
	if title == "" {
		title = l.from.Exp.Name
	}
	return &experiments.Export{
		Name:        l.name(),
		Title:       "Live run: " + title,
		Question:    "What does the run look like with the faults and changes made while it ran?",
		Comment:     comment,
		Seed:        l.seed,
		Series:      true,
		Figure:      "live",
		FigureTitle: "The live run: offered load and queue",
		Scenario:    l.scenario(rows, in),
	}
}

// parse writes the run's file over rows rows and reads it back: the
// loader's checks, with its messages, are the run's.
func (l *live) parse(rows int, steps []intervention) (*experiments.Experiment, error) {
	src, err := l.export(rows, steps).TOML()
	if err != nil {
		return nil, inputErr(err)
	}
	e, err := experiments.Parse(l.name()+".toml", src, nil)
	if err != nil {
		return nil, err
	}
	if n := len(e.Grid.Cells()); n != 1 {
		return nil, fmt.Errorf("the run's file has %d cells, not one", n)
	}
	return e, nil
}

// simulate runs the run's file over rows rows, with the interventions
// steps, as stormlab run runs it: read back by the loader, then the engine
// on its one cell, its series recorded.
func (l *live) simulate(ctx context.Context, rows int, steps []intervention, maxMemory int64) ([]model.SeriesRow, error) {
	e, err := l.parse(rows, steps)
	if err != nil {
		return nil, err
	}
	c := e.Grid.Cells()[0]
	res, err := model.RunPlan(ctx, c.Plan, c.Seed, model.Options{Series: true, MaxMemory: maxMemory})
	switch {
	case err != nil:
		return nil, err
	case res.Aborted != "":
		return nil, fmt.Errorf("the run outgrew the memory a live run may use: %s", res.Aborted)
	}
	return res.Series.Rows, nil
}

// now is the scenario in force after the interventions: the last change's
// scenario, or the start's.
func (l *live) now(e *experiments.Experiment) model.Scenario {
	sc := e.Grid.Cells()[0].Scenario
	if n := len(sc.Change); n > 0 && sc.Change[n-1].Then != nil {
		return *sc.Change[n-1].Then
	}
	return sc
}

// faultRows lists, per fault added, the rows it touches: [from, to).
func (l *live) faultRows() [][2]float64 {
	var out [][2]float64
	for _, st := range l.steps {
		if st.Fault != nil {
			out = append(out, [2]float64{st.Fault.Start.Seconds(), (st.Fault.Start + st.Fault.Length).Seconds()})
		}
	}
	return out
}

// faultServices lists, per fault added (faultRows' order), the service it
// hits in a graph: "" for a spike, or a fault on a graph's one server that
// names none.
func (l *live) faultServices() []string {
	out := []string{}
	for _, st := range l.steps {
		if st.Fault != nil {
			out = append(out, st.Fault.Service)
		}
	}
	return out
}

// describe is the run's setup in a few words, for the page.
func (l *live) describe() string {
	parts := []string{l.from.Exp.Name}
	if l.setup.Policy != "" {
		parts = append(parts, l.setup.Policy)
	}
	parts = append(parts, fmt.Sprintf("seed %d", l.seed))
	return strings.Join(parts, " · ")
}
