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
	// Overrides are the -set PATH=VALUE flags applied over the file, as
	// given; the report lists them.
	Overrides []string
	// Command is the command line that regenerates the report; empty means
	// "stormlab run File".
	Command string
	// Answer is what the experiment found, in the author's sentences
	// whose numbers come from the results: report.md opens with it.
	Answer   []Finding
	Findings []Finding
	Figures  []Figure
	// Tolerance is how far a regenerated number of a results.csv column
	// may move from its baseline; columns it does not name get the
	// default tolerance.
	Tolerance map[string]Tolerance
	// Tipping are the boundary searches run beside the grid.
	Tipping []Tipping
	// Lab is what stormlab lab runs and compares; nil when the file has no
	// [lab] section.
	Lab *Lab
	// Omitted says which of the file's findings (or their claims) this run
	// leaves out because they cite cells its -set overrides removed from
	// the grid; the report lists them in its notes.
	Omitted []string
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

// IndexName is the file beside the experiments' folders that indexes
// them (reports/README.md): no experiment may take its name.
const IndexName = "README.md"

// ExperimentNameRule is what ValidExperimentName allows, for messages.
const ExperimentNameRule = "a letter or digit, then letters, digits, '-', '_' or '.', at most 100 in all, and not \"testdata\" or \"" + IndexName + "\""

// ValidExperimentName reports whether s can name an experiment's folder
// under an output folder: a ValidName that starts with a letter or a digit
// (no hidden folder such as .git, nothing that reads as a flag) and is
// neither "testdata", where Go packages keep their test files
// (reports/testdata holds golden files), nor IndexName, the index beside
// the folders (in any case, as a file system that ignores case reads it).
func ValidExperimentName(s string) bool {
	if !ValidName(s) || strings.EqualFold(s, "testdata") || strings.EqualFold(s, IndexName) {
		return false
	}
	r := s[0]
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// Columns lists the results.csv metric columns a finding, a figure or a
// tolerance may name, comma separated, for a message.
func Columns() string { return strings.Join(ColumnNames(), ", ") }

// ColumnNames lists the results.csv metric columns.
func ColumnNames() []string {
	var names []string
	for _, m := range model.MetricList() {
		names = append(names, m.Name)
	}
	return names
}
