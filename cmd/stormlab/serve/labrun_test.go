package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stormlab/stormlab/model"
)

// oneHop is the lab article's one-hop experiment: fifty requests at once
// at an origin, which the lab runs on real gRPC with the model's counts.
const oneHop = "../../../experiments/one-hop.toml"

// labUntil reads the stream's lab events until one of a stage other than
// running, and returns it with the stages seen.
func labUntil(t *testing.T, s *stream) (labProgress, map[string]int) {
	t.Helper()
	seen := map[string]int{}
	for {
		name, data := s.next(t)
		if name != "lab" {
			continue
		}
		var p labProgress
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		seen[p.Stage]++
		if p.Stage != "running" {
			return p, seen
		}
	}
}

// TestLabRun runs the one-hop origin, down for the whole run since its
// start (an outage added live), on the real stack from the explorer's
// API: the lab's series, counted in the real servers, has the model's
// counts of the same file exactly, and the same verdict.
func TestLabRun(t *testing.T) {
	srv, hs := testServer(t, Options{Files: []string{oneHop}})
	id := startRun(t, hs, map[string]any{"experiment": "one-hop"})
	api := hs.URL + "/api/runs/" + id
	if code, text := call(t, "POST", api+"/fault", map[string]any{"kind": "outage", "length": "10s"}); code != http.StatusNoContent {
		t.Fatalf("fault: %d %s", code, text)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openStream(t, ctx, hs, id)
	if code, text := call(t, "POST", api+"/lab", nil); code != http.StatusAccepted {
		t.Fatalf("lab: %d %s", code, text)
	}
	p, seen := labUntil(t, s)
	if p.Stage != "done" || seen["running"] == 0 {
		t.Fatalf("lab ended %q (%s) after stages %v", p.Stage, p.Problem, seen)
	}
	if p.Speed != 0.05 || p.Length != 10 {
		t.Errorf("speed %v, length %v s: want the experiment's [lab] speed 0.05 and its 10 s", p.Speed, p.Length)
	}
	// The model's run of the same file, as the export holds it.
	r, err := srv.get(id)
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	e, err := r.tl.parse(10, r.tl.steps)
	r.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	c := e.Grid.Cells()[0]
	mr, err := model.RunPlan(context.Background(), c.Plan, c.Seed, model.Options{Series: true})
	if err != nil {
		t.Fatal(err)
	}
	var lab, mod [4]float64
	for _, x := range p.Rows {
		lab[0], lab[1], lab[2], lab[3] = lab[0]+x.Requests, lab[1]+x.Calls, lab[2]+x.Successes, lab[3]+x.Failures
	}
	for _, x := range mr.Series.Rows {
		mod[0], mod[1], mod[2], mod[3] = mod[0]+x.Requests, mod[1]+x.Calls, mod[2]+x.Successes, mod[3]+x.Failures
	}
	if lab != mod && p.Behind > 0 {
		t.Skipf("requests, calls, successes, failures: lab %v, model %v, and the machine did not keep the model's ticks (%d calls and answers behind)", lab, mod, p.Behind)
	}
	if lab != mod || len(p.Rows) != len(mr.Series.Rows) {
		t.Errorf("requests, calls, successes, failures: lab %v in %d rows, model %v in %d", lab, len(p.Rows), mod, len(mr.Series.Rows))
	}
	if mod[0] != 50 || mod[3] != 50 {
		t.Errorf("the model's run: %v; want fifty requests, every one failed", mod)
	}
	if p.Verdict == "" || p.Verdict != p.ModelVerdict || p.ModelVerdict != mr.Verdict.String() {
		t.Errorf("verdicts: lab %q, model %q (the model's own run: %q)", p.Verdict, p.ModelVerdict, mr.Verdict)
	}
}

// TestLabRefused: what the lab cannot run is refused with the lab's own
// words, and nothing starts; a lab run streams its series as it goes; a
// second lab run on the server while one is under way is refused;
// stopping it, or closing its run, frees the server for the next.
func TestLabRefused(t *testing.T) {
	_, hs := testServer(t, Options{})
	a, b := startRun(t, hs, nil), startRun(t, hs, nil)
	apiA, apiB := hs.URL+"/api/runs/"+a, hs.URL+"/api/runs/"+b
	if code, text := call(t, "POST", apiB+"/change", map[string]any{"set": map[string]any{"load": 80}}); code != http.StatusNoContent {
		t.Fatalf("change: %d %s", code, text)
	}
	code, text := call(t, "POST", apiB+"/lab", nil)
	if code != http.StatusBadRequest || !strings.Contains(text, "the lab cannot run a change (0) of anything but the callers' policies on the real stack yet") {
		t.Errorf("a change of the load in the lab: %d %s", code, text)
	}
	if code, text := call(t, "POST", apiA+"/lab", map[string]any{"speed": 0}); code != http.StatusBadRequest || !strings.Contains(text, "speed") {
		t.Errorf("speed 0: %d %s", code, text)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openStream(t, ctx, hs, a)
	if code, text := call(t, "POST", apiA+"/lab", nil); code != http.StatusAccepted {
		t.Fatalf("lab: %d %s", code, text)
	}
	if code, text := call(t, "POST", apiA+"/lab", nil); code != http.StatusBadRequest || !strings.Contains(text, "under way") {
		t.Errorf("the same run's second lab run: %d %s", code, text)
	}
	c := startRun(t, hs, nil)
	apiC := hs.URL + "/api/runs/" + c
	if code, text := call(t, "POST", apiC+"/lab", nil); code != http.StatusServiceUnavailable || !strings.Contains(text, "one at a time") {
		t.Errorf("another run's lab run: %d %s", code, text)
	}
	// The lab's series comes second by second while it runs, in the
	// page's rows, the seconds in order from 0.
	for {
		name, data := s.next(t)
		if name != "lab" {
			continue
		}
		var p labProgress
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		if p.Stage != "running" {
			t.Fatalf("the lab run ended %q (%s) before two seconds of its series came", p.Stage, p.Problem)
		}
		if len(p.Rows) >= 2 {
			if p.Rows[0].T != 0 || p.Rows[1].T != 1 || p.Rows[0].Requests == 0 {
				t.Errorf("the lab's first rows: %+v", p.Rows[:2])
			}
			break
		}
	}
	if code, text := call(t, "POST", apiA+"/lab/stop", nil); code != http.StatusNoContent {
		t.Fatalf("stop: %d %s", code, text)
	}
	if p, _ := labUntil(t, s); p.Stage != "stopped" {
		t.Errorf("stopped lab run: %q (%s)", p.Stage, p.Problem)
	}
	// The server takes the next lab run once the stopped one has let go
	// of the real stack; closing its run stops it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, text := call(t, "POST", apiC+"/lab", nil)
		if code == http.StatusAccepted {
			break
		}
		if code != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("lab after stop: %d %s", code, text)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code, text := call(t, "POST", apiC+"/close", nil); code != http.StatusNoContent {
		t.Fatalf("close: %d %s", code, text)
	}
	deadline = time.Now().Add(10 * time.Second)
	for {
		code, text := call(t, "POST", apiA+"/lab", map[string]any{"speed": 10})
		if code == http.StatusAccepted {
			break
		}
		if code != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("lab after close: %d %s", code, text)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
