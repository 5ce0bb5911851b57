package reports

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// A shard folder is what `stormlab run -shard K/N` writes for one
// experiment: the results of the cells sweep.Split gives shard K, and
// everything `stormlab merge` needs to put the shards back together into
// the folder a single run writes, with no access to the experiment file:
//
//	.stormlab        the marker: stormlab may replace this folder
//	shard.json       the manifest: experiment, file, shard, grid indices, -set values, flags, version, fingerprint
//	experiment.toml  the experiment file's content, as the shard read it
//	rows.csv         results.csv's rows of the shard's cells, each led by its grid index (cell)
//	results.gob      every result exactly (gob keeps every bit of every number), for merge
//
// rows.csv is for people and scripts; merge reads results.gob, because the
// figures and report.md are drawn from the full numbers, not from the six
// decimals of a CSV.
const (
	ShardManifest = "shard.json"
	shardSource   = "experiment.toml"
	shardRows     = "rows.csv"
	shardResults  = "results.gob"
)

// ShardDir names the folder of shard s of an experiment: "<name>.shard-K-of-N".
func ShardDir(name string, s sweep.Shard) string {
	return fmt.Sprintf("%s.shard-%d-of-%d", name, s.K, s.N)
}

// Origin is what makes the results of a shard what they are: the
// experiment, its file's content, the -set values and run flags it was run
// with, and the build of stormlab that computed them. Shards merge only
// when their origins are equal.
type Origin struct {
	Experiment string   // the experiment's name
	File       string   // the experiment file, as the command line gave it
	Source     []byte   // the file's content
	Sets       []string // -set PATH=VALUE flags, in order
	Flags      []Flag   // the other run flags that shape the results or the report, in name order
	Version    string   // the stormlab build
}

// Flag is one command-line flag, by name and value.
type Flag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Fingerprint is a SHA-256 over the origin's version, file content, -set
// values and flags, as "sha256:<hex>".
func (o *Origin) Fingerprint() string {
	h := sha256.New()
	field := func(b []byte) {
		binary.Write(h, binary.BigEndian, uint64(len(b)))
		h.Write(b)
	}
	field([]byte("stormlab shard 1"))
	field([]byte(o.Version))
	field(o.Source)
	binary.Write(h, binary.BigEndian, uint64(len(o.Sets)))
	for _, s := range o.Sets {
		field([]byte(s))
	}
	binary.Write(h, binary.BigEndian, uint64(len(o.Flags)))
	for _, f := range o.Flags {
		field([]byte(f.Name))
		field([]byte(f.Value))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// ShardInfo is a shard folder's manifest, shard.json.
type ShardInfo struct {
	Experiment  string   `json:"experiment"`
	File        string   `json:"file"`
	Shard       int      `json:"shard"`  // K
	Shards      int      `json:"shards"` // N
	GridCells   int      `json:"grid_cells"`
	Cells       int      `json:"cells"` // cells in the shard; rows.csv and results.gob hold their grid indices
	Sets        []string `json:"sets"`
	Flags       []Flag   `json:"flags"`
	Version     string   `json:"version"`
	Fingerprint string   `json:"fingerprint"`
	Results     string   `json:"results_sha256"` // of results.gob
	Aborted     int      `json:"aborted"`        // cells stopped at the memory cap
}

// shardPayload is what results.gob holds.
type shardPayload struct {
	Cells   []int
	Results []model.Result
	Refined []model.Result // with -refine: each cell again at half its tick
}

// WriteShard replaces dir/ShardDir(name, s) with shard s of the run o: the
// cells at grid positions cells, with their results (and with -refine the
// results at half the tick), in that order. Like Write, it writes beside
// the old folder and swaps it in by rename, and refuses a folder it did not
// write (*RefusedError).
func WriteShard(dir string, o *Origin, s sweep.Shard, g *sweep.Grid, cells []int, results, refined []model.Result) error {
	dst := filepath.Join(dir, ShardDir(o.Experiment, s))
	if err := replaceable(dst); err != nil {
		return err
	}
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(shardPayload{Cells: cells, Results: results, Refined: refined}); err != nil {
		return fmt.Errorf("%s: %w", o.Experiment, err)
	}
	sum := sha256.Sum256(payload.Bytes())
	info := ShardInfo{
		Experiment: o.Experiment, File: o.File, Shard: s.K, Shards: s.N,
		GridCells: len(g.Cells()), Cells: len(cells), Sets: append([]string{}, o.Sets...), Flags: append([]Flag{}, o.Flags...),
		Version: o.Version, Fingerprint: o.Fingerprint(),
		Results: hex.EncodeToString(sum[:]), Aborted: CountAborted(results) + CountAborted(refined),
	}
	manifest, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return writeDir(dst, []File{
		{Marker, bytesOf([]byte(markerText))},
		{shardSource, bytesOf(o.Source)},
		{shardRows, func(w io.Writer) error { return WriteShardRows(w, g, cells, results, refined) }},
		{shardResults, bytesOf(payload.Bytes())},
		{ShardManifest, bytesOf(append(manifest, '\n'))},
	})
}

// ShardFolder is a shard folder as read back: its path, its manifest and
// the experiment file's content it holds.
type ShardFolder struct {
	Path string
	ShardInfo
	Source []byte
}

// ReadShard reads the manifest and the experiment file of the shard folder
// at path; the results stay on disk until Gather reads them.
func ReadShard(path string) (*ShardFolder, error) {
	data, err := os.ReadFile(filepath.Join(path, ShardManifest))
	if errors.Is(err, fs.ErrNotExist) {
		if info, serr := os.Stat(path); serr != nil || !info.IsDir() {
			return nil, fmt.Errorf("%s: no such folder", path)
		}
		return nil, fmt.Errorf("%s: not a shard folder (it has no %s; stormlab run -shard K/N writes one)", path, ShardManifest)
	}
	if err != nil {
		return nil, err
	}
	f := &ShardFolder{Path: path}
	if err := json.Unmarshal(data, &f.ShardInfo); err != nil {
		return nil, fmt.Errorf("%s: %s is damaged: %v", path, ShardManifest, err)
	}
	if f.Source, err = os.ReadFile(filepath.Join(path, shardSource)); err != nil {
		return nil, fmt.Errorf("%s: incomplete shard folder: %v", path, err)
	}
	if f.Shards < 1 || f.Shard < 0 || f.Shard >= f.Shards {
		return nil, fmt.Errorf("%s: %s names shard %d of %d, which does not exist", path, ShardManifest, f.Shard, f.Shards)
	}
	return f, nil
}

// Origin is the run the folder says it belongs to.
func (f *ShardFolder) Origin() *Origin {
	return &Origin{Experiment: f.Experiment, File: f.File, Source: f.Source, Sets: f.Sets, Flags: f.Flags, Version: f.Version}
}

// Sweep is the folder's shard, K of N.
func (f *ShardFolder) Sweep() sweep.Shard { return sweep.Shard{K: f.Shard, N: f.Shards} }

// Complete reports whether the folder already holds shard s of the run o
// whole: the same fingerprint, the cells the assignment gives the shard,
// results that match the manifest, and no cell stopped at the memory cap.
// A rerun skips such a shard.
func (f *ShardFolder) Complete(o *Origin, s sweep.Shard, cells []int) bool {
	if f.Fingerprint != o.Fingerprint() || f.Origin().Fingerprint() != f.Fingerprint ||
		f.Sweep() != s || f.Cells != len(cells) || f.Aborted > 0 {
		return false
	}
	p, err := f.payload()
	return err == nil && slices.Equal(p.Cells, cells)
}

// payload reads results.gob, checks it against the manifest and decodes it.
func (f *ShardFolder) payload() (*shardPayload, error) {
	data, err := os.ReadFile(filepath.Join(f.Path, shardResults))
	if err != nil {
		return nil, fmt.Errorf("%s: incomplete shard folder: %v", f.Path, err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != f.Results {
		return nil, fmt.Errorf("%s: %s does not match %s (damaged, or copied only in part)", f.Path, shardResults, ShardManifest)
	}
	var p shardPayload
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: %s: %v", f.Path, shardResults, err)
	}
	if len(p.Cells) != f.Cells || len(p.Results) != len(p.Cells) || (p.Refined != nil && len(p.Refined) != len(p.Cells)) {
		return nil, fmt.Errorf("%s: %s does not hold the cells %s lists", f.Path, shardResults, ShardManifest)
	}
	return &p, nil
}

// CheckShards checks that folders are every shard of one run of one
// experiment, each exactly once: the same experiment and file, the same
// number of shards, the same stormlab build, file content, -set values and
// flags (each folder's fingerprint recomputed from what it holds), no shard
// given twice and none missing. The error is one line naming the problem
// and the folders it concerns.
func CheckShards(folders []*ShardFolder) error {
	if len(folders) == 0 {
		return errors.New("no shard folders given")
	}
	first := folders[0]
	for _, f := range folders {
		if fp := f.Origin().Fingerprint(); fp != f.Fingerprint {
			return fmt.Errorf("%s: its fingerprint %s does not match its contents (%s): the folder was changed after the shard ran", f.Path, short(f.Fingerprint), short(fp))
		}
		if err := sameRun(first, f); err != nil {
			return err
		}
	}
	n := first.Shards
	by := make(map[int]*ShardFolder, n)
	for _, f := range folders {
		if g, dup := by[f.Shard]; dup {
			if filepath.Clean(g.Path) == filepath.Clean(f.Path) {
				return fmt.Errorf("shard %s of %s is given twice: %s", f.Sweep(), f.Experiment, f.Path)
			}
			return fmt.Errorf("shard %s of %s is given twice: %s and %s", f.Sweep(), f.Experiment, g.Path, f.Path)
		}
		by[f.Shard] = f
	}
	var missing, names []string
	for k := range n {
		if by[k] == nil {
			s := sweep.Shard{K: k, N: n}
			missing = append(missing, s.String())
			names = append(names, ShardDir(first.Experiment, s))
		}
	}
	if len(missing) > 0 {
		what := "shard " + missing[0] + " is"
		if len(missing) > 1 {
			what = fmt.Sprintf("%d shards are", len(missing))
		}
		more := ""
		if len(names) > 5 {
			names, more = names[:5], ", ..."
		}
		return fmt.Errorf("%s: %s missing (%s%s): merge needs all %d shards", first.Experiment, what, strings.Join(names, ", "), more, n)
	}
	return nil
}

// sameRun says how shard folder f differs from the first one given, in the
// order a person would look: experiment, number of shards, build, file,
// -set values, flags.
func sameRun(first, f *ShardFolder) error {
	switch {
	case f.Experiment != first.Experiment || f.File != first.File:
		return fmt.Errorf("shards of different experiments: %s holds %s (%s), %s holds %s (%s); merge one experiment's shards at a time",
			first.Path, first.Experiment, first.File, f.Path, f.Experiment, f.File)
	case f.Shards != first.Shards:
		return fmt.Errorf("%s is shard %s, %s is shard %s: shards of different splits of %s", first.Path, first.Sweep(), f.Path, f.Sweep(), f.Experiment)
	case f.Version != first.Version:
		return fmt.Errorf("%s was computed by %s, %s by %s: merge shards of one stormlab build", first.Path, first.Version, f.Path, f.Version)
	case !bytes.Equal(f.Source, first.Source):
		return fmt.Errorf("%s and %s ran different contents of %s: the file changed between the shards' runs", first.Path, f.Path, f.File)
	case !slices.Equal(f.Sets, first.Sets):
		return fmt.Errorf("%s was run with %s, %s with %s: shards of different -set values", first.Path, setsText(first.Sets), f.Path, setsText(f.Sets))
	case !slices.Equal(f.Flags, first.Flags):
		return fmt.Errorf("%s was run with %s, %s with %s: shards of different flags", first.Path, flagsText(first.Flags), f.Path, flagsText(f.Flags))
	}
	return nil
}

func setsText(sets []string) string {
	if len(sets) == 0 {
		return "no -set"
	}
	parts := make([]string, len(sets))
	for i, s := range sets {
		parts[i] = "-set " + s
	}
	return strings.Join(parts, " ")
}

func flagsText(flags []Flag) string {
	if len(flags) == 0 {
		return "no flags"
	}
	parts := make([]string, len(flags))
	for i, f := range flags {
		parts[i] = "-" + f.Name + "=" + f.Value
	}
	return strings.Join(parts, " ")
}

// short abbreviates a fingerprint for a message.
func short(fp string) string { return fp[:min(len(fp), len("sha256:")+12)] }

// Gather reads the results of folders, the shards CheckShards accepted, and
// returns them in the grid's cell order, with the results at half the tick
// when the shards ran with -refine (nil otherwise). Each folder must hold
// exactly the cells sweep.Split gives its shard of g.
func Gather(folders []*ShardFolder, g *sweep.Grid, refine bool) (results, refined []model.Result, err error) {
	cells := g.Cells()
	if len(folders) == 0 {
		return nil, nil, errors.New("no shard folders given")
	}
	assign := sweep.Split(cells, folders[0].Shards)
	results = make([]model.Result, len(cells))
	if refine {
		refined = make([]model.Result, len(cells))
	}
	for _, f := range folders {
		p, err := f.payload()
		if err != nil {
			return nil, nil, err
		}
		if f.GridCells != len(cells) || !slices.Equal(p.Cells, assign[f.Shard]) {
			return nil, nil, fmt.Errorf("%s does not hold the cells of shard %s of %s's %d cells", f.Path, f.Sweep(), f.Experiment, len(cells))
		}
		if refine && p.Refined == nil && len(p.Cells) > 0 {
			return nil, nil, fmt.Errorf("%s holds no results at half the tick", f.Path)
		}
		for i, c := range p.Cells {
			results[c] = p.Results[i]
			if refine {
				refined[c] = p.Refined[i]
			}
		}
	}
	return results, refined, nil
}
