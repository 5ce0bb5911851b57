package model

import (
	"math"
	"testing"
	"time"
)

// blip is the system of "Retry Storms: Simulate How a 30-Second Blip Becomes
// an Outage That Never Ends": capacity 100/s, 70 new requests/s, 1 s timeout,
// a 30 s outage at 60-90 s, one hour of 1 s ticks.
func blip(attempts int) Scenario {
	s := Default()
	s.Layer[0].Attempts = attempts
	s.Fault = []Fault{{Kind: "outage", Start: Duration(60 * time.Second), Length: Duration(30 * time.Second), Factor: 1}}
	return s
}

func TestBlipArticleRows(t *testing.T) {
	budget := blip(27)
	budget.Budget = Budget{Kind: "per_tick", Scope: "chain", Params: PerTickParams{Ratio: 0.1}}
	drop := blip(27)
	drop.Dependency.DropExpired = true
	for _, c := range []struct {
		name      string
		sc        Scenario
		recovery  float64 // NaN = never
		peakLoad  string
		peakQueue float64
		wasted    string
	}{
		{"no retries", blip(1), 66, "1.0", 2100, "3"},
		{"3 layers x 3", blip(27), math.NaN(), "27.0", 6290460, "99"},
		{"same + budget", budget, 95, "1.1", 2296, "4"},
		{"27 attempts, expired dropped", drop, 36, "16.0", -1, "0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Run(c.sc, 1, false)
			if err != nil {
				t.Fatal(err)
			}
			t.Log(r.Metrics)
			if math.IsNaN(c.recovery) {
				if r.Recovered() {
					t.Errorf("recovered after %v s, want never", r.RecoveryS)
				}
			} else if !r.Recovered() || r.RecoveryS != c.recovery {
				t.Errorf("recovered=%v after %v s, want after %v s", r.Recovered(), r.RecoveryS, c.recovery)
			}
			if got := fmt1(r.PeakLoadX); got != c.peakLoad {
				t.Errorf("peak load %sx, want %sx", got, c.peakLoad)
			}
			if c.peakQueue >= 0 && r.PeakQueue != c.peakQueue {
				t.Errorf("peak queue %v, want %v", r.PeakQueue, c.peakQueue)
			}
			if got := pct(r.Wasted()); got != c.wasted {
				t.Errorf("wasted %s%%, want %s%%", got, c.wasted)
			}
		})
	}
}
