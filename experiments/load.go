package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// Load reads, validates and expands one experiment file. sets are -set flags
// (PATH=VALUE, PATH a dotted key of the file) applied over it.
func Load(file string, sets []string) (*Experiment, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	return Parse(file, src, sets)
}

// Parse is Load for a file already read.
func Parse(file string, src []byte, sets []string) (*Experiment, error) {
	e := &Experiment{
		Grid:     &sweep.Grid{Base: model.Default()},
		MaxCells: DefaultMaxCells,
		sets:     map[string]bool{},
	}
	e.File = file
	e.Source = src
	e.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	e.Overrides = slices.Clone(sets)
	var tree map[string]any
	if _, err := toml.Decode(string(src), &tree); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line, col := lineCol(src, pe.Position.Start)
			if line == 0 {
				line, col = pe.Position.Line, pe.Position.Col
			}
			return nil, &Error{File: file, Line: line, Col: col, Msg: pe.Message}
		}
		return nil, &Error{File: file, Msg: err.Error()}
	}
	e.pos = keyPositions(src)
	for _, s := range sets {
		if err := e.applySet(tree, s); err != nil {
			return nil, err
		}
	}
	if err := e.interpret(tree); err != nil {
		return nil, err
	}
	return e, nil
}

// lineCol turns a byte offset into a 1-based line and rune column; an error
// at a line's end is reported on that line. It returns 0, 0 for an offset
// outside src.
func lineCol(src []byte, off int) (line, col int) {
	if off < 0 || off > len(src) {
		return 0, 0
	}
	before := src[:off]
	nl := bytes.LastIndexByte(before, '\n')
	return bytes.Count(before, []byte("\n")) + 1, utf8.RuneCount(before[nl+1:]) + 1
}

// interpret fills the experiment from the decoded file, section by section
// in the order each needs the others: the grid's axes before the figures
// that draw them, the cells before the findings that cite them.
func (e *Experiment) interpret(tree map[string]any) error {
	top, err := e.readTop(tree)
	if err != nil {
		return err
	}
	if err := e.readScenario(tree["engine"], tree["scenario"]); err != nil {
		return err
	}
	policies, err := e.readPolicies(tree["policy"])
	if err != nil {
		return err
	}
	if err := e.readGrid(tree["grid"], policies); err != nil {
		return err
	}
	if err := e.readSeries(top.Series); err != nil {
		return err
	}
	if n := e.Grid.Size(); n > e.MaxCells {
		var dims []string
		for _, a := range e.Grid.Axes {
			dims = append(dims, fmt.Sprintf("%s (%d)", a.Name, len(a.Values)))
		}
		return e.errorf("grid", "%s expand to %d cells, more than max_cells = %d; use coarser steps or raise max_cells",
			strings.Join(dims, " × "), n, e.MaxCells)
	}
	if err := e.Grid.Expand(); err != nil {
		return e.cellError(err)
	}
	if err := e.readCells(tree["cell"]); err != nil {
		return err
	}
	if err := e.readFigures(tree["figure"]); err != nil { // after the single cells: only may name their values
		return err
	}
	if err := e.readWindows(tree["window"]); err != nil {
		return err
	}
	if err := e.readTolerance(tree["tolerance"]); err != nil {
		return err
	}
	if err := e.readLab(tree["lab"]); err != nil {
		return err
	}
	if err := e.readAnswer(tree["answer"], tree); err != nil {
		return err
	}
	if err := e.readTipping(tree["tipping"]); err != nil {
		return err
	}
	return e.readFindings(tree["findings"], tree)
}
