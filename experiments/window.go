package experiments

import (
	"fmt"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// windowTable is one [[window]] entry as a file writes it: a span of every
// cell's run whose means become result columns.
type windowTable struct {
	Name    text     `toml:"name"`
	From    moment   `toml:"from"`
	To      moment   `toml:"to"`
	Columns []string `toml:"columns"`
}

// moment is a time in the run: a duration ("40s") or a number of seconds.
type moment struct {
	d   model.Duration
	set bool
}

func (m *moment) UnmarshalTOML(v any) error {
	var err error
	switch x := v.(type) {
	case string:
		m.d, err = model.ParseDuration(x)
	case int64, float64:
		m.d, err = model.DurationOf(sweep.Float(x))
	default:
		return fmt.Errorf("wants a time such as \"40s\", got %s", sweep.Describe(v))
	}
	m.set = err == nil
	return err
}

// readWindows reads [[window]] (or a single [window]) into the grid: each
// a from and a to, optionally the series columns it measures (default
// successes, the goodput) and a name for its columns (default
// "<from>_<to>", e.g. "40s_80s"). Every cell's run must hold the window.
func (e *Experiment) readWindows(v any) error {
	if m, ok := v.(map[string]any); ok {
		return e.readWindowList("window", []map[string]any{m}, false)
	}
	items, err := e.tablesAt("window", v, "[[window]] entries, each with from and to")
	if err != nil || items == nil {
		return err
	}
	return e.readWindowList("window", items, true)
}

// readWindowList reads the window tables written at key (as a list when
// listed, so that entry i is key.i).
func (e *Experiment) readWindowList(key string, items []map[string]any, listed bool) error {
	names := map[string]bool{}
	for i, m := range items {
		k := key
		if listed {
			k = fmt.Sprintf("%s.%d", key, i)
		}
		t := windowTable{Columns: []string{"successes"}}
		if err := e.decodeTable(k, "a [[window]]", m, &t); err != nil {
			return err
		}
		switch {
		case !t.From.set:
			return e.errorf(k, "needs from = \"<time>\", the window's start, e.g. from = \"40s\"")
		case !t.To.set:
			return e.errorf(k, "needs to = \"<time>\", the window's end, e.g. to = \"80s\"")
		}
		w := model.Window{Name: string(t.Name), From: t.From.d, To: t.To.d, Columns: t.Columns}
		if w.Name == "" {
			w.Name = w.From.String() + "_" + w.To.String()
		}
		if !windowName(w.Name) {
			return e.errorf(k+".name", "%q cannot end a column name: use letters, digits and _", w.Name)
		}
		if names[w.Name] {
			return e.errorf(k+".name", "%q names two windows; give one a name = \"...\"", w.Name)
		}
		names[w.Name] = true
		for _, c := range e.Grid.Cells() {
			if err := model.CheckWindow(&w, c.Plan); err != nil {
				return e.windowError(k, &c, err)
			}
		}
		e.Grid.SetWindows(append(e.Grid.Windows, w))
	}
	return e.checkWindowColumns()
}

// windowError places a window refused by model.CheckWindow at its key,
// naming the cell when the grid has several.
func (e *Experiment) windowError(key string, c *sweep.Cell, err error) error {
	msg := err.Error()
	if fe, ok := err.(*model.FieldError); ok {
		key, msg = key+"."+fe.Path, fe.Msg
	}
	if len(e.Grid.Cells()) > 1 {
		msg += " (cell " + c.Label() + ")"
	}
	return e.errorf(key, "%s", msg)
}

// checkWindowColumns refuses windows whose columns would repeat a name in
// results.csv, its spread columns (name_sd, written when a cell has
// replicates) included: windows x and x_sd would both give a column
// successes_per_s_x_sd. The message names both sources.
func (e *Experiment) checkWindowColumns() error {
	seen := map[string]string{} // column → what makes it
	own := map[string]string{}  // a window's column → its window
	for _, w := range e.Grid.Windows {
		for _, m := range model.WindowMetrics([]model.Window{w}) {
			own[m.Name] = w.Name
		}
	}
	source := func(m model.Metric, sd bool) string {
		what := "the column " + m.Name
		if w, ok := own[m.Name]; ok {
			what = fmt.Sprintf("window %q's column %s", w, m.Name)
		}
		if sd {
			what = "the spread of " + what
		}
		return what
	}
	for _, m := range e.Grid.Metrics() {
		names := []string{m.Name}
		if m.SD != nil {
			names = append(names, m.Name+"_sd")
		}
		for i, n := range names {
			what := source(m, i == 1)
			if other, ok := seen[n]; ok {
				return e.errorf("window", "two results.csv columns would be named %s, %s and %s: give a window another name", n, other, what)
			}
			seen[n] = what
		}
	}
	return nil
}

// windowName reports whether s can end a column name: letters, digits, _.
func windowName(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) < 0
}
