package model

import (
	"errors"
	"math"
	"testing"
	"time"
)

// admittedPool is a pool of 10 workers with a constant service of 100 ms
// (100 calls/s) under load requests/s arriving evenly, one try each that
// waits an hour, for 60 s on 10 ms ticks, behind the admission rule a.
func admittedPool(load float64, a Admission) Scenario {
	sc := poolScenario(load, 10, 10, 60)
	sc.Tick = Duration(10 * time.Millisecond)
	sc.Arrivals = "constant"
	sc.Dependency.Service = Service{Kind: "constant"}
	sc.Dependency.Admission = a
	return sc
}

func runOnce(t *testing.T, sc Scenario) Result {
	t.Helper()
	res, err := Run(sc, 5, false)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestQueueTimeLimit: at 150 requests/s on 100 calls/s, without a rule the
// wait grows to half the run (the 3,000 calls of excess queued); with a
// queue timeout of 500 ms no call served waited longer, and the excess,
// 50 a second, is shed.
func TestQueueTimeLimit(t *testing.T) {
	none := runOnce(t, admittedPool(150, Admission{Kind: "none"}))
	lim := runOnce(t, admittedPool(150, Admission{Kind: "queue_time", Params: QueueTimeParams{MaxWait: Duration(500 * time.Millisecond)}}))
	if none.WaitMeanS < 5 || none.Failed != 0 {
		t.Errorf("no rule: mean wait %.3f s and %v failed, want the wait to grow (> 5 s) and nothing shed", none.WaitMeanS, none.Failed)
	}
	if lim.WaitMeanS > 0.5 {
		t.Errorf("queue_time 500ms: mean wait %.3f s, want at most 0.5 s", lim.WaitMeanS)
	}
	if want := 50.0 * 60; lim.Failed < 0.95*want || lim.Failed > want {
		t.Errorf("queue_time 500ms: %v requests shed, want about the excess of 50 a second (%v, less what still waits)", lim.Failed, want)
	}
}

// TestCoDel: under the same overload the room stands, so a call may wait
// at most the target (5 ms: one tick) and the excess is shed; at 40 calls
// a second on the same 100, Poisson, the room empties within almost every
// interval: CoDel sheds under 1% (a call is shed only after the room stood
// for 100 ms).
func TestCoDel(t *testing.T) {
	codel := Admission{Kind: "codel", Params: CoDelParams{Target: Duration(5 * time.Millisecond), Interval: Duration(100 * time.Millisecond)}}
	over := runOnce(t, admittedPool(150, codel))
	if over.WaitMeanS > 0.01 || over.Failed < 0.95*50*60 {
		t.Errorf("codel at 150/s: mean wait %.4f s and %v shed, want at most the target's tick (0.01 s) and about 3,000 shed", over.WaitMeanS, over.Failed)
	}
	light := admittedPool(40, codel)
	light.Arrivals = "poisson"
	if r := runOnce(t, light); r.Failed > 0.01*r.Requests {
		t.Errorf("codel at 40/s: %v of %v requests shed, want under 1%%", r.Failed, r.Requests)
	}
}

// TestAdaptiveLIFO: under the overload the room serves newest first once
// it has stood for an interval, with CoDel's limits shedding the calls left
// behind: the calls served waited at most the interval (0.1 s), and the
// excess is shed. While the room drains it serves oldest first: with
// arrivals that never wait (70 a second, evenly), it gives the fifo room's
// answers exactly.
func TestAdaptiveLIFO(t *testing.T) {
	alifo := Admission{Kind: "adaptive_lifo", Params: CoDelParams{Target: Duration(5 * time.Millisecond), Interval: Duration(100 * time.Millisecond)}}
	over := runOnce(t, admittedPool(150, alifo))
	if over.WaitMeanS > 0.1 || over.Failed < 0.95*50*60 {
		t.Errorf("adaptive_lifo at 150/s: mean wait %.4f s and %v shed, want at most 0.1 s and about 3,000 shed", over.WaitMeanS, over.Failed)
	}
	a, b := runOnce(t, admittedPool(70, alifo)), runOnce(t, admittedPool(70, Admission{Kind: "none"}))
	if a.Failed != 0 || a.Successful != b.Successful || a.WaitMeanS != b.WaitMeanS {
		t.Errorf("adaptive_lifo at 70/s: %v shed, %v successes, mean wait %v s; want none shed and the fifo room's %v and %v s", a.Failed, a.Successful, a.WaitMeanS, b.Successful, b.WaitMeanS)
	}
	t.Logf("adaptive_lifo at 150/s: mean wait %.4f s, %v shed", over.WaitMeanS, over.Failed)
}

// TestAdmissionRefused: a rule acts on calls waiting, so a loss server
// refuses it; CoDel's target may not exceed its interval.
func TestAdmissionRefused(t *testing.T) {
	loss := admittedPool(50, Admission{Kind: "codel"})
	loss.Dependency.Queue = "none"
	long := admittedPool(50, Admission{Kind: "codel", Params: CoDelParams{Target: Duration(time.Second), Interval: Duration(100 * time.Millisecond)}})
	for name, tc := range map[string]struct {
		sc   Scenario
		path string
	}{
		"a loss pool":       {loss, "dependency.admission.kind"},
		"a target too long": {long, "dependency.admission.target"},
	} {
		_, err := tc.sc.Resolve()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != tc.path {
			t.Errorf("%s: got %v, want an error at %s", name, err, tc.path)
		}
	}
}

// TestShedCounted: the calls an admission rule sheds are a result column
// (Shed): with one try each and no retries, every request the queue timeout
// failed is a call it shed; without a rule the column is empty (NaN), and
// priority classes, which shed nothing, count none.
func TestShedCounted(t *testing.T) {
	lim := runOnce(t, admittedPool(150, Admission{Kind: "queue_time", Params: QueueTimeParams{MaxWait: Duration(500 * time.Millisecond)}}))
	if lim.Shed == 0 || lim.Shed != lim.Failed {
		t.Errorf("queue timeout: %v calls shed, %v requests failed: want them equal and above 0", lim.Shed, lim.Failed)
	}
	none := runOnce(t, admittedPool(150, Admission{Kind: "none"}))
	if !math.IsNaN(none.Shed) {
		t.Errorf("no rule: shed %v, want NaN (not measured)", none.Shed)
	}
	prio := runOnce(t, admittedPool(150, Admission{Kind: "priority"}))
	if prio.Shed != 0 {
		t.Errorf("priority classes: %v calls shed, want 0", prio.Shed)
	}
}
