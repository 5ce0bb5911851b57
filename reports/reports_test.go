package reports

import (
	"bytes"
	"context"
	"flag"
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
	results, err := sweep.Run(context.Background(), e.Grid.Cells(), 2, nil)
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
	list, err := Files(&e.Report, e.Grid, results, Options{})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range list {
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		files[f.Name] = buf.Bytes()
	}
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
