package importer

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// examples are the example configurations in testdata, written by hand
// from the projects' published field lists and examples, each set of
// files imported together.
var examples = []struct {
	name  string
	files []string
}{
	{"grpc", []string{"grpc.json"}},
	{"envoy", []string{"envoy-route.yaml", "envoy-clusters.yaml"}},
	{"envoy-bootstrap", []string{"envoy-bootstrap.yaml"}},
	{"istio", []string{"istio.yaml"}},
	{"linkerd", []string{"linkerd.yaml"}},
	{"aws", []string{"aws-config"}},
}

func importFiles(t *testing.T, names ...string) (*Result, []File) {
	t.Helper()
	var files []File
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, File{Name: n, Data: data})
	}
	res, err := Import(files)
	if err != nil {
		t.Fatal(err)
	}
	return res, files
}

// TestExamples imports each example, compares what it prints with its
// golden file, and loads the experiment it makes as stormlab validate
// does.
func TestExamples(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			res, _ := importFiles(t, ex.files...)
			if len(res.Policies) == 0 {
				t.Fatal("no policy imported")
			}
			if err := Check(res); err != nil {
				t.Fatalf("the experiment it writes does not load: %v\n%s", err, Experiment(res))
			}
			got := Render(res)
			golden := filepath.Join("testdata", ex.name+".golden.toml")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (go test ./experiments/importer -update rewrites it):\n%s", golden, got)
			}
		})
	}
}

// TestEveryFieldAccounted holds every field of each example (every
// scalar, and every empty table or list) to be either a source of a key
// or named as not modelled with a reason from its format's table, and
// every key to be one its source's row of the table lists.
func TestEveryFieldAccounted(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			res, files := importFiles(t, ex.files...)
			type at struct {
				file      string
				line, col int
			}
			mapped := map[at]bool{}
			named := map[at]bool{}
			var left []Field
			left = append(left, res.Unmodelled...)
			for _, p := range res.Policies {
				left = append(left, p.Unmodelled...)
				for _, k := range p.Keys {
					ok := false
					for _, f := range k.From {
						if !f.Unset {
							mapped[at{f.File, f.Line, f.Col}] = true
						}
						fm := formatOf(t, res, f.File)
						r, found := fm.rule(f.Pattern)
						if !found {
							t.Errorf("%s: key %s comes from %s, which no row of the %s table names", p.Name, k.Key, f.Pattern, fm.Name)
						}
						for _, rk := range r.Keys {
							ok = ok || rk == k.Key
						}
					}
					if !ok {
						t.Errorf("%s: key %s is not among the keys of its sources' rows (%v)", p.Name, k.Key, patterns(k.From))
					}
				}
			}
			for _, f := range left {
				if f.Why == "" || f.Why == unread {
					t.Errorf("%s (%s:%d): not read, or left out without a reason", f.Path, f.File, f.Line)
				}
				fm := formatOf(t, res, f.File)
				if _, ok := fm.rule(f.Pattern); !ok && !f.Unset {
					t.Errorf("%s: left out as %s, which no row of the %s table names", f.Path, f.Pattern, fm.Name)
				}
				if !f.Unset {
					named[at{f.File, f.Line, f.Col}] = true
				}
			}
			for _, f := range files {
				var docs []*node
				if looksINI(f.Data) {
					root, err := parseINI(f.Name, f.Data)
					if err != nil {
						t.Fatal(err)
					}
					docs = []*node{root}
				} else {
					var err error
					if docs, err = parseTree(f.Name, f.Data); err != nil {
						t.Fatal(err)
					}
				}
				for _, d := range docs {
					for _, leaf := range d.leaves() {
						covered := false
						for n := leaf; n != nil && !covered; n = n.parent {
							a := at{n.file, n.line, n.col}
							covered = mapped[a] && n == leaf || named[a]
						}
						if !covered {
							t.Errorf("%s:%d:%d %s: neither mapped nor named as not modelled", leaf.file, leaf.line, leaf.col, leaf.path())
						}
					}
				}
			}
		})
	}
}

func patterns(fs []Field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Pattern)
	}
	return out
}

// formatOf is the format a file of the result was read as.
func formatOf(t *testing.T, res *Result, file string) Format {
	t.Helper()
	for _, s := range res.Files {
		if s.Name == file {
			for _, f := range Formats() {
				if f.Doc == s.Format {
					return f
				}
			}
		}
	}
	t.Fatalf("no format for %s", file)
	return Format{}
}
