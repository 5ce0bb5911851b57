package model

import (
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"
)

// The system of "Retries and Storm Risk": a loss server with 6 calls per
// 10 ms round (600/s), Poisson arrivals at 97.22 requests/s, 4,000 rounds,
// a flat caller whose attempts are the product of a three-layer chain's,
// exponential backoff of 2 rounds doubling to a cap of 32 with full jitter,
// and the MINSTD generator seeded with 20260802. Its three profiles:
// healthy (2.5% background failures), an outage of 1 s and a degradation
// to 100/s for 10 s, both from second 5 and with no background failures.

const stormSeed = 20260802

func stormProfile(profile string, attempts [3]int, budget float64) Scenario {
	s := Default()
	s.Engine = "stochastic"
	s.RNG = "minstd"
	s.Chain = "flat"
	s.Tick = Duration(10 * time.Millisecond)
	s.Duration = Duration(40 * time.Second)
	s.Load = 97.22
	s.Arrivals = "poisson"
	s.Dependency.Capacity = 600
	s.Dependency.Queue = "none"
	s.Layer = nil
	for _, a := range attempts {
		l := DefaultLayer()
		l.Attempts = a
		l.Backoff = Backoff{Kind: "exponential", Base: Duration(20 * time.Millisecond), Factor: 2,
			Cap: Duration(320 * time.Millisecond), Jitter: "full"}
		s.Layer = append(s.Layer, l)
	}
	if budget > 0 {
		s.Budget = Budget{Kind: "ratio", Scope: "chain", Params: RatioParams{Ratio: budget}}
	}
	switch profile {
	case "healthy":
		s.Dependency.FailureProbability = 0.025
	case "outage":
		s.Fault = []Fault{{Kind: "outage", Start: Duration(5 * time.Second), Length: Duration(time.Second), Factor: 1}}
	case "degradation":
		s.Fault = []Fault{{Kind: "degradation", Start: Duration(5 * time.Second), Length: Duration(10 * time.Second), Capacity: 100, Factor: 1}}
	}
	return s
}

var stormConfigs = []struct {
	name     string
	attempts [3]int
	budget   float64
}{
	{"no retries", [3]int{1, 1, 1}, 0},
	{"gateway only (3)", [3]int{3, 1, 1}, 0},
	{"two layers (3x3)", [3]int{3, 3, 1}, 0},
	{"three layers (3x3x3)", [3]int{3, 3, 3}, 0},
	{"three layers + budget 0.30", [3]int{3, 3, 3}, 0.3},
}

// stormRow is one printed row of the article's tables: calls, the
// multiplier, peak calls per round, successful, dropped, and under a fault
// the window's calls per round and that rate over the usual one.
type stormRow struct {
	calls      int
	multiplier string
	peak       int
	successful int
	dropped    int
	window     string
	times      string
}

func stormRun(t testing.TB, profile string, attempts [3]int, budget float64) (Metrics, stormRow) {
	t.Helper()
	sc := stormProfile(profile, attempts, budget)
	r, err := Run(sc, stormSeed, false)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Metrics
	row := stormRow{
		calls:      int(m.Calls),
		multiplier: "x" + strconv.FormatFloat(m.Amplification(), 'f', 2, 64),
		peak:       int(m.PeakCalls),
		successful: int(m.Successful),
		dropped:    int(m.Failed),
	}
	if len(sc.Fault) > 0 {
		// Back from calls per second to the count, then per round as printed.
		rounds := float64(sc.Fault[0].Length) / float64(sc.Tick)
		count := math.Round(m.WindowCalls * sc.Fault[0].Length.Seconds())
		perRound := count / rounds
		row.window = strconv.FormatFloat(perRound, 'f', 2, 64)
		row.times = "x" + strconv.FormatFloat(m.WindowRateX, 'f', 1, 64)
		if alt := "x" + strconv.FormatFloat(perRound/(sc.Load*sc.Tick.Seconds()), 'f', 1, 64); alt != row.times {
			t.Errorf("%s %v: times usual rate %s from metrics, %s from the count", profile, attempts, row.times, alt)
		}
	}
	return m, row
}

func TestStormChainArticleTables(t *testing.T) {
	want := map[string][]stormRow{
		"healthy": {
			{3832, "x1.00", 6, 3736, 96, "", ""},
			{3953, "x1.03", 6, 3851, 0, "", ""},
			{3953, "x1.03", 6, 3851, 0, "", ""},
			{3953, "x1.03", 6, 3851, 0, "", ""},
			{3953, "x1.03", 6, 3851, 0, "", ""},
		},
		"outage": {
			{3855, "x1.00", 5, 3775, 80, "0.80", "x0.8"},
			{4071, "x1.05", 8, 3782, 94, "2.89", "x3.0"},
			{4435, "x1.15", 13, 3850, 20, "5.77", "x5.9"},
			{4523, "x1.17", 17, 3870, 0, "6.24", "x6.4"},
			{4065, "x1.05", 10, 3777, 103, "2.88", "x3.0"},
		},
		"degradation": {
			{3855, "x1.00", 5, 3534, 321, "0.95", "x1.0"},
			{4913, "x1.28", 8, 3754, 94, "2.01", "x2.1"},
			{5296, "x1.39", 9, 3803, 0, "2.39", "x2.5"},
			{5296, "x1.39", 9, 3803, 0, "2.39", "x2.5"},
			{4288, "x1.11", 7, 3643, 220, "1.40", "x1.4"},
		},
	}
	for _, profile := range []string{"healthy", "outage", "degradation"} {
		for i, c := range stormConfigs {
			t.Run(profile+"/"+c.name, func(t *testing.T) {
				m, got := stormRun(t, profile, c.attempts, c.budget)
				if got != want[profile][i] {
					t.Errorf("got  %+v\nwant %+v\n%v", got, want[profile][i], m)
				}
				if m.Requests != m.Successful+m.Failed+m.Pending {
					t.Errorf("requests %v ≠ successful + failed + pending (%v)", m.Requests, m.Successful+m.Failed+m.Pending)
				}
			})
		}
	}
}

// TestStormChainArticleSummary checks the numbers of the summary lines that
// come from runs (the others repeat table cells).
func TestStormChainArticleSummary(t *testing.T) {
	f2 := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
	perRound := func(m Metrics) string { return f2(math.Round(m.WindowCalls*1) / 100) } // 1 s window: calls/s ÷ 100 rounds/s
	s0, _ := stormRun(t, "healthy", [3]int{1, 1, 1}, 0)
	s27, _ := stormRun(t, "healthy", [3]int{3, 3, 3}, 0)
	if got := fmt.Sprintf("%g -> %g (x%s), %s -> %s req/s", s0.Calls, s27.Calls, f2(s27.Amplification()),
		f2(s0.Calls/40), f2(s27.Calls/40)); got != "3832 -> 3953 (x1.03), 95.80 -> 98.83 req/s" {
		t.Errorf("failure-free day's cost: %s", got)
	}
	kb, _ := stormRun(t, "outage", [3]int{3, 3, 3}, 0.3)
	narrow, _ := stormRun(t, "outage", [3]int{3, 3, 3}, 0.1)
	if got := fmt.Sprintf("calls %g -> %g, window rate %s -> %s, dropped %g -> %g", kb.Calls, narrow.Calls,
		perRound(kb), perRound(narrow), kb.Failed, narrow.Failed); got != "calls 4065 -> 3926, window rate 2.88 -> 1.54, dropped 103 -> 90" {
		t.Errorf("sensitivity at budget 0.10: %s", got)
	}
	// The worst-case wait of 27 tries with this backoff: each retry waits at
	// most one tick plus min(cap, base × 2^n) − 1 jittered ticks.
	w := newWaits(LayerPlan{Attempts: 28, Backoff: BackoffPlan{Kind: BackoffExponential, Jitter: JitterFull, Base: 2, Factor: 2, Cap: 32}})
	worst := 0.0
	for a := int32(1); a <= 27; a++ {
		_, hi, _ := w.dist(a, 0)
		worst += 1 + hi
	}
	if got := fmt.Sprintf("%g rounds, %.1f times a 20-round threshold", worst, worst/20); got != "793 rounds, 39.6 times a 20-round threshold" {
		t.Errorf("worst-case wait: %s", got)
	}
}
