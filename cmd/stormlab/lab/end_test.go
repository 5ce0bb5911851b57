package lab

import (
	"context"
	"sync"
	"testing"
	"time"
)

// A run whose time is up while calls wait at the dependency ends with
// them in its last tick's waiting room: endRun has the dependency serve
// and record its last tick before the callers are stopped, and stopping
// them withdraws every call. The other order recorded an empty room, and
// the queue rule judged a stuck server of FIG. 1 recovered at the end.
func TestEndRunRecordsTheLastTicksRoom(t *testing.T) {
	p := load(t, "server-60").Grid.Cells()[0].Plan
	clk := newClock(1, p.TickS, p.Ticks)
	clk.begin()
	clk.start = clk.start.Add(-clk.wallTicks(float64(p.Ticks))) // the run's time is up
	k := newCounters(clk)
	dep := newDependency(p, clk, k, 1)
	dep.served = p.Ticks - 2 // the work loop served every tick but the last

	const calls = 20
	ctx, stop := context.WithCancel(context.Background())
	defer stop() // lets the calls go if the test stops early
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() { dep.call(ctx, note{}) })
	}
	for waiting, deadline := int64(0), time.Now().Add(10*time.Second); waiting < calls; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d calls waiting at the dependency after 10 s", waiting, calls)
		}
		dep.mu.Lock()
		waiting = dep.live
		dep.mu.Unlock()
	}
	endRun(dep, stop, wg.Wait)

	served := k.at(cServed, p.Ticks-1)
	if got, want := k.queues()[p.Ticks-1], calls-served; got != want || want == 0 {
		t.Errorf("the last tick's waiting room holds %d calls, want the %d of %d still waiting when the run's time was up (%d served in it)", got, want, calls, served)
	}
	if dep.live != 0 {
		t.Errorf("%d calls still waiting after the run ended, want none", dep.live)
	}
}
