package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/plots"
)

// TestAnswer: report.md opens with the answer, its numbers from the
// results, and reports/README.md sets each experiment's answer beside its
// question; a report without one is represented by its first finding in
// prose.
func TestAnswer(t *testing.T) {
	dir := t.TempDir()
	var said []string // what each report should quote
	for _, src := range []string{`
name = "with-answer"
question = "Does it recover?"
answer = "It recovers {recovery_s[1]} after the fault."
findings = ["| a | table |\n|---|---|", "A finding."]
[scenario]
duration = "5m"
fault = [{ kind = "outage", start = "60s", length = "30s" }]
[grid]
attempts = [1]
`, `
name = "without"
question = "And this one?"
findings = ["| a | table |\n|---|---|", "Its first prose finding, {calls[1]} calls."]
[scenario]
duration = "5m"
[grid]
attempts = [1]
`} {
		e, results := runSource(t, src)
		if err := Write(dir, &e.Report, e.Grid, results, Options{NoFigures: true}); err != nil {
			t.Fatal(err)
		}
		said = append(said, plots.Number(results[0].RecoveryS)+" s", plots.Number(results[0].Calls))
	}
	md, _ := os.ReadFile(filepath.Join(dir, "with-answer", "report.md"))
	a, f := strings.Index(string(md), "## Answer\n\nIt recovers "+said[0]+" after the fault.\n"), strings.Index(string(md), "## Findings")
	if a < 0 || f < a {
		t.Errorf("report.md does not open with the answer:\n%s", md)
	}
	if err := WriteIndex(dir); err != nil {
		t.Fatal(err)
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	for _, want := range []string{
		"| experiment | question | answer |",
		"| Does it recover? | It recovers " + said[0] + " after the fault. |",
		"| And this one? | Its first prose finding, " + said[3] + " calls. |",
	} {
		if !strings.Contains(string(idx), want) {
			t.Errorf("index lacks %q:\n%s", want, idx)
		}
	}
}
