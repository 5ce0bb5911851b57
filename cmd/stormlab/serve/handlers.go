package serve

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// routes lays out the page, its assets and its API.
func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.page)
	m.Handle("GET /assets/", assetHandler())
	m.HandleFunc("GET /api/experiments", s.listExperiments)
	m.HandleFunc("GET /api/schema", s.getSchema)
	m.HandleFunc("POST /api/runs", s.createRun)
	m.HandleFunc("POST /api/solve", s.solve)
	m.HandleFunc("GET /api/runs/{id}", s.withRun(s.getRun))
	m.HandleFunc("GET /api/runs/{id}/events", s.withRun(s.events))
	m.HandleFunc("GET /api/runs/{id}/socket", s.withRun(s.socketEvents))
	m.HandleFunc("POST /api/runs/{id}/control", s.withRun(s.controlRun))
	m.HandleFunc("POST /api/runs/{id}/reset", s.withRun(s.resetRun))
	m.HandleFunc("POST /api/runs/{id}/fault", s.withRun(s.addFault))
	m.HandleFunc("POST /api/runs/{id}/change", s.withRun(s.addChange))
	m.HandleFunc("POST /api/runs/{id}/around", s.withRun(s.around))
	m.HandleFunc("POST /api/runs/{id}/lab", s.withRun(s.startLab))
	m.HandleFunc("POST /api/runs/{id}/lab/stop", s.withRun(s.stopLab))
	m.HandleFunc("POST /api/runs/{id}/close", s.withRun(s.closeRun))
	m.HandleFunc("GET /api/runs/{id}/export.toml", s.withRun(s.exportTOML))
	m.HandleFunc("GET /api/runs/{id}/series.csv", s.withRun(s.exportCSV))
	m.HandleFunc("GET /api/runs/{id}/chart.png", s.withRun(s.exportChart("png")))
	m.HandleFunc("GET /api/runs/{id}/chart.svg", s.withRun(s.exportChart("svg")))
	s.mux = m
}

// withRun finds the run a request names.
func (s *Server) withRun(h func(http.ResponseWriter, *http.Request, *run)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		run, err := s.get(r.PathValue("id"))
		if err != nil {
			fail(w, r, err)
			return
		}
		h(w, r, run)
	}
}

// reply writes v as JSON.
func reply(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// experimentView is an offered experiment as the page lists it.
type experimentView struct {
	Name     string   `json:"name"`
	Title    string   `json:"title"`
	Question string   `json:"question"`
	File     string   `json:"file"`
	Engine   string   `json:"engine"`
	Seed     uint64   `json:"seed"`
	Layers   int      `json:"layers"`
	Policies []string `json:"policies"`
	// Solved lists the policies ("" for the scenario without one) the
	// markov engine solves: the page shows their chain (POST /api/solve)
	// rather than a run.
	Solved []string `json:"solved"`
	// Graph is whether its scenario is a service graph: it has no chain
	// depth to set, and its run comes with the graph's drawing.
	Graph bool `json:"graph"`
}

func (s *Server) listExperiments(w http.ResponseWriter, _ *http.Request) {
	out := []experimentView{}
	for _, n := range s.cat.names {
		o := s.cat.byName[n]
		b := o.Exp.Grid.Base
		v := experimentView{Name: n, Title: o.Exp.Title, Question: o.Exp.Question, File: o.File,
			Engine: b.Engine, Seed: o.Exp.Grid.Seed & maxSeed, Layers: len(b.ChainLayers()), Policies: policyNames(o), Solved: []string{}}
		choices := v.Policies
		if len(choices) == 0 {
			choices = []string{""}
		}
		for _, p := range choices {
			if (&setup{Experiment: n, Policy: p}).solvedBy(o) {
				v.Solved = append(v.Solved, p)
			}
		}
		if c, err := (&setup{Experiment: n}).cell(o); err == nil {
			v.Graph = isGraph(&c.Scenario) // a grid's axis may write the graph
		}
		out = append(out, v)
	}
	reply(w, http.StatusOK, out)
}

// createRun starts a run of the setup the page sends.
func (s *Server) createRun(w http.ResponseWriter, r *http.Request) {
	tl, err := s.liveFrom(r, setup{})
	if err != nil {
		fail(w, r, err)
		return
	}
	run, err := s.add(tl)
	if err != nil {
		fail(w, r, err)
		return
	}
	run.mu.Lock()
	v := run.stateLocked(false)
	run.mu.Unlock()
	reply(w, http.StatusCreated, v)
}

// events streams the run to its page.
func (s *Server) events(w http.ResponseWriter, r *http.Request, run *run) {
	if err := run.stream(r.Context(), newSSE(w)); err != nil && httpStatus(err) == http.StatusNotFound {
		return
	}
}

// controlRequest sets the speed, pauses and resumes, or sets the second
// to pause at.
type controlRequest struct {
	Speed   *speed   `json:"speed"`
	Paused  *bool    `json:"paused"`
	PauseAt *float64 `json:"pause_at"`
}

func (s *Server) controlRun(w http.ResponseWriter, r *http.Request, run *run) {
	var c controlRequest
	if err := decode(r, &c); err != nil {
		fail(w, r, err)
		return
	}
	if c.Speed != nil && !slices.Contains([]speed{realTime, tenTimes, fastest}, *c.Speed) {
		fail(w, r, badInput("speed %q is not one of 1, 10, max", clip(string(*c.Speed), 20)))
		return
	}
	if err := run.control(c.Speed, c.Paused, c.PauseAt); err != nil {
		fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// liveFrom is the run of the setup the request sends, over st (the
// fields it leaves out keep st's values), checked to fit the server's caps.
func (s *Server) liveFrom(r *http.Request, st setup) (*live, error) {
	if err := decode(r, &st); err != nil {
		return nil, err
	}
	tl, err := newLive(s.cat, st)
	if err != nil {
		return nil, err
	}
	_, err = s.planOf(tl, nil)
	return tl, err
}

// resetRun starts the run again, with the setup sent or its own.
func (s *Server) resetRun(w http.ResponseWriter, r *http.Request, run *run) {
	run.mu.Lock()
	st := run.tl.setup
	run.mu.Unlock()
	tl, err := s.liveFrom(r, st)
	if err != nil {
		fail(w, r, err)
		return
	}
	run.reset(tl)
	w.WriteHeader(http.StatusNoContent)
}

// faultRequest is a fault to add now: its kind, its length and, by kind,
// the capacity left (degradation) or the factor (slowdown, spike), as a
// [[scenario.fault]] entry writes them; it starts at the moment the page
// has reached.
type faultRequest map[string]any

func (s *Server) addFault(w http.ResponseWriter, r *http.Request, run *run) {
	var req faultRequest
	if err := decode(r, &req); err != nil {
		fail(w, r, err)
		return
	}
	if _, ok := req["start"]; ok {
		fail(w, r, badInput("a fault starts at the moment the run has reached; give its kind and length, not its start"))
		return
	}
	raw, err := tomlValue(map[string]any(req))
	if err != nil {
		fail(w, r, err)
		return
	}
	var sc model.Scenario
	if err := sweep.Assign(&sc, "fault.0", raw); err != nil {
		if p, ok := sweep.KeyPath(err); ok && strings.HasPrefix(p, "fault.0.") {
			k := strings.TrimPrefix(p, "fault.0.")
			err = badField(k, "%s", strings.TrimPrefix(err.Error(), p+": "))
		} else {
			err = badInput("fault: %v", err)
		}
		fail(w, r, err)
		return
	}
	f := sc.Fault[0]
	if err := run.intervene(intervention{Fault: &f, Label: faultLabel(&f)}, ""); err != nil {
		fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// changeRequest changes the scenario now: keys by their path below
// [scenario], as a [[scenario.change]] sets them, or one of the
// experiment's policies.
type changeRequest struct {
	Set    map[string]any `json:"set"`
	Policy *string        `json:"policy"`
}

func (s *Server) addChange(w http.ResponseWriter, r *http.Request, run *run) {
	var req changeRequest
	if err := decode(r, &req); err != nil {
		fail(w, r, err)
		return
	}
	var set map[string]any
	label, policy := "", ""
	switch {
	case req.Policy != nil && req.Set != nil:
		fail(w, r, badInput("give either the keys to set or a policy, not both"))
		return
	case req.Policy != nil:
		var err error
		if set, err = run.policyChange(*req.Policy); err != nil {
			fail(w, r, err)
			return
		}
		label, policy = "→ "+*req.Policy, *req.Policy
	case len(req.Set) == 0:
		fail(w, r, badInput("a change needs keys to set, e.g. {\"set\": {\"layer.0.attempts\": 1}}, or a policy"))
		return
	default:
		v, err := tomlValue(req.Set)
		if err != nil {
			fail(w, r, err)
			return
		}
		set = v.(map[string]any)
		for k := range set {
			if strings.TrimSpace(k) == "" {
				fail(w, r, badInput("a change's key is empty"))
				return
			}
		}
		if c, ok := set["dependency.capacity"].(int64); ok && c <= 0 || set["dependency.capacity"] == 0.0 {
			fail(w, r, badField("dependency.capacity", "give more than 0 calls/s: a server that serves nothing is an outage (fail it now)"))
			return
		}
		label = changeLabel(set)
	}
	if err := run.intervene(intervention{Set: set, Label: label}, policy); err != nil {
		fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) around(w http.ResponseWriter, r *http.Request, run *run) {
	if err := decode(r, &struct{}{}); err != nil {
		fail(w, r, err)
		return
	}
	if err := run.startAround(); err != nil {
		fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// startLab starts a lab run of the run's file on the real stack; its
// progress comes as "lab" events.
func (s *Server) startLab(w http.ResponseWriter, r *http.Request, run *run) {
	var req labRequest
	if err := decode(r, &req); err != nil {
		fail(w, r, err)
		return
	}
	if err := run.startLab(req); err != nil {
		fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// stopLab stops the run's lab run, if one is under way.
func (s *Server) stopLab(w http.ResponseWriter, _ *http.Request, run *run) {
	run.mu.Lock()
	run.stopLabLocked()
	run.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// getRun is the run's state, without its rows: whether a page coming back
// (a reload) can attach to it.
func (s *Server) getRun(w http.ResponseWriter, _ *http.Request, run *run) {
	run.mu.Lock()
	v := run.stateLocked(false)
	run.mu.Unlock()
	reply(w, http.StatusOK, v)
}

// reloadGrace is how long a run closed by a page going away (?soon) waits
// for the page to come back, as a reload brings it.
const reloadGrace = 5 * time.Second

// closeRun ends the run now, or with ?soon, unless a page attaches within
// reloadGrace.
func (s *Server) closeRun(w http.ResponseWriter, r *http.Request, run *run) {
	if !r.URL.Query().Has("soon") {
		s.remove(run.id)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	time.AfterFunc(reloadGrace, func() {
		if run.idle(time.Now()) {
			s.remove(run.id)
		}
	})
	w.WriteHeader(http.StatusNoContent)
}
