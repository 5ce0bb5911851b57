package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
)

const importData = "../../experiments/importer/testdata/"

// TestImportCommand runs stormlab import as a user would: printing the
// policies, writing an experiment with -o that the loader accepts, and
// refusing bad input and an existing -o file with exit code 2, writing
// nothing.
func TestImportCommand(t *testing.T) {
	ctx := context.Background()
	var out, errb bytes.Buffer
	err := run(ctx, &out, &errb, []string{"import", importData + "envoy-route.yaml", importData + "envoy-clusters.yaml"})
	if err != nil || !strings.Contains(out.String(), "[[policy]]") || !strings.Contains(out.String(), "# not modelled: ") {
		t.Fatalf("import printed %q, %v", out.String(), err)
	}

	dir := t.TempDir()
	dst := filepath.Join(dir, "sub", "imported.toml")
	out.Reset()
	if err := run(ctx, &out, &errb, []string{"import", "-o", dst, importData + "istio.yaml", importData + "linkerd.yaml"}); err != nil {
		t.Fatal(err)
	}
	if _, err := experiments.Load(dst, nil); err != nil {
		t.Fatalf("the file -o wrote does not load: %v", err)
	}
	before, _ := os.ReadFile(dst)
	err = run(ctx, &out, &errb, []string{"import", "-o", dst, importData + "grpc.json"})
	if code := exitCode(&errb, err); code != 2 {
		t.Errorf("-o over an existing file: exit %d (%v), want 2", code, err)
	}
	if after, _ := os.ReadFile(dst); !bytes.Equal(before, after) {
		t.Error("-o replaced an existing file")
	}

	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"retryThrottling": {"maxTokens": 10, "tokenRatio": -1}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "fresh.toml")
	errb.Reset()
	err = run(ctx, &out, &errb, []string{"import", "-o", fresh, bad})
	if code := exitCode(&errb, err); code != 2 {
		t.Errorf("bad input: exit %d, want 2", code)
	}
	if msg := errb.String(); !strings.Contains(msg, "bad.json:1:39: retryThrottling.tokenRatio: must be above 0") || strings.Count(msg, "\n") != 1 {
		t.Errorf("bad input: %q, want one line naming file, line:column and field", msg)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Error("bad input wrote the -o file")
	}
	if code := exitCode(&errb, run(ctx, &out, &errb, []string{"import"})); code != 2 {
		t.Errorf("import without files: exit %d, want 2", code)
	}
}
