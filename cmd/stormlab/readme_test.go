package main

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments/importer"
	"github.com/stormlab/stormlab/reports"
)

var update = flag.Bool("update", false, "rewrite the generated sections of experiments/README.md")

// TestREADMEReference keeps the generated tables of the experiment files'
// reference (scenario keys, results.csv and tipping.csv columns, the
// import mapping) equal to
// what the code defines; -update rewrites them.
func TestREADMEReference(t *testing.T) {
	const path = "../../experiments/README.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, s := range []struct{ marker, body string }{
		{"keys", reports.KeysMarkdown()},
		{"columns", reports.ColumnsMarkdown()},
		{"tipping-columns", reports.TippingColumnsMarkdown()},
		{"import-mapping", importer.MappingMarkdown()},
	} {
		open := "<!-- " + s.marker + ":"
		i := strings.Index(text, open)
		j := strings.Index(text, "<!-- /"+s.marker+" -->")
		if i < 0 || j < i {
			t.Fatalf("%s lacks the %s markers", path, s.marker)
		}
		i += strings.Index(text[i:], "-->\n") + len("-->\n")
		if text[i:j] == s.body {
			continue
		}
		if !*update {
			t.Errorf("%s: its %s table is out of date; run go test ./cmd/stormlab -run TestREADMEReference -update", path, s.marker)
			continue
		}
		text = text[:i] + s.body + text[j:]
	}
	if *update {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
