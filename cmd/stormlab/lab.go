package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/stormlab/stormlab/cmd/stormlab/lab"
	"github.com/stormlab/stormlab/cmd/stormlab/pipeline"
)

const labUsage = `Usage: stormlab lab [-out DIR] [-speed X] [-figures=false] [-set PATH=VALUE ...] FILE.toml ...

Runs an experiment's cells (those its [lab] section names, or every cell)
on a real stack on loopback — a gRPC service per layer with the layer's
retry policy, breaker, budget and hedging, the dependency as a gRPC server
with the scenario's capacity, queue, faults and latency behind its network
delay, a load generator of the scenario's arrivals — in real time, -speed times faster than the scenario, beside the model. It
writes DIR/<name>/lab/: lab.csv (the result columns measured on the real
stack), series.csv, the model's and the lab's series overlaid, and
report.md with the two side by side. A run the machine cannot keep up
with is not reported: exit 1.

Examples:
  stormlab lab experiments/one-hop.toml
  stormlab lab -speed 0.5 experiments/chain-breaker.toml
  stormlab lab -figures=false -out /tmp/lab experiments/one-hop.toml

` + manualRef + `

Flags:
`

// labFlags are stormlab lab's flags.
type labFlags struct {
	out     *string
	speed   *float64
	figures *bool
	sets    setFlags
}

// newLabFlags defines stormlab lab's flags.
func newLabFlags(stderr io.Writer) (*flag.FlagSet, *labFlags) {
	fs := newFlagSet(stderr, "lab", labUsage)
	f := &labFlags{
		out:     fs.String("out", "out", "write `DIR`/<name>/lab/"),
		speed:   fs.Float64("speed", 0, "run the scenario `X` times faster: every span divided, every rate multiplied (default: the experiment's [lab] speed, or 1)"),
		figures: fs.Bool("figures", true, "draw the overlaid figures"),
	}
	fs.Var(&f.sets, "set", "override a key: `PATH=VALUE` (repeatable)")
	return fs, f
}

// cmdLab is stormlab lab: load, check that the lab can run every cell,
// then run and write each experiment in turn.
func cmdLab(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs, f := newLabFlags(stderr)
	files, err := parse(fs, args, true)
	if err != nil {
		return err
	}
	if *f.out == "" {
		return &usageError{"-out: give a folder"}
	}
	if *f.speed < 0 || *f.speed > 1000 {
		return &usageError{fmt.Sprintf("-speed: must be from 0.01 to 1000, got %v", *f.speed)}
	}
	exps, err := pipeline.Load(files, f.sets)
	if err != nil {
		return err
	}
	for _, e := range exps {
		if err := lab.Check(e); err != nil {
			return &usageError{err.Error()}
		}
	}
	for _, e := range exps {
		s := lab.Settings{Out: *f.out, Speed: *f.speed, Figures: *f.figures, Command: "stormlab lab " + strings.Join(args, " ")}
		o, err := lab.Experiment(ctx, e, s, stderr)
		if err != nil {
			return err
		}
		if err := lab.Write(o, s); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d cells on the real stack at speed %v in %.1fs, %d columns disagree: %s/%s/lab/\n",
			e.Name, len(o.Cells), o.Speed, o.Took.Seconds(), o.Disagreements(), *f.out, e.Name)
	}
	return nil
}
