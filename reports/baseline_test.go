package reports

import (
	"encoding/csv"
	"io"
	"math"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestBlip30sBaseline: the committed blip-30s results hold the four rows of
// "Retry Storms: Simulate How a 30-Second Blip Becomes an Outage That Never
// Ends" (the fourth from its comments), rounded as the article prints them.
func TestBlip30sBaseline(t *testing.T) {
	f, err := os.Open("blip-30s/results.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	want := []struct{ policy, recovery, peakLoad, peakQueue, wasted string }{
		{"no retries", "66", "1.0", "2100", "3"},
		{"3 layers x 3 attempts", "", "27.0", "6290460", "99"},
		{"27 attempts + 10% budget", "95", "1.1", "2296", "4"},
		{"27 attempts, expired work dropped", "36", "16.0", "", "0"},
	}
	if len(rows) != len(want)+1 {
		t.Fatalf("%d rows, want %d", len(rows)-1, len(want))
	}
	for i, w := range want {
		r := rows[i+1]
		num := func(c string) float64 {
			x, err := strconv.ParseFloat(r[col[c]], 64)
			if err != nil {
				t.Fatalf("%s: %s: %v", w.policy, c, err)
			}
			return x
		}
		if r[col["policy"]] != w.policy {
			t.Errorf("row %d is %q, want %q", i+1, r[col["policy"]], w.policy)
		}
		if r[col["recovery_s"]] != w.recovery || (r[col["recovered"]] == "true") != (w.recovery != "") {
			t.Errorf("%s: recovered=%s recovery_s=%q, want %q", w.policy, r[col["recovered"]], r[col["recovery_s"]], w.recovery)
		}
		if got := strconv.FormatFloat(num("peak_load_x"), 'f', 1, 64); got != w.peakLoad {
			t.Errorf("%s: peak load %sx, want %sx", w.policy, got, w.peakLoad)
		}
		if w.peakQueue != "" && r[col["peak_queue"]] != w.peakQueue {
			t.Errorf("%s: peak queue %s, want %s", w.policy, r[col["peak_queue"]], w.peakQueue)
		}
		if got := strconv.FormatFloat(100*num("wasted"), 'f', 0, 64); got != w.wasted {
			t.Errorf("%s: wasted %s%%, want %s%%", w.policy, got, w.wasted)
		}
	}
}

// TestStormChainBaseline: the committed storm-chain results hold the three
// tables of "Retries and Storm Risk" and its sensitivity run, in its order,
// every integer equal and every ratio to the printed digits.
func TestStormChainBaseline(t *testing.T) {
	rows := readCSV(t, "storm-chain/results.csv")
	type row struct {
		profile, config            string
		allowed, calls             int
		multiplier                 string
		peak, successful, dropped  int
		windowPerRound, timesUsual string // empty on the failure-free day
	}
	want := []row{
		{"healthy", "no retries", 1, 3832, "1.00", 6, 3736, 96, "", ""},
		{"healthy", "gateway only (3)", 3, 3953, "1.03", 6, 3851, 0, "", ""},
		{"healthy", "two layers (3x3)", 9, 3953, "1.03", 6, 3851, 0, "", ""},
		{"healthy", "three layers (3x3x3)", 27, 3953, "1.03", 6, 3851, 0, "", ""},
		{"healthy", "three layers + budget 0.30", 27, 3953, "1.03", 6, 3851, 0, "", ""},
		{"outage (1 s)", "no retries", 1, 3855, "1.00", 5, 3775, 80, "0.80", "0.8"},
		{"outage (1 s)", "gateway only (3)", 3, 4071, "1.05", 8, 3782, 94, "2.89", "3.0"},
		{"outage (1 s)", "two layers (3x3)", 9, 4435, "1.15", 13, 3850, 20, "5.77", "5.9"},
		{"outage (1 s)", "three layers (3x3x3)", 27, 4523, "1.17", 17, 3870, 0, "6.24", "6.4"},
		{"outage (1 s)", "three layers + budget 0.30", 27, 4065, "1.05", 10, 3777, 103, "2.88", "3.0"},
		{"degradation (10 s)", "no retries", 1, 3855, "1.00", 5, 3534, 321, "0.95", "1.0"},
		{"degradation (10 s)", "gateway only (3)", 3, 4913, "1.28", 8, 3754, 94, "2.01", "2.1"},
		{"degradation (10 s)", "two layers (3x3)", 9, 5296, "1.39", 9, 3803, 0, "2.39", "2.5"},
		{"degradation (10 s)", "three layers (3x3x3)", 27, 5296, "1.39", 9, 3803, 0, "2.39", "2.5"},
		{"degradation (10 s)", "three layers + budget 0.30", 27, 4288, "1.11", 7, 3643, 220, "1.40", "1.4"},
		{"outage (1 s)", "three layers + budget 0.10", 27, 3926, "", 0, 0, 90, "1.54", ""},
	}
	if len(rows.data) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows.data), len(want))
	}
	for i, w := range want {
		r := rows.row(i)
		name := w.profile + " / " + w.config
		if r.text("profile") != w.profile || r.text("configuration") != w.config {
			t.Fatalf("row %d is %s / %s, want %s", i+1, r.text("profile"), r.text("configuration"), name)
		}
		ints := []struct {
			col  string
			want int
		}{{"attempts_allowed", w.allowed}, {"calls", w.calls}, {"peak_calls", w.peak}, {"successful", w.successful}, {"failed", w.dropped}}
		for _, c := range ints {
			if c.want == 0 && (c.col == "peak_calls" || c.col == "successful") && w.multiplier == "" {
				continue // the sensitivity line prints calls, rate and dropped only
			}
			if got := r.num(c.col); got != float64(c.want) {
				t.Errorf("%s: %s = %v, want %d", name, c.col, got, c.want)
			}
		}
		if w.multiplier != "" {
			if got := strconv.FormatFloat(r.num("amplification"), 'f', 2, 64); got != w.multiplier {
				t.Errorf("%s: multiplier x%s, want x%s", name, got, w.multiplier)
			}
		}
		if w.windowPerRound != "" {
			if got := strconv.FormatFloat(r.num("window_calls_per_tick"), 'f', 2, 64); got != w.windowPerRound {
				t.Errorf("%s: window calls/round %s, want %s", name, got, w.windowPerRound)
			}
		}
		if w.timesUsual != "" {
			if got := strconv.FormatFloat(r.num("window_rate_x"), 'f', 1, 64); got != w.timesUsual {
				t.Errorf("%s: x%s the usual rate, want x%s", name, got, w.timesUsual)
			}
		}
	}
}

// csvTable is a results.csv read for assertions.
type csvTable struct {
	col  map[string]int
	data [][]string
	t    *testing.T
}

type csvRow struct {
	tab *csvTable
	r   []string
}

func readCSV(t *testing.T, path string) *csvTable {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return tableOf(t, f)
}

// tableOf reads a results.csv for assertions.
func tableOf(t *testing.T, r io.Reader) *csvTable {
	t.Helper()
	all, err := csv.NewReader(r).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	tab := &csvTable{col: map[string]int{}, data: all[1:], t: t}
	for i, h := range all[0] {
		tab.col[h] = i
	}
	return tab
}

func (c *csvTable) row(i int) csvRow { return csvRow{c, c.data[i]} }

func (r csvRow) text(col string) string {
	i, ok := r.tab.col[col]
	if !ok {
		r.tab.t.Fatalf("no column %s", col)
	}
	return r.r[i]
}

func (r csvRow) num(col string) float64 {
	x, err := strconv.ParseFloat(r.text(col), 64)
	if err != nil {
		r.tab.t.Fatalf("%s: %v", col, err)
	}
	return x
}

// TestOneHopBaseline: the committed one-hop results hold the one-hop tables
// of "Retries can make an outage worse: designing a retry budget" exactly:
// calls at the origin, callers answered and retries the budget refused.
func TestOneHopBaseline(t *testing.T) {
	rows := readCSV(t, "one-hop/results.csv")
	want := []struct {
		origin, config           string
		calls, ok, refusedBudget float64
	}{
		{"always 503", "no retries", 50, 0, 0},
		{"always 503", "3 attempts, no budget", 150, 0, 0},
		{"always 503", "3 attempts, 10% budget", 60, 0, 50},
		{"five flaky callers", "3 attempts, no budget", 55, 50, 0},
		{"five flaky callers", "3 attempts, 10% budget", 55, 50, 0},
		{"every caller fails twice", "3 attempts, no budget", 150, 50, 0},
		{"every caller fails twice", "3 attempts, 10% budget", 60, 0, 50},
	}
	for _, w := range want {
		r, ok := rows.find(map[string]string{"origin": w.origin, "configuration": w.config})
		if !ok {
			t.Errorf("no row %s / %s", w.origin, w.config)
			continue
		}
		if r.num("calls") != w.calls || r.num("successful") != w.ok || r.num("refused_budget") != w.refusedBudget || r.num("requests") != 50 {
			t.Errorf("%s / %s: %v calls, %v ok, %v refused; want %v, %v, %v", w.origin, w.config,
				r.num("calls"), r.num("successful"), r.num("refused_budget"), w.calls, w.ok, w.refusedBudget)
		}
	}
}

// find is the first row whose columns hold the given texts.
func (c *csvTable) find(cols map[string]string) (csvRow, bool) {
	for i := range c.data {
		r := c.row(i)
		match := true
		for k, v := range cols {
			match = match && r.text(k) == v
		}
		if match {
			return r, true
		}
	}
	return csvRow{}, false
}

// TestChainBreakerBaseline: the committed chain-breaker results hold the
// lab chain's three rows of "Retries can make an outage worse: designing a
// retry budget" — 810 calls without budget or breaker, 30 with a breaker at
// every hop and 20 with a budget too, the breakers outside the retry as in
// the lab's client — and 10 with the breakers inside the retry.
func TestChainBreakerBaseline(t *testing.T) {
	rows := readCSV(t, "chain-breaker/results.csv")
	for _, w := range []struct {
		config string
		calls  float64
	}{
		{"no budget, no breaker", 810},
		{"breaker per call at every hop", 30},
		{"budget + breaker per call at every hop", 20},
		{"breaker per try at every hop", 10},
		{"budget + breaker per try at every hop", 10},
	} {
		r, ok := rows.find(map[string]string{"configuration": w.config})
		if !ok {
			t.Errorf("no row %s", w.config)
			continue
		}
		if r.num("calls") != w.calls || r.num("failed") != 10 {
			t.Errorf("%s: %v calls, %v failed; want %v and 10", w.config, r.num("calls"), r.num("failed"), w.calls)
		}
	}
}

// TestSlowDependencyBaseline: after the forty-second slowdown, per-hop
// timeouts never bring the system back within the run, and a propagated
// deadline with a retry budget, jitter and cancellation brings it back
// within a minute.
func TestSlowDependencyBaseline(t *testing.T) {
	rows := readCSV(t, "slow-dependency/results.csv")
	hop, ok := rows.find(map[string]string{"policy": "per-hop timeouts"})
	if !ok || hop.text("recovered") != "false" || hop.text("recovery_s") != "" {
		t.Errorf("per-hop timeouts: recovered=%s after %q s, want never", hop.text("recovered"), hop.text("recovery_s"))
	}
	dl, ok := rows.find(map[string]string{"policy": "deadline + budget + jitter + cancel"})
	if !ok || dl.text("recovered") != "true" || dl.num("recovery_s") > 60 {
		t.Errorf("deadline + budget: recovered=%s after %q s, want within 60 s", dl.text("recovered"), dl.text("recovery_s"))
	}
}

// TestPolicyPhaseBounds: in the committed policy-phase results every retry
// budget keeps the load on the store within the bound its own rule sets,
// in every cell of the load × outage grid. Three hops, each with its own
// budget (scope layer), each hop's first tries being the tries of the hop
// above; the experiment's tick, run and timeout below.
func TestPolicyPhaseBounds(t *testing.T) {
	const (
		tick     = 0.1    // s
		duration = 1800.0 // s
		timeout  = 1.0    // s: every try of the outage waits this long
	)
	rows := readCSV(t, "policy-phase/results.csv")
	// chain compounds a per-hop rule "tries ≤ share × first tries + extra"
	// over the three hops: the calls at the store per request.
	chain := func(share, extra float64) float64 {
		x := 1.0
		for range 3 {
			x = share*x + extra
		}
		return x
	}
	type bound struct {
		metric string
		max    func(load, blip float64) float64
	}
	bounds := map[string][]bound{
		// At most round(10% × the tick's new requests) retries a tick at
		// each hop: with constant arrivals, a tick's calls at the store are
		// at most its requests plus three such allowances.
		"per-tick 10%": {{"peak_load_x", func(load, _ float64) float64 {
			m := 0.0
			for _, n := range []float64{math.Floor(load * tick), math.Ceil(load * tick)} {
				m = math.Max(m, (n+3*math.RoundToEven(0.1*n))/(load*tick))
			}
			return m
		}}},
		// Retries so far ≤ 10% of first tries so far at each hop: 1.1³ over
		// the run, give or take the retries granted together in one tick
		// before they count (a few ticks of requests).
		"ratio 10%": {{"amplification", func(load, _ float64) float64 { return chain(1.1, 0) + 4*tick/duration }}},
		// A bucket of 10 tokens at each hop, refilled by 0.1 a success:
		// retries ≤ 10 + 10% of the hop's first tries, over the run and
		// over the outage.
		"token bucket": {
			{"amplification", func(load, _ float64) float64 { return chain(1.1, 10/(load*duration)) }},
			{"window_rate_x", func(load, blip float64) float64 { return chain(1.1, 10/(load*blip)) }},
		},
		// gRPC throttling: a retry passes only above half of the 10 tokens,
		// a success adds 0.1: retries ≤ 5 + 10% of the first tries.
		"gRPC throttling": {
			{"amplification", func(load, _ float64) float64 { return chain(1.1, 5/(load*duration)) }},
			{"window_rate_x", func(load, blip float64) float64 { return chain(1.1, 5/(load*blip)) }},
		},
		// Finagle's defaults: 20% of the requests of the last 10 s, plus
		// 10 retries a second.
		"Finagle RetryBudget": {{"amplification", func(load, _ float64) float64 { return chain(1.2, 10/load) }}},
		// Envoy's defaults: retries in flight ≤ 20% of the tries in flight
		// (so ≤ 25% of the first tries in flight), or 3; during the outage
		// every try is in flight for the timeout, so rates follow.
		"Envoy retry budget": {{"window_rate_x", func(load, _ float64) float64 { return chain(1.25, 3/(timeout*load)) }}},
		// The AWS quota: 500 tokens, a retry takes at least 5 and nothing
		// succeeds during the outage to refill it: at most 100 retries a hop.
		"AWS retry quota": {{"window_rate_x", func(load, blip float64) float64 { return 1 + 3*100/(load*blip) }}},
		// Adaptive throttling sends at most k = 2 tries per accepted one at
		// each hop, and a call is accepted once at most.
		"adaptive throttling": {{"amplification", func(float64, float64) float64 { return chain(2, 0) }}},
		"token bucket + breaker": {
			{"amplification", func(load, _ float64) float64 { return chain(1.1, 10/(load*duration)) }},
			{"window_rate_x", func(load, blip float64) float64 { return chain(1.1, 10/(load*blip)) }},
		},
	}
	checked := map[string]int{}
	for i := range rows.data {
		r := rows.row(i)
		bs, ok := bounds[r.text("policy")]
		if !ok || r.text("day") != "outage" {
			continue
		}
		load := r.num("load")
		d, err := time.ParseDuration(r.text("blip"))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			if b.metric == "window_rate_x" && d == 0 {
				continue // no outage, no window
			}
			if got, max := r.num(b.metric), b.max(load, d.Seconds()); got > max*(1+1e-6) { // results.csv keeps six digits
				t.Errorf("%s, load %v, blip %v: %s %.4f above its bound %.4f", r.text("policy"), load, d, b.metric, got, max)
			}
		}
		checked[r.text("policy")]++
	}
	for p := range bounds {
		if checked[p] != 60 {
			t.Errorf("%s: %d cells checked, want 60", p, checked[p])
		}
	}
}

// TestPolicyPhaseHealthyDay: on a healthy day (no outage, 1% of served
// calls failing at random, 20 seeded runs) no policy costs anything: the
// mean of successful requests under each policy differs from naive
// retries' by no more than the replicate spread (the larger standard
// deviation of the two).
func TestPolicyPhaseHealthyDay(t *testing.T) {
	rows := readCSV(t, "policy-phase/results.csv")
	naive, ok := rows.find(map[string]string{"policy": "naive", "day": "healthy day"})
	if !ok {
		t.Fatal("no healthy day for naive retries")
	}
	n := 0
	for i := range rows.data {
		r := rows.row(i)
		if r.text("day") != "healthy day" {
			continue
		}
		n++
		if r.text("blip") != "0s" || r.num("replicates") != 20 || r.num("requests") != naive.num("requests") {
			t.Errorf("%s: blip %s, %v replicates, %v requests; want no outage, 20, %v", r.text("policy"), r.text("blip"), r.num("replicates"), r.num("requests"), naive.num("requests"))
		}
		spread := math.Max(r.num("successful_sd"), naive.num("successful_sd"))
		if d := math.Abs(r.num("successful") - naive.num("successful")); d > spread {
			t.Errorf("%s: %v successful against %v with naive retries, %v apart, more than the spread %v",
				r.text("policy"), r.num("successful"), naive.num("successful"), d, spread)
		}
	}
	if n != 13 {
		t.Errorf("%d healthy days, want one per policy (13)", n)
	}
}

// TestGRPCTokensBaseline: through an outage gRPC's throttling lets each hop
// spend the top half of its bucket at once (the load during the outage
// follows max_tokens, whatever token_ratio); on a day when 10% of the
// calls fail, token_ratio 0.1 stops the retries (0.1 < 0.1 / 0.9) and 0.2
// keeps them.
func TestGRPCTokensBaseline(t *testing.T) {
	rows := readCSV(t, "grpc-tokens/results.csv")
	cell := func(day, tokens, ratio string) csvRow {
		r, ok := rows.find(map[string]string{"day": day, "budget.max_tokens": tokens, "budget.token_ratio": ratio})
		if !ok {
			t.Fatalf("no cell %s, %s, %s", day, tokens, ratio)
		}
		return r
	}
	for _, tokens := range []string{"10", "100", "1000"} {
		lo, hi := cell("10 s outage", tokens, "0.01"), cell("10 s outage", tokens, "1")
		n, _ := strconv.ParseFloat(tokens, 64)
		// Three hops each spending about half of the bucket over 10 s of 160 requests/s.
		want := 1 + 3*(n/2)/(160*10)
		if got := lo.num("window_rate_x"); math.Abs(got-want) > 0.02 || hi.num("window_rate_x") != got {
			t.Errorf("max_tokens %s: %v× during the outage (%v× at token_ratio 1), want about %.3f×", tokens, got, hi.num("window_rate_x"), want)
		}
	}
	off, on := cell("10% of calls failing", "10", "0.1"), cell("10% of calls failing", "10", "0.2")
	if off.num("failed") < 1000 || on.num("failed") > 10 {
		t.Errorf("10%% failing: %v failed at token_ratio 0.1, %v at 0.2; want many and almost none", off.num("failed"), on.num("failed"))
	}
}

// TestClientsScaleBaseline: a shared budget gives the same run whatever the
// number of clients; a token bucket per client lets more retries through
// the more clients there are.
func TestClientsScaleBaseline(t *testing.T) {
	rows := readCSV(t, "clients-scale/results.csv")
	cell := func(config, clients string) csvRow {
		r, ok := rows.find(map[string]string{"configuration": config, "clients": clients})
		if !ok {
			t.Fatalf("no cell %s, %s", config, clients)
		}
		return r
	}
	for _, c := range []string{"shared token bucket", "shared token bucket + breakers", "shared ratio 10%"} {
		if a, b := cell(c, "10"), cell(c, "1000"); a.num("calls") != b.num("calls") || a.num("failed") != b.num("failed") {
			t.Errorf("%s: %v calls and %v failed at 10 clients, %v and %v at 1,000", c, a.num("calls"), a.num("failed"), b.num("calls"), b.num("failed"))
		}
	}
	prev := 0.0
	for _, n := range []string{"10", "100", "1000"} {
		r := cell("per-client token bucket", n)
		if got := r.num("window_rate_x"); got <= prev {
			t.Errorf("per-client token bucket at %s clients: %v× during the outage, not above %v×", n, got, prev)
		} else {
			prev = got
		}
	}
}
