package lab

import (
	"math"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/model"
)

// comparison is one result column of one cell, the model's value beside
// the lab's, and whether they agree within the column's tolerance.
type comparison struct {
	Column     spec.LabColumn
	Metric     model.Metric
	Model, Lab float64
	Agrees     bool
}

// compare compares a column of a cell's model result with its lab run:
// verdicts and booleans exactly, numbers within |lab − model| ≤ abs or ≤
// rel × |model|; two empty values agree, one empty value does not.
func compare(col spec.LabColumn, m model.Metric, modelR, labR *model.Result) comparison {
	c := comparison{Column: col, Metric: m, Model: m.Value(modelR), Lab: m.Value(labR)}
	switch {
	case math.IsNaN(c.Model) || math.IsNaN(c.Lab):
		c.Agrees = math.IsNaN(c.Model) && math.IsNaN(c.Lab)
	case m.Kind == "verdict" || m.Kind == "bool":
		c.Agrees = c.Model == c.Lab
	default:
		d := math.Abs(c.Lab - c.Model)
		c.Agrees = d <= col.Abs+1e-9 || d <= col.Rel*math.Abs(c.Model)+1e-9
	}
	return c
}

// defaultColumns are compared when an experiment has no [lab] section:
// the counts, exactly, and the verdict.
func defaultColumns() []spec.LabColumn {
	why := "the experiment states no tolerance (it has no [lab] section): compared exactly"
	var out []spec.LabColumn
	for _, n := range []string{"verdict", "requests", "calls", "successful", "failed", "retries_refused"} {
		out = append(out, spec.LabColumn{Name: n, Why: why})
	}
	return out
}
