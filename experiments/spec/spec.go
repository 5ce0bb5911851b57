// Package spec is what an experiment asks of its results beside its grid:
// the report's name and headings, the author's findings, the figures and
// the tolerance of the baseline check. It is plain data: package
// experiments fills it from a file, packages plots and reports read it.
package spec

import (
	"strings"

	"github.com/stormlab/stormlab/model"
)

// Report is an experiment's report, apart from its grid and results.
type Report struct {
	Name     string // folder name under reports/
	Title    string // one line for headings
	Question string // what the experiment asks
	File     string // the experiment file, for "regenerate with"
	Findings []Finding
	Figures  []Figure
	// Tolerance is how far a regenerated number of a results.csv column
	// may move from its baseline; columns it does not name get the
	// default tolerance.
	Tolerance map[string]Tolerance
}

// ValidName reports whether s can name a file or folder of a report:
// letters, digits, '-', '_' and '.', at most 100 of them, not "." or "..".
func ValidName(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return s != "." && s != ".."
}

// Columns lists the results.csv metric columns a finding, a figure or a
// tolerance may name, comma separated, for a message.
func Columns() string {
	var names []string
	for _, m := range model.MetricList() {
		names = append(names, m.Name)
	}
	return strings.Join(names, ", ")
}
