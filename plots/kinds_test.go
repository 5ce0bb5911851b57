package plots

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments/spec"
)

// -update rewrites the golden files: the lists of figure kinds written
// from the registry, and the golden images.
var update = flag.Bool("update", false, "rewrite the lists of figure kinds and the golden images from what the code gives")

// The files that list the figure kinds, from this package's folder.
const (
	docFile    = "doc.go"
	specFile   = "../experiments/spec/figure.go"
	readmeFile = "../experiments/README.md"
)

// The README's list of figure kinds lies between these lines.
const (
	readmeBegin = "<!-- figure kinds: written from plots.Kinds by `go test ./plots -run TestKindLists -update` -->"
	readmeEnd   = "<!-- end of figure kinds -->"
)

// docList is the package documentation's section on kinds, from its
// heading up to the next heading.
func docList() string {
	var b strings.Builder
	b.WriteString(`// # Kinds of figure
//
// A [[figure]]'s kind names one of these. Kinds is the registry, the one
// list of them: this list, spec.Figure.Kind's doc and experiments/README.md's list are
// written from it (go test ./plots -run TestKindLists -update), and a test
// fails when one of them disagrees.
//
`)
	for _, k := range Kinds() {
		item := `"` + k.Name + `" (` + k.Axes() + "): " + k.Doc
		for i, line := range wrapWords(item, 78-len("//   - ")) {
			if i == 0 {
				b.WriteString("//   - " + line + "\n")
			} else {
				b.WriteString("//     " + line + "\n")
			}
		}
	}
	b.WriteString("//\n")
	return b.String()
}

// readmeList is the README's list of figure kinds, between its markers.
func readmeList() string {
	var b strings.Builder
	b.WriteString(readmeBegin + "\n")
	for _, k := range Kinds() {
		b.WriteString("- `" + k.Name + "` (" + k.axes(func(key string) string { return "`" + key + "`" }) + "): " + k.Doc + "\n")
	}
	b.WriteString(readmeEnd + "\n")
	return b.String()
}

// specKindDoc is spec.Figure.Kind's comment; specBandDoc names the kinds
// that draw a band in spec.Figure.Band's.
func specKindDoc() string {
	names := kindNames()
	for i := range names {
		names[i] = `"` + names[i] + `"`
	}
	return "// a figure kind (plots.Kinds): " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func specBandDoc() string {
	var band []string
	for _, k := range Kinds() {
		if k.Band {
			band = append(band, k.Name)
		}
	}
	return "// the 10th–90th percentile band around it (" + joinAnd(band) + ")."
}

// wrapWords breaks s into lines of at most width bytes, between words.
func wrapWords(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			out = append(out, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(out, line)
}

// section is the part of text from the line that starts with begin up to
// the line that starts with end (excluded, or included when inclusive),
// and where it lies.
func section(text, begin, end string, inclusive bool) (string, int, int, bool) {
	i := strings.Index(text, begin)
	if i < 0 || i > 0 && text[i-1] != '\n' {
		return "", 0, 0, false
	}
	j := strings.Index(text[i+len(begin):], "\n"+end)
	if j < 0 {
		return "", 0, 0, false
	}
	j += i + len(begin) + 1
	if inclusive {
		j += len(end)
		if k := strings.IndexByte(text[j:], '\n'); k >= 0 {
			j += k + 1
		}
	}
	return text[i:j], i, j, true
}

// fieldComments are the comments of spec.Figure's fields Kind (the line
// comment) and Band (the doc comment's last line), with where they lie.
func fieldComments(t *testing.T, src []byte) (kind, band *ast.Comment) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), specFile, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Figure" {
			return true
		}
		for _, fd := range ts.Type.(*ast.StructType).Fields.List {
			switch {
			case fd.Names[0].Name == "Kind" && fd.Comment != nil:
				kind = fd.Comment.List[0]
			case fd.Names[0].Name == "Band" && fd.Doc != nil:
				band = fd.Doc.List[len(fd.Doc.List)-1]
			}
		}
		return false
	})
	if kind == nil || band == nil {
		t.Fatalf("%s: spec.Figure's Kind has no line comment or its Band no doc", specFile)
	}
	return kind, band
}

// TestKindLists: the package documentation, spec.Figure's doc and the
// README list the kinds of the registry, in its order, with its words; a
// kind missing from one of them, or one too many, fails. -update writes
// them from the registry.
func TestKindLists(t *testing.T) {
	check := func(file, got, want string, fix func() string) {
		t.Helper()
		if got == want {
			return
		}
		if *update {
			if err := os.WriteFile(file, []byte(fix()), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s lists the figure kinds as\n%s\nbut the registry (Kinds) gives\n%s\n(go test ./plots -run TestKindLists -update writes it)", file, got, want)
	}

	doc, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	got, i, j, ok := section(string(doc), "// # Kinds of figure", "// # ", false)
	if !ok {
		t.Fatalf("%s has no section \"# Kinds of figure\" followed by another", docFile)
	}
	check(docFile, got, docList(), func() string { return string(doc[:i]) + docList() + string(doc[j:]) })

	readme, err := os.ReadFile(readmeFile)
	if err != nil {
		t.Fatal(err)
	}
	got, i, j, ok = section(string(readme), readmeBegin, readmeEnd, true)
	if !ok {
		t.Fatalf("%s has no list of figure kinds between %q and %q", readmeFile, readmeBegin, readmeEnd)
	}
	check(readmeFile, got, readmeList(), func() string { return string(readme[:i]) + readmeList() + string(readme[j:]) })

	src, err := os.ReadFile(specFile)
	if err != nil {
		t.Fatal(err)
	}
	kind, band := fieldComments(t, src)
	fixed := string(src)
	var got2, want2 []string
	// The later comment first, so the earlier one's place holds.
	for _, c := range []struct {
		comment *ast.Comment
		want    string
	}{{band, specBandDoc()}, {kind, specKindDoc()}} {
		got2, want2 = append(got2, c.comment.Text), append(want2, c.want)
		at := int(c.comment.Slash) - 1 // the file's positions start at 1
		fixed = fixed[:at] + c.want + fixed[at+len(c.comment.Text):]
	}
	check(specFile, strings.Join(got2, "\n"), strings.Join(want2, "\n"), func() string { return fixed })
}

// Check accepts a figure of every kind of the registry that names the axes
// the kind takes, and refuses a kind it does not list, naming every kind it
// does; a slip gets a suggestion.
func TestKindCheck(t *testing.T) {
	e := parse(t, smallGrid)
	ok := func(k Kind) spec.Figure {
		f := spec.Figure{Kind: k.Name, Metric: "recovery_s"}
		axes := map[string]string{"x": "load", "y": "blip", "panel": "policy", "line": "policy"}
		if k.Name == "lines" {
			axes["panel"] = "blip"
		}
		if k.Name == "bars" || k.Name == "collapse" {
			axes["x"], axes["line"] = "policy", "load"
			if slices.ContainsFunc(k.Roles, func(r Role) bool { return r.Key == "x" && r.Numeric }) {
				axes["x"], axes["line"] = "load", "policy"
			}
		}
		for _, r := range k.Roles {
			switch r.Key {
			case "x":
				f.X = axes["x"]
			case "y":
				f.Y = axes["y"]
			case "panel":
				f.Panel = axes["panel"]
			case "line":
				f.Line = axes["line"]
			}
		}
		if k.Band {
			f.Band = true
		}
		return f
	}
	for _, k := range Kinds() {
		err := Check([]spec.Figure{ok(k)}, e.Grid)
		if _, cells := k.impl.(factsChecker); cells {
			// It checks the cells too, and these hold no service graph
			// (TestGraphFromPlan checks a graph's).
			if err == nil || !strings.Contains(err.Error(), "runs no service graph") {
				t.Errorf("kind %s on a chain: %v", k.Name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("kind %s: %v", k.Name, err)
		}
	}
	// A key the kind does not read is refused, naming those it takes.
	if err := Check([]spec.Figure{{Kind: "series", X: "load"}}, e.Grid); err == nil || !strings.Contains(err.Error(), "figure 0: x: a series figure does not read x; it takes no axes") {
		t.Errorf("a series figure with x: %v", err)
	}
	err := Check([]spec.Figure{{Kind: "phsae"}}, e.Grid)
	if err == nil {
		t.Fatal("an unknown kind passes")
	}
	msg := err.Error()
	for _, n := range kindNames() {
		if !strings.Contains(msg, n) {
			t.Errorf("%q does not name the kind %s", msg, n)
		}
	}
	if !strings.Contains(msg, `figure 0: kind: "phsae" is not a figure kind (did you mean "phase"?)`) {
		t.Errorf("%q does not place the error at the kind or suggest phase", msg)
	}
	// In an experiment file, the error is placed at the key.
	bad := parse(t, strings.Replace(smallGrid, `kind = "series"`, `kind = "serie"`, 1))
	err = bad.CheckFigures(Check)
	if err == nil || !strings.Contains(err.Error(), `test.toml:37:1: figure.2.kind: "serie" is not a figure kind (did you mean "series"?); use phase, lines, bars, series, hysteresis, collapse or graph`) {
		t.Errorf("got %v", err)
	}
	for _, k := range Kinds() {
		for _, r := range k.Roles {
			if !r.Required {
				continue
			}
			f := ok(k)
			switch r.Key {
			case "x":
				f.X = ""
			case "y":
				f.Y = ""
			case "line":
				f.Line = ""
			}
			if err := Check([]spec.Figure{f}, e.Grid); err == nil || !strings.Contains(err.Error(), "needs "+r.Key) {
				t.Errorf("a %s figure without %s: %v", k.Name, r.Key, err)
			}
		}
	}
	// band = true is for the kinds that draw one.
	for _, k := range Kinds() {
		f := ok(k)
		f.Band = true
		if err := Check([]spec.Figure{f}, e.Grid); (err == nil) != k.Band {
			t.Errorf("a %s figure with band = true: %v", k.Name, err)
		}
	}
}

// Only the adapter reads the runner's types: a grid's cells, a scenario, a
// plan. A kind that reads one cannot be drawn from a table.
func TestAdapterBoundary(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "adapter.go" {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch x, _ := sel.X.(*ast.Ident); {
			case x != nil && x.Name == "sweep" && sel.Sel.Name != "DidYouMean",
				x != nil && x.Name == "model" && (sel.Sel.Name == "Plan" || sel.Sel.Name == "Scenario"),
				sel.Sel.Name == "Plan" || sel.Sel.Name == "Scenario" || sel.Sel.Name == "Cell":
				t.Errorf("%s reads %s.%s: only adapter.go reads a grid, its cells and their plans", name, exprText(sel.X), sel.Sel.Name)
			}
			return true
		})
	}
}

// exprText writes a selector's operand for a message.
func exprText(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return "…"
}
