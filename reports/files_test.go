package reports

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments/spec"
)

// The index opens with its marker and replaces only an index that does: a
// README.md without the marker (a project's own), a folder of that name or
// a link to one are refused, before anything runs and when writing, and
// stay as they were.
func TestIndexReplacesOnlyItsOwn(t *testing.T) {
	dir := t.TempDir()
	if err := CheckIndex(dir); err != nil {
		t.Fatalf("no index yet: %v", err)
	}
	if err := WriteIndex(dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, spec.IndexName)
	idx, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(idx), IndexMarker+"\n\n# stormlab reports\n") {
		t.Errorf("the index does not open with its marker:\n%s", idx)
	}
	if err := WriteIndex(dir); err != nil {
		t.Errorf("its own index refused: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("# notes\n"), 0o644)
	for name, create := range map[string]func() error{
		"a project's README":          func() error { return os.WriteFile(path, []byte("# my project\n\n"+IndexMarker+"\n"), 0o644) },
		"an empty file":               func() error { return os.WriteFile(path, nil, 0o644) },
		"a folder":                    func() error { return os.Mkdir(path, 0o755) },
		"a link to a marked file":     func() error { return os.Symlink(filepath.Join(dir, "marked"), path) },
		"the marker but not in front": func() error { return os.WriteFile(path, []byte(" "+IndexMarker+"\n"), 0o644) },
	} {
		os.WriteFile(filepath.Join(dir, "marked"), []byte(IndexMarker+"\n"), 0o644)
		os.RemoveAll(path)
		if err := create(); err != nil {
			t.Fatal(err)
		}
		before := readAll(t, dir)
		var re *RefusedError
		if err := CheckIndex(dir); !errors.As(err, &re) || !strings.Contains(err.Error(), "stormlab did not write it") {
			t.Errorf("%s: CheckIndex %v, want a refusal", name, err)
		}
		if err := WriteIndex(dir); !errors.As(err, &re) {
			t.Errorf("%s: WriteIndex %v, want a refusal", name, err)
		}
		after := readAll(t, dir)
		if len(before) != len(after) {
			t.Errorf("%s: the folder's files changed: %d, then %d", name, len(before), len(after))
		}
		for f, b := range before {
			if string(after[f]) != string(b) {
				t.Errorf("%s: %s changed", name, f)
			}
		}
	}
}

// A write that fails leaves nothing behind: not the temporary folder, not
// the folders it created above it, and the old folder stays whole.
func TestFailedWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	fail := errors.New("disk full")
	files := []File{{Marker, bytesOf([]byte("x"))}, {"results.csv", func(w io.Writer) error { return fail }}}
	dst := filepath.Join(dir, "new", "deeper", "exp")
	if err := writeDir(dst, files); !errors.Is(err, fail) {
		t.Fatalf("err %v, want %v", err, fail)
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	old := filepath.Join(dir, "exp")
	if err := writeDir(old, files[:1]); err != nil {
		t.Fatal(err)
	}
	if err := writeDir(old, files); !errors.Is(err, fail) {
		t.Fatalf("err %v, want %v", err, fail)
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 || left[0].Name() != "exp" {
		t.Errorf("left behind: %v", left)
	}
	if got := readAll(t, old); len(got) != 1 || string(got[Marker]) != "x" {
		t.Errorf("the old folder changed: %v", got)
	}
}
