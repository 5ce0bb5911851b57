package model

import (
	"strings"
	"testing"
	"time"
)

// priorityStorm is the 30-second-blip database (100 calls/s, oldest first,
// callers that give up after 1 s and try three times, work abandoned still
// served) at 70 requests/s, arriving evenly, after a 10 s outage at 20 s,
// on 10 ms ticks over 3 minutes.
func priorityStorm(a Admission, queue string) Scenario {
	sc := Default()
	sc.Engine = "stochastic"
	sc.Tick = ms(10)
	sc.Duration = Duration(3 * time.Minute)
	sc.Load, sc.Arrivals = 70, "constant"
	sc.Layer = []Layer{DefaultLayer()}
	sc.Layer[0].Attempts = 3
	sc.Layer[0].Timeout = Duration(time.Second)
	sc.Dependency.Capacity = 100
	sc.Dependency.Queue = queue
	sc.Dependency.Admission = a
	sc.Fault = []Fault{{Kind: "outage", Start: Duration(20 * time.Second), Length: Duration(10 * time.Second), Factor: 1}}
	return sc
}

// TestPriorityClasses: oldest first, the storm the outage leaves never
// ends. With first tries served before retries it does: the retries wait
// in their own room, served with what first tries leave, and only the
// outage's 700 first tries, abandoned but still served, stand before new
// ones; they drain at the 30 calls a second the 70 new ones leave, so the
// waiting room in front of a new request is back within the healthy 100
// calls (capacity × timeout) (700 − 100) / 30 = 20 s after the outage.
// The health rule reads that room (fronted); the peak queue counts both.
func TestPriorityClasses(t *testing.T) {
	fifo := runOnce(t, priorityStorm(Admission{Kind: "none"}, "fifo"))
	if fifo.Verdict != Stuck {
		t.Fatalf("oldest first without priority: %v, want stuck (the storm the test is about)", fifo.Verdict)
	}
	for _, queue := range []string{"fifo", "lifo"} {
		prio := runOnce(t, priorityStorm(Admission{Kind: "priority"}, queue))
		if prio.Verdict != Recovered || prio.RecoveryS > 21 {
			t.Errorf("%s with priority classes: %v after %.2f s, want recovered within 21 s of the outage's end", queue, prio.Verdict, prio.RecoveryS)
		}
		if prio.Successful < 2*fifo.Successful || prio.Failed > fifo.Failed/2 {
			t.Errorf("%s with priority classes: %v requests succeeded and %v failed, oldest first without them %v and %v: want far more successes, far fewer failures",
				queue, prio.Successful, prio.Failed, fifo.Successful, fifo.Failed)
		}
		if prio.PeakQueue < 1000 {
			t.Errorf("%s with priority classes: peak queue %v, want the starved retries counted (over 1,000)", queue, prio.PeakQueue)
		}
	}
}

// TestPriorityFixedForTheRun: priority classes keep two rooms from the
// start, so a change that starts or stops them is refused, naming the key.
func TestPriorityFixedForTheRun(t *testing.T) {
	for _, from := range []string{"none", "priority"} {
		to := map[string]string{"none": "priority", "priority": "none"}[from]
		sc := priorityStorm(Admission{Kind: from}, "fifo")
		then := sc
		then.Dependency.Admission = Admission{Kind: to}
		sc.Change = []Change{{At: Duration(time.Minute), Set: map[string]any{"dependency.admission.kind": to}, Then: &then}}
		_, err := sc.Resolve()
		if err == nil || !strings.Contains(err.Error(), "priority classes") || !strings.Contains(err.Error(), "change.0.set") {
			t.Errorf("admission %s changed to %s during the run: %v, want it refused by name", from, to, err)
		}
	}
}
