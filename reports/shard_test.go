package reports

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// goldenShards runs the golden experiment (and each cell at half its
// tick), writes it as n shards under dir with origin o, and returns the
// experiment and its results.
func goldenShards(t *testing.T, dir string, n int, o *Origin) (*experiments.Experiment, []model.Result, []model.Result) {
	t.Helper()
	e, results := runGolden(t)
	var half []sweep.Cell
	for _, c := range e.Grid.Cells() {
		r, err := c.Refined()
		if err != nil {
			t.Fatal(err)
		}
		half = append(half, r)
	}
	refined, err := sweep.Run(context.Background(), half, sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for k, pos := range sweep.Split(e.Grid.Cells(), n) {
		var rs, hs []model.Result
		for _, p := range pos {
			rs, hs = append(rs, results[p]), append(hs, refined[p])
		}
		if err := WriteShard(dir, o, sweep.Shard{K: k, N: n}, e.Grid, pos, rs, hs); err != nil {
			t.Fatal(err)
		}
	}
	return e, results, refined
}

func goldenOrigin(t *testing.T) *Origin {
	src, err := os.ReadFile("testdata/golden.toml")
	if err != nil {
		t.Fatal(err)
	}
	return &Origin{Experiment: "golden", File: "testdata/golden.toml", Source: src,
		Flags: []Flag{{"refine", "true"}}, Version: "stormlab test"}
}

// readShards reads the shard folders of golden under dir, 0 to n-1.
func readShards(t *testing.T, dir string, n int) []*ShardFolder {
	t.Helper()
	var out []*ShardFolder
	for k := range n {
		f, err := ReadShard(filepath.Join(dir, ShardDir("golden", sweep.Shard{K: k, N: n})))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// rendered is every file Files renders, by name.
func rendered(t *testing.T, e *experiments.Experiment, results, refined []model.Result) map[string][]byte {
	t.Helper()
	list, err := Files(&e.Report, e.Grid, results, Options{Refined: refined})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range list {
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b.Bytes()
	}
	return out
}

// Shards gathered back give every file of the folder byte for byte, NaNs,
// series and the results at half the tick included; rows.csv lists each
// shard's cells by grid index.
func TestShardsGatherExactly(t *testing.T) {
	dir := t.TempDir()
	e, results, refined := goldenShards(t, dir, 4, goldenOrigin(t))
	folders := readShards(t, dir, 4)
	if err := CheckShards(folders); err != nil {
		t.Fatal(err)
	}
	got, half, err := Gather(folders, e.Grid, true)
	if err != nil {
		t.Fatal(err)
	}
	want, have := rendered(t, e, results, refined), rendered(t, e, got, half)
	if len(want) != len(have) {
		t.Fatalf("%d files from the shards, %d from the run", len(have), len(want))
	}
	for name, b := range want {
		if !bytes.Equal(b, have[name]) {
			t.Errorf("%s differs between the run and its shards gathered", name)
		}
	}
	seen := map[int]bool{}
	for _, f := range folders {
		rows := readCSV(t, filepath.Join(f.Path, shardRows))
		if i, ok := rows.col["cell"]; !ok || i != 0 || len(rows.data) != f.Cells {
			t.Fatalf("%s: cell is column %d, %d rows for %d cells", f.Path, rows.col["cell"], len(rows.data), f.Cells)
		}
		for i := range rows.data {
			c, err := strconv.Atoi(rows.row(i).text("cell"))
			if err != nil || seen[c] {
				t.Fatalf("%s: cell %q twice or not a number", f.Path, rows.row(i).text("cell"))
			}
			seen[c] = true
			if p := rows.row(i).text("policy"); p != e.Grid.Cells()[c].Params[0].Text {
				t.Errorf("%s: cell %d is %s in rows.csv", f.Path, c, p)
			}
		}
	}
	if len(seen) != len(results) {
		t.Errorf("rows.csv files list %d of %d cells", len(seen), len(results))
	}
}

// CheckShards names what differs between shards that do not belong
// together, and a folder changed after its shard ran.
func TestCheckShardsNamesTheProblem(t *testing.T) {
	base := t.TempDir()
	write := func(name string, n int, change func(*Origin)) []*ShardFolder {
		o := goldenOrigin(t)
		change(o)
		dir := filepath.Join(base, name)
		goldenShards(t, dir, n, o)
		return readShards(t, dir, n)
	}
	ok := write("ok", 2, func(*Origin) {})
	for _, c := range []struct {
		name    string
		folders []*ShardFolder
		want    string
	}{
		{"build", []*ShardFolder{ok[0], write("build", 2, func(o *Origin) { o.Version = "stormlab other" })[1]}, "was computed by stormlab test, " + filepath.Join(base, "build")},
		{"flags", []*ShardFolder{ok[0], write("flags", 2, func(o *Origin) { o.Flags = nil })[1]}, "with -refine=true, " + filepath.Join(base, "flags")},
		{"sets", []*ShardFolder{ok[0], write("sets", 2, func(o *Origin) { o.Sets = []string{"seed=2"} })[1]}, "with -set seed=2: shards of different -set values"},
		{"content", []*ShardFolder{ok[0], write("content", 2, func(o *Origin) { o.Source = append(o.Source, '\n') })[1]}, "ran different contents of testdata/golden.toml"},
		{"split", []*ShardFolder{ok[0], write("split", 3, func(*Origin) {})[1]}, "is shard 0/2, "},
		{"missing", ok[1:], "golden: shard 0/2 is missing (golden.shard-0-of-2): merge needs all 2 shards"},
		{"twice", []*ShardFolder{ok[0], ok[1], ok[1]}, "shard 1/2 of golden is given twice: " + ok[1].Path},
	} {
		err := CheckShards(c.folders)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line containing %q", c.name, err, c.want)
		}
	}
	path := filepath.Join(ok[1].Path, shardSource)
	if err := os.WriteFile(path, []byte("seed = 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed, err := ReadShard(ok[1].Path)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckShards([]*ShardFolder{ok[0], changed}); err == nil || !strings.Contains(err.Error(), "does not match its contents") {
		t.Errorf("a changed experiment.toml: %v", err)
	}
	if _, err := ReadShard(base); err == nil || !strings.Contains(err.Error(), "not a shard folder") {
		t.Errorf("a folder that is not a shard: %v", err)
	}
}

// A shard folder is complete for the run that wrote it and no other; a
// damaged results file makes it incomplete, and Gather refuses it.
func TestShardComplete(t *testing.T) {
	dir := t.TempDir()
	o := goldenOrigin(t)
	e, _, _ := goldenShards(t, dir, 2, o)
	f := readShards(t, dir, 2)[1]
	pos := sweep.Split(e.Grid.Cells(), 2)
	s := sweep.Shard{K: 1, N: 2}
	if !f.Complete(o, s, pos[1]) {
		t.Fatal("a shard just written is not complete")
	}
	other := *o
	other.Sets = []string{"seed=2"}
	if f.Complete(&other, s, pos[1]) || f.Complete(o, sweep.Shard{K: 0, N: 2}, pos[0]) {
		t.Error("complete for another run or another shard")
	}
	path := filepath.Join(f.Path, shardResults)
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if f.Complete(o, s, pos[1]) {
		t.Error("complete with half its results file")
	}
	if _, _, err := Gather(readShards(t, dir, 2), e.Grid, true); err == nil || !strings.Contains(err.Error(), "copied only in part") {
		t.Errorf("Gather of a damaged shard: %v", err)
	}
}
