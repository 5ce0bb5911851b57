package serve

import (
	"context"
	"net/http"
	"testing"
)

// TestLiveRun streams the FIG. 1 server at full speed through the HTTP
// handlers, pausing at given seconds to intervene there: a 1 s outage at
// 10 s it recovers from, a 3 s outage at 25 s that leaves it metastable
// after capacity returns, then a switch to the token-bucket budget at 43 s
// that brings it back within a few seconds. The rows streamed are
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
	// runTo streams until the run pauses at second at.
	runTo := func(rows []row, at int) []row {
		t.Helper()
		post("/control", map[string]any{"speed": "max", "pause_at": at, "paused": false})
		paused := false
		for !paused || len(rows) < at {
			_, rs, st := s.read(t)
			rows = append(rows, rs...)
			if st != nil {
				paused = st.Paused && st.T == float64(at)
			}
		}
		if len(rows) != at {
			t.Fatalf("paused at %ds with %d rows", at, len(rows))
		}
		return rows
	}
	const t1, t3, tb, end = 10, 25, 43, 60
	rows := runTo(nil, t1)
	post("/fault", map[string]any{"kind": "outage", "length": "1s"})
	rows = runTo(rows, t3)
	if st := rows[t1].Status; st != overloaded {
		t.Errorf("during the 1 s outage at %ds the status is %s, want overloaded", t1, st)
	}
	for _, r := range rows[t1+5 : t3] {
		if r.Status != healthy {
			t.Errorf("at %gs, after a 1 s outage, the status is %s, want healthy", r.T, r.Status)
		}
	}

	post("/fault", map[string]any{"kind": "outage", "length": 3})
	rows = runTo(rows, tb)
	for _, r := range rows[t3+5 : tb] {
		if r.Status != metastable {
			t.Errorf("at %gs, %gs after capacity returned from a 3 s outage, the status is %s, want metastable", r.T, r.T-float64(t3+3), r.Status)
		}
	}

	post("/change", map[string]any{"policy": "token-bucket budget"})
	rows = runTo(rows, end)
	for _, r := range rows[tb+5 : end] {
		if r.Status != healthy {
			t.Errorf("at %gs, %gs after the switch to the budget, the status is %s, want healthy", r.T, r.T-float64(tb), r.Status)
		}
	}

	checkExport(t, api, "server-60-live", rows)
	for _, format := range []string{"png", "svg"} {
		code, img := call(t, "GET", api+"/chart."+format, nil)
		if code != http.StatusOK || len(img) < 1000 {
			t.Errorf("chart.%s: %d, %d bytes", format, code, len(img))
		}
	}
}
