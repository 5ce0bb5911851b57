package model

import (
	"math"
	"testing"
	"time"
)

// overloadScenario: 200 requests/s, one attempt each, against a FIFO
// capacity server of 100 calls/s, on 10 ms ticks (two calls arrive a tick,
// one is served), for 10 s: the waiting room grows by one call a tick
// unless something sheds.
func overloadScenario(adm Admission, timeout time.Duration) Scenario {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Tick = ms(10)
	sc.Duration = Duration(10 * time.Second)
	sc.Load, sc.Arrivals = 200, "constant"
	sc.Layer = []Layer{DefaultLayer()}
	sc.Layer[0].Attempts = 1
	sc.Layer[0].Timeout = Duration(timeout)
	sc.Dependency.Capacity = 100
	sc.Dependency.Admission = adm
	sc.Fault = nil
	return sc
}

func runOnce(t *testing.T, sc Scenario) Result {
	t.Helper()
	r, err := Run(sc, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestQueueTimeout: with max_wait = 100 ms (10 ticks) no call waits more
// than 10 ticks, so at most two calls a tick for 11 ticks are ever waiting;
// what is not served is shed, answered with an error at once.
func TestQueueTimeout(t *testing.T) {
	r := runOnce(t, overloadScenario(Admission{Kind: "queue_timeout", Params: QueueTimeoutParams{MaxWait: ms(100)}}, time.Hour))
	if r.PeakQueue > 22 {
		t.Errorf("peak queue %v, want at most 22 (two calls a tick for 11 ticks)", r.PeakQueue)
	}
	if r.Served > 1000 || r.Served < 990 {
		t.Errorf("served %v, want the capacity's 1,000 less the first ticks", r.Served)
	}
	if got, want := r.Shed, r.Requests-r.Served-r.Pending; got != want {
		t.Errorf("shed %v, want every request neither served nor waiting: %v", got, want)
	}
	if r.Failed != r.Shed {
		t.Errorf("failed %v, want the shed calls %v (no retries)", r.Failed, r.Shed)
	}
	// without a rule the room keeps every call and Shed is not measured
	none := runOnce(t, overloadScenario(Admission{Kind: "none"}, time.Hour))
	if !math.IsNaN(none.Shed) || none.PeakQueue < 900 {
		t.Errorf("no admission rule: shed %v (want NaN), peak queue %v (want about 1,000)", none.Shed, none.PeakQueue)
	}
}

// TestCoDel: once the room has held calls for longer than interval
// (100 ms) its limit falls from interval to target (20 ms, 2 ticks), so
// the queue shrinks from about 22 calls to at most 6 and stays there.
func TestCoDel(t *testing.T) {
	r := runOnce(t, overloadScenario(Admission{Kind: "codel", Params: CoDelParams{Target: ms(20), Interval: ms(100)}}, time.Hour))
	if r.PeakQueue > 22 {
		t.Errorf("peak queue %v, want at most 22 (the interval's limit, 10 ticks, at first)", r.PeakQueue)
	}
	if r.EndBacklog > 6 {
		t.Errorf("queue at the end %v, want at most 6 (two calls a tick for 3 ticks)", r.EndBacklog)
	}
	a := newCoDel(CoDelParams{Target: ms(20), Interval: ms(100)}, 100, false)
	for _, c := range []struct{ now, since, cutoff int64 }{{10, 0, 10}, {11, 0, 2}, {50, 45, 10}} {
		if got := a.cutoff(c.now, c.since); got != c.cutoff {
			t.Errorf("cutoff(now %d, holding calls since %d) = %d ticks, want %d", c.now, c.since, got, c.cutoff)
		}
	}
}

// TestAdaptiveLIFO: callers give up after 50 ms while the room keeps
// calls for up to 200 ms (target) once overloaded. Oldest first, the
// server spends nearly all its work on calls whose callers are gone;
// adaptive LIFO serves the newest, whose callers still wait.
func TestAdaptiveLIFO(t *testing.T) {
	p := CoDelParams{Target: ms(200), Interval: ms(100)}
	fifo := runOnce(t, overloadScenario(Admission{Kind: "codel", Params: p}, 50*time.Millisecond))
	lifo := runOnce(t, overloadScenario(Admission{Kind: "adaptive_lifo", Params: p}, 50*time.Millisecond))
	if w := fifo.Wasted(); w < 0.9 {
		t.Errorf("codel, oldest first: %.2f of the work wasted, want above 0.9", w)
	}
	if w := lifo.Wasted(); w > 0.1 {
		t.Errorf("adaptive LIFO: %.2f of the work wasted, want below 0.1", w)
	}
	if lifo.Successful < 5*fifo.Successful {
		t.Errorf("adaptive LIFO answered %v requests, codel oldest first %v: want far more", lifo.Successful, fifo.Successful)
	}
	a := newCoDel(p, 100, true)
	if a.newestFirst(10, 0) || !a.newestFirst(11, 0) {
		t.Error("adaptive LIFO: newest first only once the room has held calls for more than an interval")
	}
}
