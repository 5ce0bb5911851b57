package model

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// byRow turns a run's services' series into rows of services, as a
// Stepper's Services gives them.
func byRow(svc []ServiceSeries) [][]ServiceRow {
	var out [][]ServiceRow
	for r := range svc[0].Rows {
		row := make([]ServiceRow, len(svc))
		for i := range svc {
			row[i] = svc[i].Rows[r]
		}
		out = append(out, row)
	}
	return out
}

// graphRows runs sc's first replicate as RunPlan does: its rows and its
// services' rows.
func graphRows(t *testing.T, sc Scenario, seed uint64) ([]SeriesRow, [][]ServiceRow) {
	t.Helper()
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunPlan(context.Background(), p, seed, Options{Series: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.Series.Rows, byRow(res.Series.Services)
}

// liveGraphs are graphs to run live: a gateway calling a and b (loss
// servers) in parallel, and the shared database (a queue server) behind
// two services, failing 10% of its calls, with retries.
func liveGraphs() map[string]Scenario {
	fan := outageFanOut("all")
	fan.Fault = nil
	fan.Duration = Duration(30 * time.Second)
	db := sharedDatabase("parallel", 3, 0.1)
	db.Duration = Duration(40 * time.Second)
	return map[string]Scenario{"fan-out": fan, "shared database": db}
}

// TestStepperGraphServices: a graph's run advanced a few rows at a time
// gives each service's rows as RunPlan's Series.Services holds them, and
// the run's rows as RunPlan's.
func TestStepperGraphServices(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 5))
	for name, sc := range liveGraphs() {
		wantRows, want := graphRows(t, sc, 3)
		p, _ := sc.Resolve()
		st := NewStepper(p, 3, 0)
		var rows []SeriesRow
		var got [][]ServiceRow
		for st.Rows() < st.MaxRows() {
			from := st.Rows()
			out, err := st.Advance(context.Background(), 1+r.IntN(7))
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, out...)
			got = append(got, st.Services(from)...)
		}
		st.Close()
		if !reflect.DeepEqual(rows, wantRows) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the rows advanced a few at a time differ from the run's", name)
		}
		if len(got) != len(want) || len(got[0]) != len(p.Graph.Services) {
			t.Errorf("%s: %d rows of %d services", name, len(got), len(got[0]))
		}
	}
}

// TestStepperGraphLiveFault: a fault added to a graph's running run on one
// service, at the row the run has reached (unforeseen), continues it as
// the file with that fault runs from the start: the same rows, and the
// same rows of every service. The fault takes up where it should: before
// it nothing differs from the run without it, and the service it hits
// turns unhealthy while the other backend stays healthy.
func TestStepperGraphLiveFault(t *testing.T) {
	for name, sc := range liveGraphs() {
		hit := "a"
		if name == "shared database" {
			hit = "db"
		}
		const at = 10 // the row (1 s each) the fault is added at
		f := Fault{Kind: "outage", Start: Duration(at * time.Second), Length: Duration(8 * time.Second), Factor: 1, Service: hit, Unforeseen: true}
		withFault := sc
		withFault.Fault = []Fault{f}
		wantRows, want := graphRows(t, withFault, 9)
		_, without := graphRows(t, sc, 9)

		p, err := sc.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		st := NewStepper(p, 9, 0)
		rows, err := st.Advance(context.Background(), at)
		if err != nil {
			t.Fatal(err)
		}
		np, err := withFault.Resolve()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := st.Replan(np); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rest, err := st.Advance(context.Background(), st.MaxRows())
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, rest...)
		got := st.Services(0)
		st.Close()
		sameAsFile(t, name, rows, wantRows, got, want)
		if !reflect.DeepEqual(want[:at], without[:at]) {
			t.Errorf("%s: the fault changed the rows before it", name)
		}
		names := np.Graph.Services
		for i, n := range names {
			switch {
			case n == hit && !want[at+2][i].Unhealthy:
				t.Errorf("%s: %s, out from %d s, healthy at %d s: %+v", name, n, at, at+2, want[at+2][i])
			case n == hit && want[at+2][i].Succeeded != 0:
				t.Errorf("%s: %s out, yet %v calls succeeded at %d s", name, n, want[at+2][i].Succeeded, at+2)
			case n == "b" && want[at+2][i].Unhealthy:
				t.Errorf("%s: b, untouched, unhealthy at %d s", name, at+2)
			}
		}
	}
}

// sameAsFile checks that a live run's rows and its services' rows (got)
// equal the file's (wantRows, want).
func sameAsFile(t *testing.T, name string, rows, wantRows, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(rows, wantRows) {
		t.Errorf("%s: the live run's rows differ from the file's", name)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the live run's services' rows differ from the file's", name)
	}
}
