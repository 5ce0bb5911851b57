package model

import (
	"errors"
	"testing"
	"time"
)

// faultedPool is a pool of 10 workers with a constant service of 100 ms
// (100 calls/s) under 80 requests/s arriving evenly, one try each that
// waits an hour, and fault f from 10 s to 20 s of a 30 s run on 10 ms ticks.
func faultedPool(f Fault) Scenario {
	sc := poolScenario(80, 10, 10, 30)
	sc.Tick = Duration(10 * time.Millisecond)
	sc.Arrivals = "constant"
	sc.Dependency.Service = Service{Kind: "constant"}
	f.Start, f.Length = Duration(10*time.Second), Duration(10*time.Second)
	sc.Fault = []Fault{f}
	return sc
}

// rowsOf runs sc once with its series.
func rowsOf(t *testing.T, sc Scenario) []SeriesRow {
	t.Helper()
	res, err := Run(sc, 7, true)
	if err != nil {
		t.Fatal(err)
	}
	return res.Series.Rows
}

// served sums the calls served a second over the rows from a to b − 1.
func servedOver(rows []SeriesRow, a, b int) float64 {
	var n float64
	for _, r := range rows[a:b] {
		n += r.Served
	}
	return n / float64(b-a)
}

// TestPoolFewerWorkers: a degradation to 30 calls/s leaves the pool 3 of
// its 10 workers, which serve 30 calls a second of the 80 offered; the
// workers come back with the capacity.
func TestPoolFewerWorkers(t *testing.T) {
	rows := rowsOf(t, faultedPool(Fault{Kind: "degradation", Capacity: 30}))
	if got := servedOver(rows, 2, 10); got != 80 {
		t.Errorf("before the fault: %v calls served a second, want the 80 offered", got)
	}
	if got := servedOver(rows, 11, 20); got != 30 {
		t.Errorf("during the degradation: %v calls served a second, want 30 (3 workers at 10 a second)", got)
	}
	if got := servedOver(rows, 21, 30); got != 100 {
		t.Errorf("after it: %v calls served a second, want the 10 workers' 100 while the backlog drains", got)
	}
}

// TestPoolSlowerService: a slowdown by 2 keeps the pool's 10 workers but
// doubles the service time of the calls started during it (200 ms), so
// they serve 50 calls a second; service_mean_s is the mix of both.
func TestPoolSlowerService(t *testing.T) {
	sc := faultedPool(Fault{Kind: "slowdown", Factor: 2})
	rows := rowsOf(t, sc)
	if got := servedOver(rows, 11, 20); got != 50 {
		t.Errorf("during the slowdown: %v calls served a second, want 50 (10 workers at 200 ms)", got)
	}
	res, err := Run(sc, 7, false)
	if err != nil {
		t.Fatal(err)
	}
	// 500 calls at 200 ms among the served ones at 100 ms
	if want := (0.1*(res.Served+float64(res.Pending)-500) + 0.2*500) / (res.Served + float64(res.Pending)); res.ServiceMeanS < 0.1 || res.ServiceMeanS > want+0.005 {
		t.Errorf("service_mean_s = %v, want between 0.1 and %.4f", res.ServiceMeanS, want)
	}
}

// TestPoolOutageInService: when an outage starts, the 8 calls on the
// workers (80 a second for 100 ms) finish (in_service = finish), fail at
// once (fail) or stop until it ends and then finish (hang); no call starts
// during it either way. In the second after it, the 10 workers start
// afresh and each ends 9 calls (the tenth ends at 21 s); with hang, 8 of
// them first end their hung call, 10 ms to 90 ms of service left, and
// then 9 more: 98.
func TestPoolOutageInService(t *testing.T) {
	for _, tc := range []struct {
		mode            string
		okAt10, errAt10 float64 // answers in the outage's first second
		okAt20          float64 // calls served in the second after it
	}{
		{"", 8, 0, 90},
		{"finish", 8, 0, 90},
		{"fail", 0, 8, 90},
		{"hang", 0, 0, 98},
	} {
		rows := rowsOf(t, faultedPool(Fault{Kind: "outage", InService: tc.mode}))
		r := rows[10]
		if r.Successes != tc.okAt10 || r.Failures != tc.errAt10 {
			t.Errorf("in_service %q: %v successes and %v failures in the outage's first second, want %v and %v", tc.mode, r.Successes, r.Failures, tc.okAt10, tc.errAt10)
		}
		for _, r := range rows[11:20] {
			if r.Successes+r.Failures+r.Served != 0 {
				t.Errorf("in_service %q: answers or service at %v s, during the outage", tc.mode, r.T)
			}
		}
		if got := rows[20].Served; got != tc.okAt20 {
			t.Errorf("in_service %q: %v calls served in the second after the outage, want %v", tc.mode, got, tc.okAt20)
		}
	}
}

// TestInServiceRefused: in_service is an outage's key and acts on a worker
// pool only; elsewhere it is refused at its key rather than ignored.
func TestInServiceRefused(t *testing.T) {
	capacity := faultedPool(Fault{Kind: "outage", InService: "hang"})
	capacity.Dependency.Capacity, capacity.Dependency.Workers = 100, 0
	for name, sc := range map[string]Scenario{
		"a degradation": faultedPool(Fault{Kind: "degradation", Capacity: 30, InService: "fail"}),
		"a fifo server": capacity,
	} {
		_, err := sc.Resolve()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != "fault.0.in_service" {
			t.Errorf("in_service on %s: got %v, want an error at fault.0.in_service", name, err)
		}
	}
	ok := faultedPool(Fault{Kind: "outage", InService: "fail"})
	if _, err := ok.Resolve(); err != nil {
		t.Errorf("in_service on a pool's outage: %v", err)
	}
}
