package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/stormlab/stormlab/experiments/importer"
	"github.com/stormlab/stormlab/reports"
)

var importUsage = `Usage: stormlab import [-o FILE] [-format NAME] FILE ...

Translates the retry configuration a team ships into scenario keys: a gRPC
service config (JSON), an Envoy route configuration and the clusters it
sends to (YAML or JSON), an Istio VirtualService, a Linkerd ServiceProfile
or an AWS shared config file. It prints a [[policy]] table per caller the
files set up, each key under a comment naming the fields it comes from,
and a comment line per field that stormlab does not model, saying why.
Files imported together are read together: an Envoy route finds its
cluster in another file.

Examples:
  stormlab import experiments/importer/testdata/grpc.json
  stormlab import experiments/importer/testdata/envoy-route.yaml experiments/importer/testdata/envoy-clusters.yaml
  stormlab import -o out/imported.toml experiments/importer/testdata/istio.yaml
  stormlab import -format aws experiments/importer/testdata/aws-config

` + manualRef + `

Flags:
`

// newImportFlags defines stormlab import's flags.
func newImportFlags(stderr io.Writer) (*flag.FlagSet, *string, *string) {
	fs := newFlagSet(stderr, "import", importUsage)
	out := fs.String("o", "", "write a whole experiment `FILE` (a new file) instead of printing the policies")
	format := fs.String("format", "", "read every file as `NAME`: "+strings.Join(importer.FormatNames(), ", ")+" (default: told from each file)")
	return fs, out, format
}

// cmdImport is stormlab import: read the files, translate them, check that
// the experiment they make loads, then print the policies or write the
// experiment.
func cmdImport(_ context.Context, stdout, stderr io.Writer, args []string) error {
	fs, out, format := newImportFlags(stderr)
	names, err := parse(fs, args, false)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		fs.Usage()
		return &usageError{"import needs at least one configuration file"}
	}
	if given(fs, "o") && *out == "" {
		return &usageError{"-o needs a file name"}
	}
	var files []importer.File
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			return &usageError{err.Error()}
		}
		files = append(files, importer.File{Name: n, Data: data, Format: *format})
	}
	res, err := importer.Import(files)
	if err != nil {
		return err
	}
	if err := importer.Check(res); err != nil {
		return fmt.Errorf("the imported keys do not load (a fault in stormlab import): %w", err)
	}
	if *out == "" {
		_, err := io.WriteString(stdout, importer.Render(res))
		return err
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return &usageError{fmt.Sprintf("-o %s: %v", *out, err)}
	}
	if err := reports.CreateFile(*out, []byte(importer.Experiment(res))); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d policies from %d files; stormlab validate %s checks it\n", *out, len(res.Policies), len(files), *out)
	return nil
}
