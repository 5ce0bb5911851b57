package pipeline

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stormlab/stormlab/reports"
)

// Where a run writes: -out as given, whatever happens; out/ for a run
// partial from the start, said once; reports/ for a whole run, and out/
// for one of its experiments found partial when it has run, said then.
func TestOutPlan(t *testing.T) {
	for _, c := range []struct {
		name            string
		out             string
		given           bool
		reason          string
		want            OutPlan
		note            bool
		aborted, placed string
	}{
		{"-out given", "r", true, "-set changes the experiment", OutPlan{Dir: "r"}, false, "r", "r"},
		{"partial", DefaultOut, false, "-refine adds columns to results.csv", OutPlan{Dir: ScratchOut}, true, ScratchOut, ScratchOut},
		{"whole", DefaultOut, false, "", OutPlan{Dir: DefaultOut, Scratch: ScratchOut}, false, ScratchOut, DefaultOut},
	} {
		var stderr bytes.Buffer
		got := ChooseOut(&stderr, c.out, c.given, c.reason)
		if got != c.want || (stderr.Len() > 0) != c.note {
			t.Errorf("%s: %+v, note %q", c.name, got, stderr.String())
		}
		if c.note && !bytes.Contains(stderr.Bytes(), []byte(c.reason+", so this run writes under out/, never over reports/")) {
			t.Errorf("%s: note %q", c.name, stderr.String())
		}
		stderr.Reset()
		if dir := got.ForExperiment(&stderr, "x", 0); dir != c.placed || stderr.Len() > 0 {
			t.Errorf("%s, nothing aborted: %s, %q", c.name, dir, stderr.String())
		}
		moved := c.aborted != got.Dir
		if dir := got.ForExperiment(&stderr, "x", 2); dir != c.aborted || (stderr.Len() > 0) != moved {
			t.Errorf("%s, 2 aborted: %s, %q", c.name, dir, stderr.String())
		}
		if moved && !bytes.Contains(stderr.Bytes(), []byte("x: 2 cell runs stopped at the memory cap, so its report is written under out/x, never over reports/x")) {
			t.Errorf("%s: note %q", c.name, stderr.String())
		}
	}
}

// Check refuses, before anything runs, a folder stormlab did not write
// in any place the run may write: under Scratch too, for a whole run.
func TestOutPlanCheck(t *testing.T) {
	root := t.TempDir()
	plan := OutPlan{Dir: filepath.Join(root, "reports"), Scratch: filepath.Join(root, "out")}
	if err := plan.Check([]string{"x"}); err != nil {
		t.Fatalf("fresh folders: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(plan.Scratch, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	var re *reports.RefusedError
	if err := plan.Check([]string{"x"}); !errors.As(err, &re) {
		t.Errorf("out/x without a marker: %v", err)
	}
	if err := (OutPlan{Dir: plan.Dir}).Check([]string{"x"}); err != nil {
		t.Errorf("a run that writes only under reports/: %v", err)
	}
}
