package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxLines is the most lines a Go file other than a test may have: a file
// a reader takes in whole, one part or one stage in each. A file that
// grows past it has two things in it; split it along them.
const maxLines = 600

// No Go file of the project's, tests aside, is over maxLines lines.
func TestSourceFilesStaySmall(t *testing.T) {
	root := "../.."
	seen := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		seen++
		if n := bytes.Count(data, []byte("\n")); n > maxLines {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s has %d lines, more than %d: split it where it holds two things", filepath.ToSlash(rel), n, maxLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 100 {
		t.Fatalf("found %d Go files under the repository's root, want the project's hundreds", seen)
	}
}
