package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestAddABudgetKind follows the recipe in the model package's doc ("Adding a
// budget kind") in a copy of the module: it writes the doc's budget_fixed.go
// and its line in budgetKinds, word for word, builds stormlab, and finds the
// new kind where the recipe says it appears — `stormlab keys`, `stormlab
// validate` (its range, and refused by name on the engine it leaves out), a
// run that refuses retries, and the explorer's schema. If the recipe drifts
// from the code, this fails.
func TestAddABudgetKind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the module")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "model", "doc.go"))
	if err != nil {
		t.Fatal(err)
	}
	file := docBlock(t, string(doc), "would be budget_fixed.go:")
	entry := strings.TrimSpace(docBlock(t, string(doc), "and the line is its entry in budgetKinds:"))

	dir := t.TempDir()
	copyModule(t, root, dir)
	if err := os.WriteFile(filepath.Join(dir, "model", "budget_fixed.go"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	registry := filepath.Join(dir, "model", "budget.go")
	src, err := os.ReadFile(registry)
	if err != nil {
		t.Fatal(err)
	}
	const last = "\t\tadaptiveKind(),\n"
	if !bytes.Contains(src, []byte(last)) {
		t.Fatalf("model/budget.go: budgetKinds has no line %q to add the recipe's entry after", last)
	}
	src = bytes.Replace(src, []byte(last), []byte(last+"\t\t"+entry+"\n"), 1)
	if err := os.WriteFile(registry, src, 0o644); err != nil {
		t.Fatal(err)
	}

	bin := filepath.Join(dir, "stormlab")
	build := exec.Command("go", "build", "-o", bin, "./cmd/stormlab")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the recipe's budget_fixed.go and its entry do not build:\n%s", out)
	}
	stormlab := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}

	keys, _ := stormlab("keys")
	for _, want := range []string{"fixed — the first retries retries of a run pass, no other", "`budget.retries` | 100 (fixed) | 0 to 1e+09 (fixed)"} {
		if !strings.Contains(keys, want) {
			t.Errorf("stormlab keys does not show %q", want)
		}
	}

	write := func(name, engine, budget string) string {
		p := filepath.Join(dir, name)
		text := `title = "a fixed budget"
question = "How many retries does a fixed budget let through?"
engine = "` + engine + `"
seed = 1

[scenario]
tick = "10ms"
duration = "10s"
arrivals = "burst"
clients = 50
dependency.capacity = 0
dependency.queue = "none"
attempts = 3
budget = ` + budget + "\n"
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("fixed.toml", "stochastic", `{ kind = "fixed", retries = 20 }`)
	if out, code := stormlab("validate", good); code != 0 {
		t.Errorf("stormlab validate of a fixed budget: exit %d\n%s", code, out)
	}
	queue := write("fixed-queue.toml", "queue", `{ kind = "fixed", retries = 20 }`)
	if out, code := stormlab("validate", queue); code != 2 || !strings.Contains(out, `budget.kind: "fixed" (a retry budget) needs engine = "stochastic"`) {
		t.Errorf("stormlab validate of a fixed budget on the queue engine: exit %d, want 2 and the engine named\n%s", code, out)
	}
	wide := write("fixed-wide.toml", "stochastic", `{ kind = "fixed", retries = -1 }`)
	if out, code := stormlab("validate", wide); code != 2 || !strings.Contains(out, "budget.retries") || !strings.Contains(out, "0 to 1e+09") {
		t.Errorf("stormlab validate of retries = -1: exit %d, want 2 and the key's range\n%s", code, out)
	}

	out := filepath.Join(dir, "out")
	if msg, code := stormlab("run", "-figures=false", "-out", out, good); code != 0 {
		t.Fatalf("stormlab run: exit %d\n%s", code, msg)
	}
	rows := readCSV(t, filepath.Join(out, "fixed", "results.csv"))
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"refused_budget", "calls", "requests"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("results.csv has no column %s", name)
		}
	}
	num := func(name string) float64 {
		v, err := strconv.ParseFloat(rows[1][col[name]], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// Fifty requests against a dead dependency, three attempts each: the
	// budget's 20 retries go to the first 20 failures, and every request
	// ends at its first refusal (30 after their first try, the 20 that
	// retried after their second), so 50 refusals and 50 + 20 calls.
	if got := num("refused_budget"); got != 50 {
		t.Errorf("refused_budget = %v, want 50", got)
	}
	if got := num("calls"); got != 70 {
		t.Errorf("calls = %v, want 70 (50 first tries and the budget's 20 retries)", got)
	}

	// The explorer's form is built from the schema stormlab serve derives
	// from the registries.
	serve := exec.Command(bin, "serve", "-addr", "127.0.0.1:0", good)
	serve.Dir = dir
	stdout, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = serve.Process.Kill(); _ = serve.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("stormlab serve printed no address: %v", err)
	}
	addr := strings.Fields(line)[2] // "stormlab serve: http://127.0.0.1:port/ (...)"
	resp, err := http.Get(addr + "api/schema")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sch struct {
		Families []struct {
			Key   string
			Kinds []struct {
				Name    string
				Engines []string
				Keys    []struct {
					Key, Default string
					Min, Max     *float64
				}
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&sch); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range sch.Families {
		for _, k := range f.Kinds {
			if f.Key != "budget.kind" || k.Name != "fixed" {
				continue
			}
			found = true
			if !slices.Equal(k.Engines, []string{"stochastic"}) {
				t.Errorf("the explorer's schema gives the fixed budget the engines %v, want [stochastic]", k.Engines)
			}
			var keys []string
			for _, key := range k.Keys {
				keys = append(keys, key.Key)
				if key.Key == "retries" && (key.Default != "100" || key.Min == nil || *key.Min != 0 || key.Max == nil || *key.Max != 1e9) {
					t.Errorf("the explorer's schema gives budget.retries default %s, range %v to %v; want 100, 0 to 1e9", key.Default, key.Min, key.Max)
				}
			}
			if !slices.Equal(keys, []string{"scope", "retries"}) {
				t.Errorf("the explorer's schema gives the fixed budget the keys %v, want [scope retries]", keys)
			}
		}
	}
	if !found {
		t.Error("the explorer's schema does not offer the fixed budget")
	}
}

// docBlock returns the Go code that the doc comment indents under the line
// ending with after, with the comment markers taken off.
func docBlock(t *testing.T, doc, after string) string {
	t.Helper()
	i := strings.Index(doc, after)
	if i < 0 {
		t.Fatalf("model/doc.go has no %q", after)
	}
	lines := strings.Split(doc[i+len(after):], "\n")[1:]
	var b strings.Builder
	started := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "//\t"):
			started = true
			b.WriteString(strings.TrimPrefix(l, "//\t") + "\n")
		case l == "//" && !started:
		case l == "//":
			b.WriteString("\n")
		default:
			if !started {
				t.Fatalf("model/doc.go: no code under %q", after)
			}
			return strings.TrimRight(b.String(), "\n") + "\n"
		}
	}
	t.Fatalf("model/doc.go: the code under %q does not end", after)
	return ""
}

// copyModule copies the module's sources at root into dir, leaving out git's
// store, built binaries and the generated reports.
func copyModule(t *testing.T, root, dir string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			// The reports package's own files are copied; the reports
			// beside them are not.
			if rel == ".git" || rel == "bin" || rel == "out" || filepath.Dir(rel) == "reports" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
