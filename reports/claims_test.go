package reports

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// A finding's claims are checked on the results: one that holds leaves the
// sentence as written; one that does not is said beside it, with both
// sides as the results have them.
func TestClaimsChecked(t *testing.T) {
	src := `seed = 5
findings = [
  { text = "27 attempts never recover from a 10 s blip ({verdict[27 attempts; 10s]}), no retries do after {recovery_s[no retries; 10s]}; the rule says {rule_of_thumb_s[no retries; 10s]}.", holds = [
    "verdict[27 attempts; 10s] == stuck",
    "recovered[no retries; 10s] == true",
    "recovery_s[no retries; 10s] > rule_of_thumb_s[no retries; 10s]",
    "recovery_s[27 attempts; 10s] != 3",
    "abs(calls[no retries; 10s] - requests[no retries; 10s]) <= max(0, -1)",
    "calls[27 attempts; 10s] >= 2 * (calls[no retries; 10s] + 1) / 2",
    "min(successful[no retries; 10s], 1e9) == successful[no retries; 10s]",
  ] },
  { text = "Wrong: 27 attempts recover from 10 s.", holds = ["verdict[27 attempts; 10s] == recovered", "recovery_s[27 attempts; 10s] < 100", "calls[no retries; 10s] > calls[27 attempts; 10s]"] },
  "The run ends {@scenario.duration} after it starts.",
  "{calls[27 attempts; 10s]int} calls, {calls[27 attempts; 10s]%.0f} ungrouped.",
]
[scenario]
duration = "5m"
load = 70
dependency.capacity = 100
fault = [{ kind = "outage", start = "30s", length = "10s" }]
[[policy]]
name = "no retries"
attempts = 1
[[policy]]
name = "27 attempts"
attempts = 27
[grid]
blip = ["10s"]
`
	e, err := experiments.Parse("claims.toml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	results, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	good := renderFinding(e.Grid, e.Findings[0], results)
	if strings.Contains(good, ClaimFails) || !strings.Contains(good, "(stuck)") || !strings.Contains(good, "the rule says 1.43 s") {
		t.Errorf("claims that hold: %s", good)
	}
	bad := renderFinding(e.Grid, e.Findings[1], results)
	for _, want := range []string{ClaimFails, "`verdict[27 attempts; 10s] == recovered` (stuck against recovered)", "`recovery_s[27 attempts; 10s] < 100` (none against 100)", "`calls[no retries; 10s] > calls[27 attempts; 10s]`"} {
		if !strings.Contains(bad, want) {
			t.Errorf("claims that fail: %s\nlacks %s", bad, want)
		}
	}
	if got := FailedClaims(&e.Report, e.Grid, results); len(got) != 1 || !strings.HasPrefix(got[0], "findings.1 does not hold on these results: `verdict[27 attempts; 10s] == recovered`") {
		t.Errorf("FailedClaims: %q", got)
	}
	if got := renderFinding(e.Grid, e.Findings[2], results); got != "The run ends 5m after it starts." {
		t.Errorf("key value: %q", got)
	}
	// int rounds and groups thousands; a verb writes the number as Go does.
	got := renderFinding(e.Grid, e.Findings[3], results)
	grouped, plain, ok := strings.Cut(strings.TrimSuffix(got, " ungrouped."), " calls, ")
	if !ok || !regexp.MustCompile(`^\d{1,3}(,\d{3})+$`).MatchString(grouped) || strings.ReplaceAll(grouped, ",", "") != plain {
		t.Errorf("int format: %q", got)
	}
	// The key's value follows -set.
	e, err = experiments.Parse("claims.toml", []byte(src), []string{"scenario.duration=10m"})
	if err != nil {
		t.Fatal(err)
	}
	if got := renderFinding(e.Grid, e.Findings[2], results); got != "The run ends 10m after it starts." {
		t.Errorf("key value after -set: %q", got)
	}
	for _, c := range []struct{ holds, msg string }{
		{"recovered[no retries; 10s]", "compares nothing"},
		{"1 < 2", "compares no result"},
		{"calls[no retries; 10s] = 3", "is not a comparison"},
		{"calls[no retries; 99s] > 3", "no cell has the values"},
		{"calls[no retries; 10s] > ", "needs a value on both sides"},
		{"sqrt(calls[no retries; 10s]) > 3", "is not a function"},
		{"max(calls[no retries; 10s]) > 3", "two values or more"},
		{"(calls[no retries; 10s] > 3", "compares nothing"},
		{"calls[no retries; 10s] + > 3", "a value is missing"},
		{"calls[no retries; 10s] 3 > 3", "unexpected"},
		{"verdict[no retries; 10s] < stuck", "only with == or !="},
	} {
		bad := strings.Replace(src, `"The run ends {@scenario.duration} after it starts."`, `{ text = "x", holds = ["`+c.holds+`"] }`, 1)
		if _, err := experiments.Parse("claims.toml", []byte(bad), nil); err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "findings.2.holds.0") {
			t.Errorf("%q: %v, want an error at findings.2.holds.0 saying %q", c.holds, err, c.msg)
		}
	}
	// A run whose overrides remove a cell a finding or a claim cites leaves
	// it out and says so; the file alone must cite cells it has.
	e, err = experiments.Parse("claims.toml", []byte(src), []string{"grid.blip=20s"})
	if err != nil || len(e.Findings) != 1 || len(e.Omitted) != 3 || !strings.Contains(e.Omitted[0], "findings.0 is left out") || !strings.Contains(e.Omitted[1], "findings.1 is left out: its claim findings.1.holds.0 cites") {
		t.Errorf("-set grid.blip=20s: %v, %d findings, omitted %q", err, len(e.Findings), e.Omitted)
	}
	if _, err := experiments.Parse("claims.toml", []byte(strings.Replace(src, "{verdict[27 attempts; 10s]}", "{verdict[27 attempts; 20s]}", 1)), nil); err == nil || !strings.Contains(err.Error(), "no cell has the values 27 attempts; 20s") {
		t.Errorf("a cell the file lacks: %v", err)
	}
	if _, err := experiments.Parse("claims.toml", []byte(strings.Replace(src, "{@scenario.duration}", "{@scenario.nothing}", 1)), nil); err == nil || !strings.Contains(err.Error(), `no value at "scenario.nothing"`) {
		t.Errorf("a key the file lacks: %v", err)
	}
}

// No committed report states a finding its own results contradict: every
// claim of every experiment's findings and answer holds on the results
// committed beside it (a report whose claim failed would say so).
func TestCommittedFindingsHold(t *testing.T) {
	reports, _ := filepath.Glob("*/report.md")
	if len(reports) < 10 {
		t.Fatalf("found %d committed reports", len(reports))
	}
	for _, f := range append(reports, "README.md") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, ClaimFails) {
				t.Errorf("%s: %s", f, line)
			}
		}
	}
}
