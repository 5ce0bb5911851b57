package experiments

import (
	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/model"
)

// topLevel is the top of an experiment file: its metadata, and the
// sections the other files of this package read (known here, so that any
// other key is refused).
type topLevel struct {
	Name      text     `toml:"name"`
	Title     text     `toml:"title"`
	Question  text     `toml:"question"`
	Engine    any      `toml:"engine"` // scenario.engine
	Seed      seed     `toml:"seed"`
	SameSeed  flag     `toml:"same_seed"`
	MaxCells  maxCells `toml:"max_cells"`
	Scenario  any      `toml:"scenario"`
	Policy    any      `toml:"policy"`
	Grid      any      `toml:"grid"`
	Cell      any      `toml:"cell"`
	Series    series   `toml:"series"`
	Figure    any      `toml:"figure"`
	Findings  any      `toml:"findings"`
	Tolerance any      `toml:"tolerance"`
	Window    any      `toml:"window"`
	Answer    any      `toml:"answer"`
	Tipping   any      `toml:"tipping"`
	Lab       any      `toml:"lab"`
}

// seed is the experiment seed: a whole number every float64 holds
// exactly, as the live explorer's pages do.
type seed uint64

func (seed) bounds() model.KeyRange {
	return model.KeyRange{Whole: true, Range: model.Range{Min: 0, Max: 1<<53 - 1}}
}

func (s *seed) UnmarshalTOML(v any) error {
	x, err := readNumber(v, s.bounds())
	*s = seed(x)
	return err
}

// maxCells caps the grid.
type maxCells int

func (maxCells) bounds() model.KeyRange {
	return model.KeyRange{Whole: true, Range: model.Range{Min: 1, Max: 1_000_000, Unit: "cells"}}
}

func (m *maxCells) UnmarshalTOML(v any) error {
	x, err := readNumber(v, m.bounds())
	*m = maxCells(x)
	return err
}

// readTop checks every top-level key and reads the metadata into the
// experiment. The files of the other sections read them from the decoded
// file (tables of scenario keys) or from the returned keys.
func (e *Experiment) readTop(tree map[string]any) (*topLevel, error) {
	top := &topLevel{Name: text(e.Name), MaxCells: DefaultMaxCells}
	if err := e.decodeTable("", "an experiment file", tree, top); err != nil {
		return nil, err
	}
	e.Name, e.Title, e.Question = string(top.Name), string(top.Title), string(top.Question)
	if !spec.ValidExperimentName(e.Name) {
		return nil, e.errorf("name", "%q cannot name an experiment's folder: a name is %s (it defaults to the file's name; set name = \"...\" to choose another)",
			e.Name, spec.ExperimentNameRule)
	}
	e.MaxCells = int(top.MaxCells)
	e.Grid.Seed, e.Grid.SameSeed = uint64(top.Seed), bool(top.SameSeed)
	return top, nil
}
