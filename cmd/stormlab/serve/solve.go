package serve

import (
	"math"
	"net/http"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// solved is a setup the markov engine solves, as the page shows it: the
// chain has no run to stream, so the page gets its results at once, the
// markov_* columns stormlab run writes for the same cell and the
// stationary distribution of the calls at the server.
type solved struct {
	Experiment string `json:"experiment"`
	Policy     string `json:"policy"`
	// Cell is the grid cell solved, by its index in Cells, the policy's
	// cells (every cell, without one) in grid order, each named by its
	// values.
	Cell    int            `json:"cell"`
	Cells   []string       `json:"cells"`
	Verdict string         `json:"verdict"`
	Columns []solvedColumn `json:"columns"`
	// Queue is the stationary probability of each number of calls at the
	// server, 0 to the queue limit; High the most calls in the low mode
	// (capacity × timeout).
	Queue []float64 `json:"queue"`
	High  float64   `json:"high"`
	// Notes say where the chain's solve fell short (model warnings).
	Notes []string `json:"notes"`
	// Run is the command that sweeps the experiment's whole grid and
	// writes its report.
	Run string `json:"run"`
}

// solvedColumn is one markov_* column: its name, its value (null when
// the chain has none) and what it means.
type solvedColumn struct {
	Name  string   `json:"name"`
	Value *float64 `json:"value"`
	Doc   string   `json:"doc"`
}

// solveRequest is a setup and which of its cells to solve.
type solveRequest struct {
	setup
	// Cell indexes the setup's cells (setup.cells), 0 for the first.
	Cell int `json:"cell"`
}

// solveSetup solves a cell of the setup on the markov engine; a setup
// another engine runs is bad input that says to start a live run instead.
func (s *Server) solveSetup(r *http.Request) (*solved, error) {
	var req solveRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	st := &req.setup
	o, err := s.cat.get(st.Experiment)
	if err != nil {
		return nil, inputErr(err)
	}
	cells, err := st.cells(o)
	if err != nil {
		return nil, inputErr(err)
	}
	if req.Cell < 0 || req.Cell >= len(cells) {
		return nil, badField("cell", "must be from 0 to %d, the setup's cells, got %d", len(cells)-1, req.Cell)
	}
	c := cells[req.Cell]
	sc, err := st.scenarioOf(c)
	if err != nil {
		return nil, inputErr(err)
	}
	if sc.Engine != "markov" {
		return nil, badInput("%s runs on the %s engine, which the live page streams: start a run of it (POST /api/runs)", o.Exp.Name, sc.Engine)
	}
	p, err := sc.Resolve()
	if err != nil {
		return nil, inputErr(err)
	}
	res, err := model.RunPlan(r.Context(), p, o.Exp.Grid.Seed, model.Options{})
	if err != nil {
		return nil, err
	}
	out := &solved{Experiment: o.Exp.Name, Policy: st.Policy, Cell: req.Cell, Verdict: res.Markov.Phase.String(),
		Queue: res.Markov.Queue, High: p.Markov.High, Notes: res.Warnings, Run: "stormlab run " + o.File}
	for _, c := range cells {
		out.Cells = append(out.Cells, valuesLabel(c))
	}
	for _, m := range model.MetricList() {
		if !strings.HasPrefix(m.Name, "markov_") || m.Kind == "phase" {
			continue
		}
		col := solvedColumn{Name: m.Name, Doc: strings.TrimSuffix(m.Doc, "; empty for the other engines")}
		if v := m.Value(&res); !math.IsNaN(v) && !math.IsInf(v, 0) {
			col.Value = &v
		}
		out.Columns = append(out.Columns, col)
	}
	return out, nil
}

// solve answers POST /api/solve: a markov setup's chain, solved.
func (s *Server) solve(w http.ResponseWriter, r *http.Request) {
	out, err := s.solveSetup(r)
	if err != nil {
		fail(w, r, err)
		return
	}
	reply(w, http.StatusOK, out)
}

// valuesLabel names a cell by its values on the grid's axes other than the
// policy, which the setup names already: "load=8, layer.0.attempts=1".
func valuesLabel(c *sweep.Cell) string {
	var ps []sweep.Param
	for _, p := range c.Params {
		if p.Axis != "policy" {
			ps = append(ps, p)
		}
	}
	return (&sweep.Cell{Params: ps}).Label()
}
