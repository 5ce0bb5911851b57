package reports

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
)

// tippingSmall is the 30-second blip system with naive retries at two
// loads, its shortest blip that tips searched from 0 s to 1 min.
const tippingSmall = `name = "tip"
[scenario]
duration = "10m"
layer = [{ attempts = 27 }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]
[grid]
load = [50, 90]
[tipping]
key = "blip"
from = "0s"
to = "1m"
`

// files builds an experiment's folder in memory, with its searches.
func files(t *testing.T, src string, change func(o *tipping.Outcome)) map[string]string {
	t.Helper()
	e, err := experiments.Parse("tip.toml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	results, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	o, err := tipping.Run(context.Background(), e.Grid, e.Tipping, tipping.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(o)
	}
	list, err := Files(&e.Report, e.Grid, results, Options{Tipping: o})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range list {
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b.String()
	}
	return out
}

// A search's folder holds tipping.csv, a row per search with its bracket
// and its cost, and the regions figure; report.md opens with the answer.
func TestTippingFiles(t *testing.T) {
	f := files(t, tippingSmall, nil)
	for _, name := range []string{"tipping.csv", "tipping-blip.png", "tipping-blip.svg", "report.md"} {
		if f[name] == "" {
			t.Errorf("no %s", name)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(f["tipping.csv"])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || strings.Join(rows[0][:6], ",") != "key,load,status,region,critical,recovers_at" {
		t.Fatalf("tipping.csv:\n%s", f["tipping.csv"])
	}
	md := f["report.md"]
	if i, j := strings.Index(md, "## Tipping points"), strings.Index(md, "## Findings"); i < 0 || j < i {
		t.Errorf("report.md does not open with the tipping points")
	}
	for _, want := range []string{"evaluations", "a uniform grid of the same resolution runs 122", "The shortest blip length that tips: 3s at load 50, 2s at load 90", "![Tipping points: blip length against load](tipping-blip.png)", "| load | region |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// A non-monotone answer is written as such in tipping.csv, the report and
// the figure, with every bracket, never smoothed into one boundary.
func TestTippingNonMonotoneIsReported(t *testing.T) {
	f := files(t, tippingSmall, func(o *tipping.Outcome) {
		s := &o.Searches[0][0]
		// Recovering again beyond the boundary: the verdict changes twice.
		e := s.Evals[len(s.Evals)-1]
		e.Tipped = 0
		s.Evals[len(s.Evals)-1] = e
		s.Brackets = append(s.Brackets, [2]tipping.Eval{s.Evals[len(s.Evals)-2], e})
		s.Status, s.Changes = tipping.NonMonotone, 2
	})
	for _, want := range []string{"non-monotone", "the verdict changes 2 times: recovers at 2s, tips at 3s; tips at"} {
		if !strings.Contains(f["tipping.csv"], want) {
			t.Errorf("tipping.csv lacks %q:\n%s", want, f["tipping.csv"])
		}
	}
	if !strings.Contains(f["report.md"], "**Non-monotone at load 50**") || !strings.Contains(f["report.md"], "3s (non-monotone)") {
		t.Errorf("report.md does not report the non-monotone answer")
	}
	if !strings.Contains(f["tipping-blip.svg"], "non-monotone") {
		t.Errorf("the figure's legend does not name the non-monotone column")
	}
}

// Compare reads a regenerated tipping.csv against its baseline.
func TestCompareTipping(t *testing.T) {
	e, err := experiments.Parse("tip.toml", []byte(tippingSmall), nil)
	if err != nil {
		t.Fatal(err)
	}
	o, err := tipping.Run(context.Background(), e.Grid, e.Tipping, tipping.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if devs, err := CompareTipping(dir, &e.Report, e.Grid, o); err != nil || len(devs) != 1 || devs[0].Baseline != "missing" {
		t.Errorf("without a baseline: %v, %v", devs, err)
	}
	if devs, err := CompareTipping(dir, &e.Report, e.Grid, nil); err != nil || devs != nil {
		t.Errorf("without searches: %v, %v", devs, err)
	}
}

// With one replicate a point's 95% interval never lies wholly on one side
// of a half, so a stochastic search cannot place its boundary at 95%: its
// report says it cannot test the rule of thumb, never that the rule holds
// to within the search's tolerance.
func TestOneReplicateRuleSentence(t *testing.T) {
	src := `name = "tip"
engine = "stochastic"
seed = 3
[scenario]
tick = "10ms"
duration = "2m"
load = 40
arrivals = "poisson"
clients = 50
replicates = 1
health.window = "2s"
layer = [{ attempts = 6, timeout = "500ms" }]
fault = [{ kind = "outage", start = "20s", length = "3s" }]
dependency = { capacity = 60, queue = "fifo", collapse = { demand = "offered", window = "2s", slope = 0.5, floor = 0.1 } }
[grid]
load = [30, 40]
[tipping]
key = "blip"
from = "0s"
to = "5s"
tolerance = "100ms"
`
	report := files(t, src, nil)["report.md"]
	if strings.Contains(report, "the rule holds to within") || !strings.Contains(report, "cannot test the rule: its 95% interval is open on a side") {
		t.Errorf("one replicate: the report claims more than the search shows:\n%s", report)
	}
}
