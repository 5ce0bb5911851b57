package reports

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func runGolden(t *testing.T) (*experiments.Experiment, []model.Result) {
	t.Helper()
	e, err := experiments.Load("testdata/golden.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	results, err := sweep.Run(context.Background(), e.Grid.Cells(), sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return e, results
}

// TestGolden compares results.csv, series.csv and report.md of a small
// experiment with testdata/*.golden. On a difference it writes the new file
// as .got beside the golden one; go test ./reports -update accepts it.
func TestGolden(t *testing.T) {
	e, results := runGolden(t)
	files := rendered(t, e, results, nil)
	for _, name := range []string{"results.csv", "series.csv", "report.md"} {
		got, ok := files[name]
		if !ok {
			t.Errorf("%s was not generated", name)
			continue
		}
		golden := filepath.Join("testdata", name+".golden")
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./reports -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			os.WriteFile(strings.TrimSuffix(golden, ".golden")+".got", got, 0o644)
			t.Errorf("%s differs from %s; the new one is in testdata/%s.got", name, golden, name)
		}
	}
	for _, f := range []string{"series.png", "series.svg"} {
		if len(files[f]) == 0 {
			t.Errorf("figure %s missing", f)
		}
	}
}

func TestCompareTolerance(t *testing.T) {
	base := []byte("load,calls,recovered,recovery_s\n50,100,true,10\n60,200,false,\n")
	for _, c := range []struct {
		now  string
		tol  map[string]spec.Tolerance
		devs int
	}{
		{"load,calls,recovered,recovery_s\n50,100,true,10\n60,200,false,\n", nil, 0},
		{"load,calls,recovered,recovery_s\n50,101,true,10\n60,200,false,\n", nil, 1},
		{"load,calls,recovered,recovery_s\n50,101,true,10\n60,200,false,\n", map[string]spec.Tolerance{"calls": {Abs: 1}}, 0},
		{"load,calls,recovered,recovery_s\n50,110,true,10\n60,200,false,\n", map[string]spec.Tolerance{"calls": {Rel: 0.05}}, 1},
		{"load,calls,recovered,recovery_s\n50,100,false,\n60,200,false,\n", nil, 2},
		{"load,calls,recovered,recovery_s\n50,100,true,10\n", nil, 1},
		{"load,calls,recovered\n50,100,true\n", nil, 1},
	} {
		devs, err := compareCSV(base, []byte(c.now), 1, c.tol)
		if err != nil {
			t.Fatal(err)
		}
		if len(devs) != c.devs {
			t.Errorf("now %q tol %v: %d deviations %v, want %d", c.now, c.tol, len(devs), devs, c.devs)
		}
	}
}

func TestWriteIsAtomicAndRepeatable(t *testing.T) {
	e, results := runGolden(t)
	dir := t.TempDir()
	if err := Write(dir, &e.Report, e.Grid, results, Options{}); err != nil {
		t.Fatal(err)
	}
	first := readAll(t, filepath.Join(dir, e.Name))
	if err := Write(dir, &e.Report, e.Grid, results, Options{}); err != nil {
		t.Fatal(err)
	}
	second := readAll(t, filepath.Join(dir, e.Name))
	if len(first) != len(second) {
		t.Fatalf("file sets differ: %d vs %d", len(first), len(second))
	}
	for name, data := range first {
		if !bytes.Equal(data, second[name]) {
			t.Errorf("%s changed between two writes of the same results", name)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
	if err := WriteIndex(dir); err != nil {
		t.Fatal(err)
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	if !strings.Contains(string(idx), "[golden](golden/report.md)") {
		t.Errorf("index does not link the report:\n%s", idx)
	}
}

func readAll(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, en := range entries {
		out[en.Name()], _ = os.ReadFile(filepath.Join(dir, en.Name()))
	}
	return out
}

// Write replaces a folder it wrote (it holds the marker) and refuses any
// other, removing nothing; CheckOut says the same before anything runs.
func TestWriteReplacesOnlyItsOwnFolders(t *testing.T) {
	e, results := runGolden(t)
	dir := t.TempDir()
	if err := CheckOut(dir, []string{e.Name}); err != nil {
		t.Fatalf("empty folder refused: %v", err)
	}
	if err := Write(dir, &e.Report, e.Grid, results, Options{NoFigures: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, e.Name, Marker)); err != nil {
		t.Fatalf("no marker written: %v", err)
	}
	if err := Write(dir, &e.Report, e.Grid, results, Options{NoFigures: true}); err != nil {
		t.Fatalf("own folder not replaced: %v", err)
	}

	foreign := filepath.Join(dir, "foreign")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "engine.go"), []byte("package model\n"), 0o644)
	r := e.Report
	r.Name = "foreign"
	var re *RefusedError
	if err := CheckOut(dir, []string{e.Name, "foreign"}); !errors.As(err, &re) || !strings.Contains(err.Error(), "stormlab did not write it") {
		t.Errorf("CheckOut: %v, want a refusal", err)
	}
	if err := Write(dir, &r, e.Grid, results, Options{NoFigures: true}); !errors.As(err, &re) {
		t.Errorf("Write over a foreign folder: %v, want a refusal", err)
	}
	if data, err := os.ReadFile(filepath.Join(foreign, "engine.go")); err != nil || string(data) != "package model\n" {
		t.Errorf("the foreign folder was touched: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	for _, out := range []string{filepath.Join(dir, "file"), filepath.Join(dir, "file", "sub")} {
		if err := CheckOut(out, []string{e.Name}); !errors.As(err, &re) {
			t.Errorf("CheckOut(%s): %v, want a refusal", out, err)
		}
	}
	if err := CheckOut(filepath.Join(dir, "new", "deeper"), []string{e.Name}); err != nil {
		t.Errorf("a folder that can be created was refused: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); !os.IsNotExist(err) {
		t.Errorf("CheckOut created the folder")
	}
	if err := WriteIndex(dir); err != nil {
		t.Fatal(err)
	}
	if idx, _ := os.ReadFile(filepath.Join(dir, "README.md")); strings.Contains(string(idx), "foreign") {
		t.Errorf("the index lists a folder stormlab did not write")
	}
}

// An aborted cell's row has every metric empty (no "NaN", no "false") and
// its reason in an aborted column, present only when a cell was aborted;
// the refine columns appear only with refined results.
func TestAbortedAndRefinedColumns(t *testing.T) {
	e, results := runGolden(t)
	var plain bytes.Buffer
	if err := WriteResults(&plain, e.Grid, results, nil); err != nil {
		t.Fatal(err)
	}
	if s := plain.String(); strings.Contains(s, "aborted") || strings.Contains(s, "tick_flip") {
		t.Errorf("extra columns without aborted or refined cells:\n%s", s)
	}
	cut := append([]model.Result(nil), results...)
	cut[0] = model.Result{Aborted: "stopped at 1.0 s", Replicates: 1}
	cut[0].RecoveryS = math.NaN()
	half := append([]model.Result(nil), results...)
	if half[1].Recovered() {
		half[1].Verdict = model.Stuck
	} else {
		half[1].Verdict = model.Recovered
	}
	var b bytes.Buffer
	if err := WriteResults(&b, e.Grid, cut, half); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if rows[0][len(rows[0])-1] != "aborted" {
		t.Fatalf("aborted is not the last column: %v", rows[0])
	}
	axes := len(e.Grid.Axes)
	for i, v := range rows[1][axes:col["refined_recovered"]] {
		if v != "" {
			t.Errorf("aborted row: %s = %q, want empty", rows[0][axes+i], v)
		}
	}
	if got := rows[1][col["aborted"]]; got != "stopped at 1.0 s" {
		t.Errorf("aborted reason %q", got)
	}
	if rows[2][col["aborted"]] != "" || rows[2][col["recovered"]] == "" {
		t.Errorf("normal row: aborted %q, recovered %q", rows[2][col["aborted"]], rows[2][col["recovered"]])
	}
	if rows[2][col["tick_flip"]] != "true" || rows[3][col["tick_flip"]] != "false" {
		t.Errorf("tick_flip: %q, %q; want true for the flipped cell, false for the next", rows[2][col["tick_flip"]], rows[3][col["tick_flip"]])
	}
	var md bytes.Buffer
	if err := WriteReport(&md, &e.Report, e.Grid, cut, half, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"aborted, stopped at 1.0 s", "## At half the tick", fmt.Sprintf("1 of %d verdicts changed", len(cut))} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}
