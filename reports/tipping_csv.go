package reports

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
)

// tippingColumns are tipping.csv's columns after the search's key and the
// grid's axes: what each search found.
var tippingColumns = []struct {
	name, doc string
	get       func(s *tipping.Search) string
}{
	{"status", "what the search found: found (one change of verdict along the range), none in range, tips at the mild end, overloaded, non-monotone, or aborted", func(s *tipping.Search) string { return string(s.Status) }},
	{"region", "for a fault's key: stable (nothing in range tips it), vulnerable (a large enough trigger does) or overloaded (unhealthy without any fault); empty for another key", func(s *tipping.Search) string { return string(s.Region) }},
	{"critical", "the estimate, in unit: the mildest value that tips (deterministic engine), or where half of the replicates tip (stochastic); empty when the range holds none", func(s *tipping.Search) string { return formatNumber(s.Critical) }},
	{"recovers_at", "the bracket's mild end: the nearest point on the mild side of the estimate that recovers", func(s *tipping.Search) string { return evalValue(s.Recovers) }},
	{"tips_at", "the bracket's severe end: the nearest point on the severe side that tips", func(s *tipping.Search) string { return evalValue(s.Tips) }},
	{"recovers_at_tipped", "share of the replicates at recovers_at that did not recover", func(s *tipping.Search) string { return evalShare(s.Recovers) }},
	{"tips_at_tipped", "share of the replicates at tips_at that did not recover", func(s *tipping.Search) string { return evalShare(s.Tips) }},
	{"ci_lo", "stochastic engine: lower end of the 95% interval of the estimate, the nearest point below it whose Wilson interval of the share that tips lies wholly below one half; empty when none does (or for a deterministic engine)", func(s *tipping.Search) string { return formatNumber(s.Lo) }},
	{"ci_hi", "stochastic engine: upper end of that interval, the nearest point above whose Wilson interval lies wholly above one half", func(s *tipping.Search) string { return formatNumber(s.Hi) }},
	{"replicates", "seeded runs behind each point", func(s *tipping.Search) string { return strconv.Itoa(replicatesOf(s)) }},
	{"rule_of_thumb", "the rule of thumb for naive retries at the search's values, in unit (capacity × timeout / load for an outage's length; the load whose backlog fills capacity × timeout within the outage for the load); empty where it does not apply", func(s *tipping.Search) string {
		r, ok := s.RuleOfThumb()
		if !ok {
			return ""
		}
		return formatNumber(r)
	}},
	{"evaluations", "cells the search ran, the run without a fault included", func(s *tipping.Search) string { return strconv.Itoa(s.Evaluations) }},
	{"grid_points", "cells a uniform grid of the same resolution over the same range runs", func(s *tipping.Search) string { return strconv.Itoa(s.GridPoints) }},
	{"changes", "changes of verdict between neighbouring points run, in line order (1 for a monotone answer with a boundary)", func(s *tipping.Search) string { return strconv.Itoa(s.Changes) }},
	{"no_fault_collapse_s", "for a fault's key: seconds from the start until the run without any fault was first unhealthy; empty when never", func(s *tipping.Search) string {
		if s.Baseline == nil {
			return ""
		}
		return formatNumber(s.Baseline.CollapseS)
	}},
	{"end_state", "deterministic engine, a dependency judged by its backlog: the state the tipping point (tips_at) leaves the system in when the run ends, stuck (the backlog no longer shrinks: metastable) or draining (still shrinking, slower than the run is long); markov engine: the chain's verdict at tips_at, metastable or overloaded", func(s *tipping.Search) string {
		switch {
		case s.Tips != nil && s.Tips.Chain():
			return s.Tips.Phase.String()
		case s.End == nil:
			return ""
		case s.End.Draining:
			return "draining"
		}
		return "stuck"
	}},
	{"end_queue", "calls waiting at the end of the run at tips_at", func(s *tipping.Search) string {
		if s.End == nil {
			return ""
		}
		return formatNumber(s.End.Queue)
	}},
	{"drain_left_s", "for a draining end state: seconds after the run's end until the backlog is within the healthy limit, at the rate it shrank over the run's last quarter", func(s *tipping.Search) string {
		if s.End == nil {
			return ""
		}
		return formatNumber(math.Round(s.End.Left))
	}},
	{"unit", "the unit of the key's values", func(s *tipping.Search) string { return s.Spec.Unit }},
	{"note", "the brackets of a non-monotone answer, and other remarks", func(s *tipping.Search) string { return searchNote(s) }},
}

func evalValue(e *tipping.Eval) string {
	if e == nil {
		return ""
	}
	return formatNumber(e.Value)
}

func evalShare(e *tipping.Eval) string {
	if e == nil {
		return ""
	}
	return formatNumber(e.Share())
}

// replicatesOf is the replicates behind a search's points.
func replicatesOf(s *tipping.Search) int {
	for _, e := range s.Evals {
		return e.Runs
	}
	if s.Baseline != nil {
		return s.Baseline.Runs
	}
	return 0
}

// searchNote says what a search's status needs said beside its numbers.
func searchNote(s *tipping.Search) string {
	t := s.Spec
	switch s.Status {
	case tipping.Nothing:
		return fmt.Sprintf("no %s from %s to %s tips it", tipping.KeyLabel(t), keyValue(t, t.From), keyValue(t, t.To))
	case tipping.Already:
		return fmt.Sprintf("it tips at every %s searched, from %s on: the boundary lies beyond the mild end", tipping.KeyLabel(t), keyValue(t, t.From))
	case tipping.Overloaded:
		return "unhealthy at the end of a run without any fault"
	case tipping.Aborted:
		return "a point was stopped at the memory cap"
	case tipping.NonMonotone:
		var parts []string
		for _, b := range s.Brackets {
			parts = append(parts, fmt.Sprintf("%s at %s, %s at %s", verdictWord(&b[0]), keyValue(t, b[0].Value), verdictWord(&b[1]), keyValue(t, b[1].Value)))
		}
		return "the verdict changes " + strconv.Itoa(s.Changes) + " times: " + strings.Join(parts, "; ")
	}
	return ""
}

func verdictWord(e *tipping.Eval) string {
	if e.Chain() {
		return e.Phase.String()
	}
	if e.Tips() {
		return "tips"
	}
	return "recovers"
}

// keyValue writes a value of a search's key with its unit: "5s", "42.1
// requests/s".
func keyValue(t *spec.Tipping, x float64) string {
	if t.Duration {
		return model.Seconds(x).String()
	}
	s := formatNumber(x)
	if t.Unit != "" {
		s += " " + t.Unit
	}
	return s
}

// WriteTipping writes tipping.csv: one row per search, each spec's in grid
// order; first the searched key, then a column per grid axis (empty for the
// axis over the key), then what the search found.
func WriteTipping(w io.Writer, g *sweep.Grid, o *tipping.Outcome) error {
	cw := csv.NewWriter(w)
	header := []string{"key"}
	for _, a := range g.Axes {
		header = append(header, a.Name)
	}
	for _, c := range tippingColumns {
		header = append(header, c.name)
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for k, ss := range o.Searches {
		for i := range ss {
			s := &ss[i]
			row := []string{o.Specs[k].Key}
			for _, a := range g.Axes {
				v := ""
				for _, p := range s.Params {
					if p.Axis == a.Name {
						v = p.Text
					}
				}
				row = append(row, v)
			}
			for _, c := range tippingColumns {
				row = append(row, c.get(s))
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// CompareTipping regenerates tipping.csv in memory and compares it with the
// baseline in dir/<name>/, as Compare does results.csv; nil without
// searches.
func CompareTipping(dir string, r *spec.Report, g *sweep.Grid, o *tipping.Outcome) ([]Deviation, error) {
	if o == nil {
		return nil, nil
	}
	var now bytes.Buffer
	if err := WriteTipping(&now, g, o); err != nil {
		return nil, err
	}
	const name = "tipping.csv"
	base, err := os.ReadFile(filepath.Join(dir, r.Name, name))
	if errors.Is(err, fs.ErrNotExist) {
		return []Deviation{{r.Name, name, "", "(file)", "missing", "generated"}}, nil
	} else if err != nil {
		return nil, err
	}
	devs, err := compareCSV(base, now.Bytes(), 1+len(g.Axes), r.Tolerance)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, r.Name, name), err)
	}
	for i := range devs {
		devs[i].Experiment, devs[i].File = r.Name, name
	}
	return devs, nil
}

// TippingColumnsMarkdown documents tipping.csv's columns after the searched
// key and the grid's axes, for experiments/README.md.
func TippingColumnsMarkdown() string {
	var b strings.Builder
	b.WriteString("| column | meaning |\n|---|---|\n")
	for _, c := range tippingColumns {
		fmt.Fprintf(&b, "| `%s` | %s |\n", c.name, c.doc)
	}
	return b.String()
}
