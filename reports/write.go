package reports

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/plots"
)

// Options say what Files renders.
type Options struct {
	// NoFigures skips the figures (report.md then has none): the fastest
	// way to the numbers, for scripts.
	NoFigures bool
	// Refined holds every cell's result at half its tick, in cell order,
	// when the run refined the tick (stormlab run -refine); nil otherwise.
	Refined []model.Result
	// Tipping holds the experiment's boundary searches, when it has any:
	// they add tipping.csv, their figures and the report's first section.
	Tipping *tipping.Outcome
}

// Marker names the file Write puts into every experiment folder it writes.
// Write replaces a folder only when it holds one, so a folder stormlab did
// not write (a source tree, .git, someone's notes) is never removed.
const Marker = ".stormlab"

// markerText is what the marker says to whoever finds it.
const markerText = "stormlab wrote this folder and replaces it whole when it runs the experiment again.\n" +
	"It never replaces a folder without this file.\n"

// File is one file of an experiment's folder: its name and what writes it.
type File struct {
	Name  string
	Write func(io.Writer) error
}

// Files lists everything an experiment's folder holds: the marker,
// results.csv, series.csv (when a cell recorded a series), the figures as
// PNG and SVG, and report.md. The figures are rendered now; the text files
// are written when their Write is called.
func Files(r *spec.Report, g *sweep.Grid, results []model.Result, opt Options) ([]File, error) {
	files := []File{
		{Marker, bytesOf([]byte(markerText))},
		{"results.csv", func(w io.Writer) error { return WriteResults(w, g, results, opt.Refined) }},
	}
	if hasSeries(results) {
		files = append(files, File{"series.csv", func(w io.Writer) error { return WriteSeries(w, g, results) }})
	}
	var figs []plots.Figure
	if !opt.NoFigures {
		var err error
		if figs, err = plots.Render(g, results, r.Figures); err != nil {
			return nil, fmt.Errorf("%s: figures: %w", r.Name, err)
		}
	}
	tip, err := newTippingPart(g, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Name, err)
	}
	if tip != nil {
		files = append(files, File{"tipping.csv", func(w io.Writer) error { return WriteTipping(w, g, tip.o) }})
	}
	for _, f := range append(figs, tip.figures()...) {
		files = append(files, File{f.Name + ".png", bytesOf(f.PNG)}, File{f.Name + ".svg", bytesOf(f.SVG)})
	}
	files = append(files, File{"report.md", func(w io.Writer) error { return writeReport(w, r, g, results, opt.Refined, figs, tip) }})
	return files, nil
}

func bytesOf(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}
}

// Write replaces dir/<name>/ with the experiment's files. The new folder is
// written beside the old one and swapped in by rename, so an interrupted run
// leaves the old baseline whole, never a half-written one. A folder at
// dir/<name> that stormlab did not write is left alone: the error is a
// *RefusedError.
func Write(dir string, r *spec.Report, g *sweep.Grid, results []model.Result, opt Options) error {
	dst := filepath.Join(dir, r.Name)
	if err := replaceable(dst); err != nil {
		return err
	}
	files, err := Files(r, g, results, opt)
	if err != nil {
		return err
	}
	return writeDir(dst, files)
}

// RefusedError is an output folder stormlab will not write: -out names
// something that is not a folder it can write in, or a folder it would
// replace holds no Marker.
type RefusedError struct {
	Path string
	Msg  string
}

func (e *RefusedError) Error() string { return e.Path + ": " + e.Msg }

// CheckOut checks, before anything runs, that Write can write the named
// experiments under dir: each dir/<name> is absent or a folder stormlab
// wrote, and dir is a folder stormlab can write in, or one it can create.
// It leaves nothing behind: a probe file shows that dir is writable, and is
// removed at once. The error is a *RefusedError.
func CheckOut(dir string, names []string) error {
	for _, n := range names {
		if err := replaceable(filepath.Join(dir, n)); err != nil {
			return err
		}
	}
	return writable(dir)
}

// writable checks that dir is a folder a file can be created in, or that
// its nearest existing ancestor is, so that it can be created.
func writable(dir string) error {
	at := dir
	for {
		info, err := os.Stat(at)
		if errors.Is(err, fs.ErrNotExist) {
			up := filepath.Dir(at)
			if up == at {
				return &RefusedError{dir, "cannot be created"}
			}
			at = up
			continue
		}
		if err != nil {
			return &RefusedError{dir, err.Error()}
		}
		if !info.IsDir() {
			if at == dir {
				return &RefusedError{dir, "is a file, not a folder; give -out a folder"}
			}
			return &RefusedError{dir, fmt.Sprintf("cannot be created: %s is a file", at)}
		}
		break
	}
	probe, err := os.CreateTemp(at, ".stormlab-probe-")
	if err != nil {
		what := "is not writable"
		if at != dir {
			what = fmt.Sprintf("cannot be created: %s is not writable", at)
		}
		return &RefusedError{dir, what}
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// replaceable checks that Write may replace dst: nothing is there, or a
// folder that holds the marker.
func replaceable(dst string) error {
	info, err := os.Lstat(dst)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil // nothing there to replace; writable says whether it can be written
	}
	if err != nil {
		return &RefusedError{dst, err.Error()}
	}
	if info.IsDir() {
		if m, err := os.Lstat(filepath.Join(dst, Marker)); err == nil && m.Mode().IsRegular() {
			return nil
		}
	}
	return &RefusedError{dst, fmt.Sprintf("exists and stormlab did not write it (no %s file in it); stormlab replaces only folders it wrote: choose another -out or name, or move it away", Marker)}
}

// writeDir writes files into a fresh temporary folder next to dst, then
// renames it to dst. A write that fails leaves nothing behind: not the
// temporary folder, nor the folders above dst it created.
func writeDir(dst string, files []File) (err error) {
	parent := filepath.Dir(dst)
	undo, err := mkdirs(parent)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			undo()
		}
	}()
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dst)+".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := writeFile(filepath.Join(tmp, f.Name), f.Write); err != nil {
			return err
		}
	}
	old := ""
	if _, err := os.Stat(dst); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dst, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		if old != "" {
			os.Rename(old, dst)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// mkdirs creates dir and the folders above it that are missing, and
// returns a function that removes those it created again, while they are
// empty.
func mkdirs(dir string) (undo func(), err error) {
	var missing []string
	for at := filepath.Clean(dir); ; at = filepath.Dir(at) {
		if _, err := os.Lstat(at); err == nil || filepath.Dir(at) == at {
			break
		}
		missing = append(missing, at)
	}
	undo = func() {
		for _, m := range missing {
			if os.Remove(m) != nil {
				return
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		undo()
		return nil, err
	}
	return undo, nil
}

// writeFile streams one file through a buffer.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// IndexMarker is the first line of the index WriteIndex writes: an HTML
// comment, invisible where the Markdown is rendered. WriteIndex rewrites
// a dir/README.md only when its first line is this one, so a README that
// stormlab did not write (a project's own, someone's notes) is never
// replaced.
const IndexMarker = "<!-- stormlab index: written by stormlab run from the report folders beside it, and rewritten whole by the next run; it never replaces a README.md without this line -->"

// CheckIndex checks, before anything runs, that WriteIndex may write
// dir/README.md: nothing is there, or an index stormlab wrote (its first
// line is IndexMarker). The error is a *RefusedError.
func CheckIndex(dir string) error {
	path := filepath.Join(dir, spec.IndexName)
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil
	}
	if err != nil {
		return &RefusedError{path, err.Error()}
	}
	if info.Mode().IsRegular() {
		f, err := os.Open(path)
		if err != nil {
			return &RefusedError{path, err.Error()}
		}
		defer f.Close()
		first, _, _ := strings.Cut(readPrefix(f, len(IndexMarker)+2), "\n")
		if strings.TrimSuffix(first, "\r") == IndexMarker {
			return nil
		}
	}
	return &RefusedError{path, "exists and stormlab did not write it (its first line is not stormlab's index marker); stormlab writes an index only over its own: choose another -out, or move it away"}
}

// readPrefix reads up to n bytes from the start of r.
func readPrefix(r io.Reader, n int) string {
	b := make([]byte, n)
	k, _ := io.ReadFull(r, b)
	return string(b[:k])
}

// WriteIndex writes dir/README.md, listing every experiment folder in dir
// that stormlab wrote (it holds the marker) and that holds a report.md,
// with its title, its question and its answer, side by side. It opens with
// IndexMarker and refuses to replace a README.md that does not (CheckIndex).
// The file is written beside its place and renamed into it; a write that
// fails leaves nothing behind.
func WriteIndex(dir string) error {
	if err := CheckIndex(dir); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(IndexMarker + "\n\n")
	b.WriteString("# stormlab reports\n\n")
	b.WriteString("Generated by `make report` from the experiment files in `experiments/`; `make test` checks that regenerating them gives the same numbers. Each folder holds `results.csv` (one row per grid cell), `report.md` and the figures.\n\n")
	b.WriteString("| experiment | question | answer |\n|---|---|---|\n")
	var names []string
	for _, en := range entries {
		if en.IsDir() && !strings.HasPrefix(en.Name(), ".") {
			_, err := os.Stat(filepath.Join(dir, en.Name(), "report.md"))
			if err == nil && replaceable(filepath.Join(dir, en.Name())) == nil {
				names = append(names, en.Name())
			}
		}
	}
	sort.Strings(names)
	for _, n := range names {
		title, question, answer := reportHead(filepath.Join(dir, n, "report.md"))
		fmt.Fprintf(&b, "| [%s](%s/report.md) — %s | %s | %s |\n", n, n, plots.Escape(title), plots.Escape(question), plots.Escape(answer))
	}
	return replaceFile(filepath.Join(dir, spec.IndexName), []byte(b.String()))
}

// CreateFile writes data to path, a file that must not exist yet: written
// beside it and linked into place, so that path is never seen half-written
// and a file that appears meanwhile is not replaced. An existing path is a
// *RefusedError.
func CreateFile(path string, data []byte) (err error) {
	if _, err := os.Lstat(path); err == nil {
		return &RefusedError{Path: path, Msg: "exists; stormlab writes a new file only, so remove it or name another"}
	}
	tmp, err := writeBeside(path, data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err = os.Link(tmp, path); errors.Is(err, fs.ErrExist) {
		return &RefusedError{Path: path, Msg: "exists; stormlab writes a new file only, so remove it or name another"}
	}
	return err
}

// replaceFile writes data to a new file beside path and renames it into
// place; on any error the new file is removed, and path is as it was.
func replaceFile(path string, data []byte) error {
	tmp, err := writeBeside(path, data)
	if err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
	}
	return err
}

// writeBeside writes data to a new file (mode 0644) in path's folder, named
// after it, and returns its name; on any error nothing is left behind.
func writeBeside(path string, data []byte) (name string, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-")
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		f.Close()
		return "", err
	}
	if err = f.Close(); err != nil {
		return "", err
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// reportHead reads a report's title (its first heading), question (the
// paragraph under it) and answer (reportAnswer).
func reportHead(path string) (title, question, answer string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", "", ""
	}
	paras := strings.Split(string(data), "\n\n")
	if len(paras) > 0 {
		title = strings.TrimPrefix(strings.TrimSpace(paras[0]), "# ")
	}
	if len(paras) > 1 && !strings.HasPrefix(paras[1], "Experiment `") {
		question = strings.Join(strings.Fields(paras[1]), " ")
	}
	return title, question, reportAnswer(paras)
}
