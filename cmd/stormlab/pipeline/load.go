package pipeline

import (
	"fmt"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/plots"
)

// Load reads and checks every file, with the -set overrides, before
// anything runs, so that bad input stops a command before a single file is
// written: each file's keys, grid and figures, and that no two files are
// one experiment (their reports would overwrite each other). The error is
// an *experiments.Error, which names the file and the key.
func Load(files []string, sets []string) ([]*experiments.Experiment, error) {
	var exps []*experiments.Experiment
	names := map[string]string{}
	for _, f := range files {
		e, err := withFigures(experiments.Load(f, sets))
		if err != nil {
			return nil, err
		}
		if other, dup := names[e.Name]; dup {
			return nil, &experiments.Error{File: f, Key: "name", Msg: fmt.Sprintf("%q is also the name of %s; reports would overwrite each other", e.Name, other)}
		}
		names[e.Name] = f
		exps = append(exps, e)
	}
	return exps, nil
}

// Parse reads an experiment from a file's content, with the checks Load
// makes: a shard's copy of its file, for merge.
func Parse(file string, src []byte, sets []string) (*experiments.Experiment, error) {
	return withFigures(experiments.Parse(file, src, sets))
}

// withFigures checks the figures of an experiment just read, which the
// loader leaves to the plots package.
func withFigures(e *experiments.Experiment, err error) (*experiments.Experiment, error) {
	if err != nil {
		return nil, err
	}
	if err := e.CheckFigures(plots.Check); err != nil {
		return nil, err
	}
	return e, nil
}
