package model

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestSteadyJumpsAreExact: the queue engine jumps over repeating ticks only
// when no series is recorded; with one recorded it steps every tick. Both
// must give the same metrics, on random scenarios and on the cells of the
// blip phase diagram (storms that never end, slow drains, quick recoveries).
func TestSteadyJumpsAreExact(t *testing.T) {
	long(t)
	var cases []Scenario
	r := rand.New(rand.NewPCG(31, 32))
	for range 300 {
		sc := randomQueueScenario(r)
		sc.Arrivals = "constant"
		cases = append(cases, sc)
	}
	for _, policy := range []string{"1", "27", "27 + budget", "27, drop"} {
		for load := 50; load <= 95; load += 9 {
			for length := 0; length <= 60; length += 7 {
				sc := blip(27)
				sc.Load = float64(load)
				sc.Fault[0].Length = Duration(time.Duration(length) * time.Second)
				switch policy {
				case "1":
					sc.Layer[0].Attempts = 1
				case "27 + budget":
					sc.Budget = Budget{Kind: "per_tick", Scope: "chain", Params: PerTickParams{Ratio: 0.1}}
				case "27, drop":
					sc.Dependency.DropExpired = true
				}
				cases = append(cases, sc)
			}
		}
	}
	jumped, blips := 0, 0
	for i, sc := range cases {
		p, err := sc.Resolve()
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		fast := newQueueSim(p, 1, false)
		got := fast.run()
		want := newQueueSim(p, 1, true).run()
		if fast.st != nil && fast.st.jumped > 0 {
			jumped++
		}
		if i >= 300 && (fast.st == nil || fast.st.jumped < p.Ticks/2) {
			blips++
			t.Logf("blip cell %d jumped %v ticks of %d: %+v", i, fast.st.jumped, p.Ticks, sc.Budget)
		}
		if a, b := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", want); a != b {
			t.Fatalf("case %d: jumping\n%s\nstepping\n%s\n%+v", i, a, b, sc)
		}
	}
	if jumped < 240 {
		t.Errorf("only %d of %d runs jumped over repeating ticks", jumped, len(cases))
	}
	if blips > 0 {
		t.Errorf("%d cells of the blip phase diagram stepped through most of their hour", blips)
	}
}
