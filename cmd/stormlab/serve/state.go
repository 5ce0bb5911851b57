package serve

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
	Full       bool           `json:"full"`          // Rows holds every row streamed
	Lab        *labProgress   `json:"lab,omitempty"` // the run's last lab run, as far as it came

	// Graph is the service graph the run runs, to draw, as the scenario in
	// force has it (each edge's attempts after the changes made); none for
	// a chain.
	Graph *graphView `json:"graph,omitempty"`
	// FaultOn is, in a graph, the service each fault added hits
	// (Faults' order; "": none).
	FaultOn []string `json:"fault_on,omitempty"`
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
		Faults: tl.faultRows(), Full: full, Graph: tl.graph}
	if tl.graph != nil {
		v.FaultOn = tl.faultServices()
	}
	for _, st := range tl.steps {
		k := "change"
		if st.Fault != nil {
			k = "fault"
		}
		v.Markers = append(v.Markers, marker{T: tl.at(st.Row).Seconds(), Label: st.Label, Kind: k})
	}
	if now, err := r.nowLocked(); err == nil {
		v.Now = map[string]any{}
		for _, s := range valuesOf(now.sc) {
			v.Now[s.Path] = s.Value
		}
		v.Limit = now.limit
		if tl.graph != nil {
			v.Graph = tl.graphNow(&now.sc)
		}
	}
	v.Lab = r.labNow
	if full {
		v.Rows = rowsOf(r.sent, r.svc, 0, tl.step, tl.faultRows())
	}
	return v
}
