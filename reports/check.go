package reports

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// DefaultTolerance is how far a regenerated number may drift from its
// baseline when the experiment sets no tolerance for the column. Runs are
// deterministic, so the default only absorbs the last printed digit.
func DefaultTolerance() spec.Tolerance { return spec.Tolerance{Abs: 1e-6, Rel: 1e-9} }

// Deviation is one difference between a baseline and a regenerated file.
type Deviation struct {
	Experiment string
	File       string // results.csv or series.csv
	Cell       string // the row's axis values, "axis=value, ..."
	Column     string
	Baseline   string
	Now        string
}

// Compare regenerates the experiment's CSV files in memory and compares them
// with the baselines in dir/<name>/: numbers within tolerance, booleans and
// text exactly, rows matched by their axis values.
func Compare(dir string, r *spec.Report, g *sweep.Grid, results []model.Result) ([]Deviation, error) {
	var devs []Deviation
	type gen struct {
		name  string
		write func(io.Writer) error
		key   int // leading columns that identify a row
	}
	files := []gen{{"results.csv", func(w io.Writer) error { return WriteResults(w, g, results, nil) }, len(g.Axes)}}
	if hasSeries(results) {
		files = append(files, gen{"series.csv", func(w io.Writer) error { return WriteSeries(w, g, results) }, len(g.Axes) + 1})
	}
	for _, f := range files {
		var now bytes.Buffer
		if err := f.write(&now); err != nil {
			return nil, err
		}
		base, err := os.ReadFile(filepath.Join(dir, r.Name, f.name))
		if errors.Is(err, fs.ErrNotExist) {
			devs = append(devs, Deviation{r.Name, f.name, "", "(file)", "missing", "generated"})
			continue
		} else if err != nil {
			return nil, err
		}
		d, err := compareCSV(base, now.Bytes(), f.key, r.Tolerance)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, r.Name, f.name), err)
		}
		for i := range d {
			d[i].Experiment, d[i].File = r.Name, f.name
		}
		devs = append(devs, d...)
	}
	return devs, nil
}

// compareCSV compares two CSV documents whose first key columns identify a
// row.
func compareCSV(base, now []byte, key int, tol map[string]spec.Tolerance) ([]Deviation, error) {
	b, err := csv.NewReader(bytes.NewReader(base)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	n, err := csv.NewReader(bytes.NewReader(now)).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(b) == 0 || len(n) == 0 {
		return []Deviation{{Column: "(header)", Baseline: fmt.Sprint(len(b), " rows"), Now: fmt.Sprint(len(n), " rows")}}, nil
	}
	if strings.Join(b[0], ",") != strings.Join(n[0], ",") {
		return []Deviation{{Column: "(header)", Baseline: strings.Join(b[0], ","), Now: strings.Join(n[0], ",")}}, nil
	}
	header := n[0]
	label := func(row []string) string {
		parts := make([]string, 0, key)
		for i := 0; i < key && i < len(row); i++ {
			parts = append(parts, header[i]+"="+row[i])
		}
		return strings.Join(parts, ", ")
	}
	baseRows := map[string][]string{}
	for _, row := range b[1:] {
		baseRows[label(row)] = row
	}
	var devs []Deviation
	seen := map[string]bool{}
	for _, row := range n[1:] {
		l := label(row)
		seen[l] = true
		old, ok := baseRows[l]
		if !ok {
			devs = append(devs, Deviation{Cell: l, Column: "(row)", Baseline: "missing", Now: "present"})
			continue
		}
		for c := key; c < len(header); c++ {
			if !same(old[c], row[c], toleranceFor(header[c], tol)) {
				devs = append(devs, Deviation{Cell: l, Column: header[c], Baseline: old[c], Now: row[c]})
			}
		}
	}
	for _, row := range b[1:] {
		if l := label(row); !seen[l] {
			devs = append(devs, Deviation{Cell: l, Column: "(row)", Baseline: "present", Now: "missing"})
		}
	}
	return devs, nil
}

func toleranceFor(col string, tol map[string]spec.Tolerance) spec.Tolerance {
	if t, ok := tol[strings.TrimSuffix(col, "_sd")]; ok {
		return t
	}
	return DefaultTolerance()
}

// same compares two fields: as numbers within tolerance when both are
// numbers, exactly otherwise.
func same(a, b string, t spec.Tolerance) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	d := math.Abs(x - y)
	return d <= t.Abs || d <= t.Rel*math.Abs(x)
}

// PrintDeviations writes the deviations as an aligned table.
func PrintDeviations(w io.Writer, devs []Deviation) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "experiment\tfile\tcell\tcolumn\tbaseline\tnow")
	for _, d := range devs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Experiment, d.File, d.Cell, d.Column, d.Baseline, d.Now)
	}
	return tw.Flush()
}
