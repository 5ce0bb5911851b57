package plots

import (
	"slices"
	"testing"
)

// TestRateText: a capacity reads as a person would write it.
func TestRateText(t *testing.T) {
	for x, want := range map[float64]string{100: "100", 12000: "12,000", 1e8: "100,000,000", 12345.6: "12,350", 100.2: "100.2", 100.00117794669637: "100", 33.333333: "33.33", 0.5: "0.5"} {
		if got := rateText(x); got != want {
			t.Errorf("rateText(%v) = %q, want %q", x, got, want)
		}
	}
}

// TestGraphFacts: a service graph's caption names its servers' capacities
// and queues, once when every server has the same, and the service a fault
// hits.
func TestGraphFacts(t *testing.T) {
	row := func(faults []Fault, servers ...ServerFacts) Row {
		return Row{Facts: Facts{Engine: "stochastic", Capacity: servers[0].Capacity, Server: servers[0].Server, Load: 100,
			Arrivals: "open", Attempts: 6, Replicates: 1, Servers: servers, Faults: faults}}
	}
	outage := []Fault{{Kind: "outage", Start: 60e9, Length: 10e9, Service: "db"}}
	a, b := ServerFacts{"search", 400, "fifo"}, ServerFacts{"db", 200, "none"}
	for _, c := range []struct {
		rows []Row
		want []string
	}{
		{[]Row{row(outage, a, b)}, []string{"capacity search 400 / db 200 calls/s", "queue search fifo / db none (none: a loss server)", "outage of db at 60s for 10s"}},
		{[]Row{row(nil, a, ServerFacts{"db", 400, "fifo"})}, []string{"capacity 400 calls/s at every server", "no fault"}},
		{[]Row{row(outage, b)}, []string{"capacity db 200 calls/s", "no queue (a loss server)"}},
		{[]Row{row(nil, a, b), row(nil, a, ServerFacts{"db", 300, "none"})}, []string{"capacity search 400 / db 200 or 300 calls/s"}},
		{[]Row{row(nil, a, b), row(nil, a)}, []string{"capacity 200 or 400 calls/s, by server", "queue fifo or none by server (none: a loss server)"}},
	} {
		got := facts(c.rows)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("facts %q lack %q", got, w)
			}
		}
	}
}
