package plots

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// -plots.out writes the figures of the sample experiments into a folder to
// look at: go test ./plots -run TestWriteSamples -plots.out /tmp/plots
var outDir = flag.String("plots.out", "", "write sample figures (PNG and SVG) into this folder")

// blipPhaseTOML is the blip phase grid: load × blip length under four
// retry policies.
const blipPhaseTOML = `
title = "Which blips does the system survive?"
seed = 1

[scenario]
engine = "queue"
tick = "1s"
duration = "1h"
dependency.capacity = 100
layer = [{ timeout = "1s" }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]

[[policy]]
name = "no retries"
attempts = 1

[[policy]]
name = "27 attempts"
attempts = 27

[[policy]]
name = "27 attempts + 10% per-tick budget"
attempts = 27
budget = { kind = "per_tick", ratio = 0.1 }

[[policy]]
name = "27 attempts, expired work dropped"
attempts = 27
dependency.drop_expired = true

[grid]
policy = ["no retries", "27 attempts", "27 attempts + 10% per-tick budget", "27 attempts, expired work dropped"]
load = { from = 50, to = 95, step = 5 }
blip = { from = "0s", to = "60s", step = "2s" }

[[figure]]
kind = "phase"
name = "phase"
title = "Recovery after a blip, by load and blip length"
x = "load"
y = "blip"
panel = "policy"
rule_of_thumb = true

[[figure]]
kind = "lines"
name = "lines"
title = "Recovery time against load, 30-second blip"
x = "load"
line = "policy"
`

func runSample(t *testing.T, name string, src []byte, sets []string) (*experiments.Experiment, []model.Result) {
	t.Helper()
	e, err := experiments.Parse(name, src, sets)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: runtime.NumCPU()})
	if err != nil {
		t.Fatal(err)
	}
	return e, res
}

func writeFigures(t *testing.T, dir string, figs []Figure) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		for ext, b := range map[string][]byte{".png": f.PNG, ".svg": f.SVG} {
			if err := os.WriteFile(filepath.Join(dir, f.Name+ext), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %s\n%s", f.Name, f.Title, f.Caption)
	}
}

func TestWriteSamples(t *testing.T) {
	if *outDir == "" {
		t.Skip("set -plots.out DIR to write the sample figures")
	}
	src, err := os.ReadFile("../experiments/blip-30s.toml")
	if err != nil {
		t.Fatal(err)
	}
	e, res := runSample(t, "blip-30s.toml", src, nil)
	figs, err := Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	writeFigures(t, filepath.Join(*outDir, "blip-30s"), figs)

	e, res = runSample(t, "blip-phase.toml", []byte(blipPhaseTOML), nil)
	// The lines figure draws one blip length.
	e.Figures = e.Figures[:1]
	figs, err = Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	writeFigures(t, filepath.Join(*outDir, "blip-phase"), figs)

	e, res = runSample(t, "blip-lines.toml", []byte(blipPhaseTOML), []string{"grid.blip=30s"})
	e.Figures = e.Figures[1:]
	figs, err = Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	writeFigures(t, filepath.Join(*outDir, "blip-lines"), figs)

	e, res = runSample(t, "small.toml", []byte(smallGrid), nil)
	figs, err = Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	writeFigures(t, filepath.Join(*outDir, "small"), figs)

	// Replicated results are coloured by the share that recovered.
	for i := range res {
		res[i].Replicates = 4
		res[i].RecoveredShare = float64(i%5) / 4
	}
	figs, err = Render(e.Grid, res, e.Figures)
	if err != nil {
		t.Fatal(err)
	}
	writeFigures(t, filepath.Join(*outDir, "shares"), figs[:1])
}
