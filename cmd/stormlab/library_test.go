package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLibraryListsEveryExperiment: the library table in
// experiments/README.md has a row for every experiment file and no other,
// and the README's section "Experiments" names each of them.
func TestLibraryListsEveryExperiment(t *testing.T) {
	files, err := filepath.Glob("../../experiments/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no experiment files: %v", err)
	}
	ref, err := os.ReadFile("../../experiments/README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(ref)
	i := strings.Index(text, "## The library\n")
	if i < 0 {
		t.Fatal("experiments/README.md has no section \"The library\"")
	}
	section := text[i:]
	section = section[:strings.Index(section[1:], "\n## ")+1]
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| \\[`([a-z0-9-]+)`\\]\\(([a-z0-9-]+)\\.toml\\)").FindAllStringSubmatch(section, -1) {
		if m[1] != m[2] {
			t.Errorf("library row %q links to %s.toml", m[1], m[2])
		}
		rows[m[1]] = true
	}
	overview := string(readme)
	if i := strings.Index(overview, "## Experiments\n"); i >= 0 {
		overview = overview[i : i+1+strings.Index(overview[i+1:], "\n## ")]
	} else {
		t.Fatal("README.md has no section \"Experiments\"")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".toml")
		if !rows[name] {
			t.Errorf("experiments/README.md's library has no row for %s", name)
		}
		delete(rows, name)
		if !regexp.MustCompile(`[\s(]` + regexp.QuoteMeta(name) + `[,)]`).MatchString(overview) {
			t.Errorf("README.md's overview of the library does not name %s", name)
		}
	}
	for name := range rows {
		t.Errorf("experiments/README.md's library lists %s, which has no file", name)
	}
}
