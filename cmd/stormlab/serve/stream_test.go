package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/reports"
)

// markerAt is the row of the last marker of a state event whose label is
// label.
func markerAt(t *testing.T, s *stream, have []row, label string) ([]row, int) {
	t.Helper()
	for {
		name, data := s.next(t)
		switch name {
		case "rows":
			var rs []row
			if err := json.Unmarshal(data, &rs); err != nil {
				t.Fatal(err)
			}
			have = append(have, rs...)
		case "state":
			var st stateView
			if err := json.Unmarshal(data, &st); err != nil {
				t.Fatal(err)
			}
			for i := len(st.Markers) - 1; i >= 0; i-- {
				if st.Markers[i].Label == label {
					return have, int(st.Markers[i].T / st.Step)
				}
			}
		case "problem", "end":
			t.Fatalf("%s: %s", name, data)
		}
	}
}

// TestLiveRun streams the FIG. 1 server at full speed through the HTTP
// handlers: a 1 s outage it recovers from, a 3 s outage that leaves it
// metastable after capacity returns, then a switch to the token-bucket
// budget that brings it back within a few seconds. The rows streamed are
// the series of the exported file run as stormlab run runs it, and the
// CSV export is that series.csv.
func TestLiveRun(t *testing.T) {
	_, hs := testServer(t, Options{})
	id := startRun(t, hs, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openStream(t, ctx, hs, id)
	api := hs.URL + "/api/runs/" + id
	post := func(path string, body any) {
		t.Helper()
		if code, text := call(t, "POST", api+path, body); code >= 300 {
			t.Fatalf("POST %s: %d %s", path, code, text)
		}
	}
	post("/control", map[string]any{"speed": "max"})
	rows, _ := s.rowsUntil(t, nil, 10)

	post("/fault", map[string]any{"kind": "outage", "length": "1s"})
	rows, t1 := markerAt(t, s, rows, "outage 1s")
	rows, _ = s.rowsUntil(t, rows, t1+20)
	if st := rows[t1].Status; st != overloaded {
		t.Errorf("during the 1 s outage at %ds the status is %s, want overloaded", t1, st)
	}
	for _, r := range rows[t1+8 : t1+20] {
		if r.Status != healthy {
			t.Errorf("at %gs, 8 s after a 1 s outage, the status is %s, want healthy", r.T, r.Status)
		}
	}

	post("/fault", map[string]any{"kind": "outage", "length": 3})
	rows, t3 := markerAt(t, s, rows, "outage 3s")
	back := t3 + 3
	rows, _ = s.rowsUntil(t, rows, back+15)
	for _, r := range rows[back+2 : back+15] {
		if r.Status != metastable {
			t.Errorf("at %gs, %gs after capacity returned from a 3 s outage, the status is %s, want metastable", r.T, r.T-float64(back), r.Status)
		}
	}

	post("/change", map[string]any{"policy": "token-bucket budget"})
	rows, tb := markerAt(t, s, rows, "→ token-bucket budget")
	rows, _ = s.rowsUntil(t, rows, tb+20)
	for _, r := range rows[tb+5 : tb+20] {
		if r.Status != healthy {
			t.Errorf("at %gs, %gs after the switch to the budget, the status is %s, want healthy", r.T, r.T-float64(tb), r.Status)
		}
	}

	// Pause, and read every row sent before the pause.
	post("/control", map[string]any{"paused": true})
	var paused stateView
	for {
		name, data := s.next(t)
		if name == "rows" {
			var rs []row
			_ = json.Unmarshal(data, &rs)
			rows = append(rows, rs...)
			continue
		}
		if name == "state" {
			_ = json.Unmarshal(data, &paused)
			if paused.Paused {
				break
			}
		}
	}
	rows, _ = s.rowsUntil(t, rows, int(paused.T))

	code, src := call(t, "GET", api+"/export.toml", nil)
	if code != http.StatusOK {
		t.Fatalf("export.toml: %d %s", code, src)
	}
	e, err := experiments.Parse("server-60-live.toml", []byte(src), nil)
	if err != nil {
		t.Fatalf("the export does not load: %v\n%s", err, src)
	}
	results, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	series := results[0].Series.Rows
	if len(series) != len(rows) {
		t.Fatalf("the export runs %d rows, the page got %d", len(series), len(rows))
	}
	var faults [][2]float64
	for _, f := range e.Grid.Cells()[0].Scenario.Fault {
		faults = append(faults, [2]float64{f.Start.Seconds(), (f.Start + f.Length).Seconds()})
	}
	want := rowsOf(series, 0, 1, faults)
	for i := range rows {
		if rows[i] != want[i] {
			t.Fatalf("row %d: the page got %+v, the export runs %+v", i, rows[i], want[i])
		}
	}

	var csv bytes.Buffer
	if err := reports.WriteSeries(&csv, e.Grid, results); err != nil {
		t.Fatal(err)
	}
	code, got := call(t, "GET", api+"/series.csv", nil)
	if code != http.StatusOK || got != csv.String() {
		t.Errorf("series.csv (%d) differs from what the export writes:\n%.300s\nwant\n%.300s", code, got, csv.String())
	}
	for _, format := range []string{"png", "svg"} {
		code, img := call(t, "GET", api+"/chart."+format, nil)
		if code != http.StatusOK || len(img) < 1000 {
			t.Errorf("chart.%s: %d, %d bytes", format, code, len(img))
		}
	}
}
