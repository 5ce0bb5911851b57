package model

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// runWith runs a scenario with options, failing the test on an error.
func runWith(t *testing.T, sc Scenario, seed uint64, opt Options) Result {
	t.Helper()
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	r, err := RunPlan(context.Background(), p, seed, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// windowOf finds a result's window column by name.
func windowOf(t *testing.T, r *Result, name string) WindowValue {
	t.Helper()
	for _, w := range r.Windows {
		if w.Column == name {
			return w
		}
	}
	t.Fatalf("no window column %q in %+v", name, r.Windows)
	return WindowValue{}
}

// TestWindowBlip: windows over the 30-second blip without retries, where
// every number follows by hand: 70 requests/s served before the outage;
// during it 70 calls/s arrive and none is served, the queue ending second
// k (k = 1..30) at 70k calls, a mean of 70 × 15.5, and healthy (at most 100
// waiting) only in its first second.
func TestWindowBlip(t *testing.T) {
	ws := []Window{
		{Name: "before", From: Duration(10 * time.Second), To: Duration(60 * time.Second), Columns: []string{"successes", "calls", "healthy"}},
		{Name: "outage", From: Duration(60 * time.Second), To: Duration(90 * time.Second), Columns: []string{"successes", "calls", "queue", "healthy"}},
	}
	r := runWith(t, blip(1), 1, Options{Windows: ws})
	for _, c := range []struct {
		column string
		want   float64
	}{
		{"successes_per_s_before", 70},
		{"calls_per_s_before", 70},
		{"healthy_share_before", 1},
		{"successes_per_s_outage", 0},
		{"calls_per_s_outage", 70},
		{"queue_outage", 70 * 15.5},
		{"healthy_share_outage", 1.0 / 30},
	} {
		if got := windowOf(t, &r, c.column); math.Abs(got.Mean-c.want) > 1e-9 || got.SD != 0 {
			t.Errorf("%s = %v (sd %v), want %v", c.column, got.Mean, got.SD, c.want)
		}
	}
	if r.Series != nil || r.Band != nil {
		t.Errorf("windows alone kept a series (%v) or a band (%v)", r.Series != nil, r.Band != nil)
	}
	// The metrics and the verdict do not depend on recording the series.
	if plain := runWith(t, blip(1), 1, Options{}); fmt.Sprintf("%#v", plain.Metrics) != fmt.Sprintf("%#v", r.Metrics) {
		t.Errorf("windows changed the metrics:\n%v\n%v", plain.Metrics, r.Metrics)
	}
	names := make([]string, 0, 7)
	for _, m := range WindowMetrics(ws) {
		names = append(names, m.Name)
	}
	want := "successes_per_s_before calls_per_s_before healthy_share_before successes_per_s_outage calls_per_s_outage queue_outage healthy_share_outage"
	if strings.Join(names, " ") != want {
		t.Errorf("window columns %v, want %s", names, want)
	}
}

// TestWindowReplicates: a window's value is the mean over the replicates
// of each replicate's own window, with their standard deviation, and a
// window of the series rows equals the sum over those rows.
func TestWindowReplicates(t *testing.T) {
	sc := server60("immediate", 3*time.Second)
	sc.Duration = Duration(60 * time.Second)
	sc.Replicates = 4
	ws := []Window{{Name: "after", From: Duration(30 * time.Second), To: Duration(50 * time.Second), Columns: []string{"successes", "queue"}}}
	r := runWith(t, sc, 9, Options{Windows: ws})
	var goodput, queue []float64
	for rep := range 4 {
		one := sc
		one.Replicates = 1
		s := runWith(t, one, ReplicateSeed(9, rep), Options{Series: true}).Series
		sum, q := 0.0, 0.0
		for _, row := range s.Rows[30:50] {
			sum += row.Successes
			q += row.Queue
		}
		goodput, queue = append(goodput, sum/20), append(queue, q/20)
	}
	for _, c := range []struct {
		column string
		xs     []float64
	}{{"successes_per_s_after", goodput}, {"queue_after", queue}} {
		mean, sd := meanSD(c.xs)
		got := windowOf(t, &r, c.column)
		if math.Abs(got.Mean-mean) > 1e-9 || math.Abs(got.SD-sd) > 1e-9 {
			t.Errorf("%s: mean %v sd %v, want %v and %v from the replicates %v", c.column, got.Mean, got.SD, mean, sd, c.xs)
		}
	}
}

// meanSD is the mean and the sample standard deviation, written out.
func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

// TestSeriesBand: the band of a replicated cell is, bin by bin, the mean of
// the replicates' own series and their 10th and 90th percentiles; the series
// kept is the first replicate's.
func TestSeriesBand(t *testing.T) {
	sc := server60("immediate", 3*time.Second)
	sc.Duration = Duration(40 * time.Second)
	sc.Replicates = 10
	r := runWith(t, sc, 5, Options{Series: true})
	if r.Band == nil || r.Band.Replicates != 10 || len(r.Band.T) != 40 {
		t.Fatalf("band %+v, want 40 bins of 10 replicates", r.Band)
	}
	var reps []*Series
	for rep := range 10 {
		one := sc
		one.Replicates = 1
		reps = append(reps, runWith(t, one, ReplicateSeed(5, rep), Options{Series: true}).Series)
	}
	if !slices.Equal(r.Series.Rows, reps[0].Rows) {
		t.Errorf("the series kept is not the first replicate's")
	}
	mean, p10, p90, ok := r.Band.Column("calls")
	if !ok {
		t.Fatal("no calls in the band")
	}
	for j := range 40 {
		xs := make([]float64, 10)
		for i, s := range reps {
			xs[i] = s.Rows[j].Calls
		}
		m, _ := meanSD(xs)
		slices.Sort(xs)
		// The smallest value with at least 10% (90%) at or below it: the
		// 1st (9th) of 10.
		if math.Abs(mean[j]-m) > 1e-9 || p10[j] != xs[0] || p90[j] != xs[8] {
			t.Errorf("bin %d: band %v [%v, %v], want %v [%v, %v] from %v", j, mean[j], p10[j], p90[j], m, xs[0], xs[8], xs)
		}
	}
	// Healthy's mean is the share of replicates healthy in the bin.
	h, _, _, _ := r.Band.Column("healthy")
	if h[0] != 1 || h[30] != 0 {
		t.Errorf("share healthy %v at 0 s and %v at 30 s, want 1 before the blip and 0 in the collapse", h[0], h[30])
	}
	if one := runWith(t, sc, 5, Options{}); one.Band != nil {
		t.Errorf("a band without a series asked for")
	}
}

// TestCheckWindow: a window outside the run, backwards, or between two rows
// of the series is refused at its key.
func TestCheckWindow(t *testing.T) {
	sc := blip(1)
	sc.Duration = Duration(2 * time.Minute)
	p, err := sc.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	slow := blip(1)
	slow.Tick = Duration(5 * time.Second)
	slow.Layer[0].Timeout = Duration(5 * time.Second)
	slow.Duration = Duration(2 * time.Minute)
	slow.Fault = nil
	ps, err := slow.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	s := func(x int) Duration { return Duration(time.Duration(x) * time.Second) }
	for _, c := range []struct {
		p    *Plan
		w    Window
		want string
	}{
		{p, Window{From: s(40), To: s(80), Columns: []string{"successes"}}, ""},
		{p, Window{From: s(40), To: s(120), Columns: []string{"successes"}}, ""},
		{p, Window{From: s(80), To: s(40), Columns: []string{"successes"}}, "to: must come after from"},
		{p, Window{From: s(40), To: s(121), Columns: []string{"successes"}}, "to: 2m1s is past the end of the 2m run"},
		{p, Window{From: s(130), To: s(140), Columns: []string{"successes"}}, "from: 2m10s is past the end"},
		{p, Window{From: s(40), To: s(80), Columns: []string{"goodput"}}, `columns: "goodput" is not a series column`},
		{p, Window{From: s(40), To: s(80)}, "columns: names no series column"},
		{ps, Window{From: s(1), To: s(4), Columns: []string{"queue"}}, "holds no row of the series, whose rows start every 5 s"},
		{ps, Window{From: s(1), To: s(6), Columns: []string{"queue"}}, ""},
	} {
		err := CheckWindow(&c.w, c.p)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.w, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: got %v, want %q", c.w, err, c.want)
		}
	}
}
