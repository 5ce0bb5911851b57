package plots

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/model"
)

// configsTOML compares named configurations, some with long names, after
// blips of two lengths, one panel per load.
const configsTOML = `
title = "Retry configurations after a blip"
seed = 1

[scenario]
engine = "queue"
duration = "30m"
dependency.capacity = 100
layer = [{ timeout = "1s" }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]

[[policy]]
name = "no retries"
attempts = 1

[[policy]]
name = "gateway only (3)"
attempts = 3

[[policy]]
name = "three layers (3x3x3)"
layers = 3
layer = [{ attempts = 3 }]

[[policy]]
name = "three layers (3x3x3) + 10% per-tick budget"
layers = 3
layer = [{ attempts = 3 }]
budget = { kind = "per_tick", ratio = 0.1 }

[[policy]]
name = "three layers, expired work dropped"
layers = 3
layer = [{ attempts = 3 }]
dependency.drop_expired = true

[grid]
load = [70, 85]
blip = ["10s", "30s"]
`

// stochasticTOML is a tiny stochastic experiment with replicates: bars
// carry error bars.
const stochasticTOML = `
title = "Stochastic replicates"
seed = 1

[scenario]
engine = "stochastic"
arrivals = "poisson"
replicates = 5
tick = "10ms"
duration = "20s"
load = 40
dependency.capacity = 60
fault = [{ kind = "outage", start = "5s", length = "1s" }]

[[policy]]
name = "no retries"
attempts = 1

[[policy]]
name = "6 attempts"
attempts = 6
`

// The bar figures to look at: go test ./plots -run TestWriteBarSamples -plots.out /tmp/bars
func TestWriteBarSamples(t *testing.T) {
	if *outDir == "" {
		t.Skip("set -plots.out DIR to write the sample figures")
	}
	write := func(name, src string, sets []string, figures string) {
		t.Helper()
		e, res := runSample(t, name+".toml", []byte(src+figures), sets)
		figs, err := Render(e.Grid, res, e.Figures)
		if err != nil {
			t.Fatal(err)
		}
		writeFigures(t, filepath.Join(*outDir, name), figs)
	}

	write("configs", configsTOML, nil, `
[[figure]]
kind = "bars"
name = "recovery"
x = "policy"
line = "blip"
panel = "load"

[[figure]]
kind = "bars"
name = "window-rate"
x = "policy"
line = "blip"
panel = "load"
metric = "window_rate_x"

[[figure]]
kind = "bars"
name = "peak-queue"
x = "policy"
line = "blip"
panel = "load"
metric = "peak_queue"
`)
	write("configs-one", configsTOML, []string{"grid.load=85", "grid.blip=30s"}, `
[[figure]]
kind = "bars"
name = "failed"
x = "policy"
metric = "failed"

[[figure]]
kind = "bars"
name = "amplification"
x = "policy"
metric = "amplification"
`)
	write("stochastic", stochasticTOML, nil, `
[[figure]]
kind = "bars"
name = "peak-calls"
x = "policy"
metric = "peak_calls"

[[figure]]
kind = "bars"
name = "recovery"
x = "policy"
metric = "recovery_s"

[[figure]]
kind = "bars"
name = "window-rate"
x = "policy"
metric = "window_rate_x"
`)
	write("stochastic-loads", stochasticTOML, nil, `
[grid]
load = [30, 40, 50]

[[figure]]
kind = "bars"
name = "failed"
x = "load"
line = "policy"
metric = "failed"
`)
	// A longer outage near capacity: some replicates never recover.
	write("stochastic-storm", stochasticTOML, []string{"grid.blip=4s"}, `
[grid]
load = [45, 50, 55]

[[figure]]
kind = "bars"
name = "recovery"
x = "load"
line = "policy"
metric = "recovery_s"

[[figure]]
kind = "bars"
name = "peak-queue"
x = "load"
line = "policy"
metric = "peak_queue"
`)
	// Hand-made replicates: a spread, part recovered, none recovered.
	e := parse(t, barsFigure("recovery_s"))
	res := make([]model.Result, len(e.Grid.Cells()))
	for i := range res {
		res[i] = model.Result{Metrics: model.Metrics{Verdict: model.Recovered, RecoveryS: 20 + 10*float64(i)},
			SD: model.Metrics{RecoveryS: 4}, Replicates: 5, RecoveredShare: 1}
	}
	res[1].Verdict, res[1].RecoveredShare = model.Stuck, 0.6
	res[3].Verdict, res[3].RecoveredShare, res[3].RecoveryS, res[3].SD.RecoveryS = model.Stuck, 0, math.NaN(), math.NaN()
	figs, err := Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	writeFigures(t, filepath.Join(*outDir, "partial"), figs)

	// Many bars: no value labels.
	write("many", configsTOML, []string{"grid.load=[60, 65, 70, 75, 80, 85, 90]", "grid.blip=30s"}, `
[[figure]]
kind = "bars"
name = "recovery"
x = "load"
line = "policy"
`)
	// Long names with long words: rotated.
	long := strings.NewReplacer(`"no retries"`, `"no-retries-at-all-anywhere"`,
		`"gateway only (3)"`, `"gateway-only-with-three-attempts"`).Replace(configsTOML)
	write("long", long, []string{"grid.load=85", "grid.blip=30s"}, `
[[figure]]
kind = "bars"
name = "recovery"
x = "policy"
`)
}
