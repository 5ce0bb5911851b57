package main

import (
	"bytes"
	"flag"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// manualText is the package doc, the manual, as go doc reads it from
// doc.go: code blocks indented by a tab.
func manualText(t *testing.T) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package doc")
	}
	return f.Doc.Text()
}

// plain is the text of a doc comment's inline content, links as their
// text.
func plain(ts []comment.Text) string {
	var b strings.Builder
	for _, x := range ts {
		switch x := x.(type) {
		case comment.Plain:
			b.WriteString(string(x))
		case comment.Italic:
			b.WriteString(string(x))
		case *comment.Link:
			b.WriteString(plain(x.Text))
		case *comment.DocLink:
			b.WriteString(plain(x.Text))
		}
	}
	return b.String()
}

// sections splits the manual at its headings: each heading's text, and the
// blocks up to the next one.
func sections(text string) map[string][]comment.Block {
	var p comment.Parser
	out := map[string][]comment.Block{}
	name := ""
	for _, b := range p.Parse(text).Content {
		if h, ok := b.(*comment.Heading); ok {
			name = plain(h.Text)
			out[name] = nil
			continue
		}
		out[name] = append(out[name], b)
	}
	return out
}

// flagItem is a list item that documents a flag: "-out DIR: ...",
// "-figures=false: ...".
var flagItem = regexp.MustCompile(`^-([a-z][a-z-]*)[ =:]`)

// listedFlags are the flags a section's lists document, in order.
func listedFlags(blocks []comment.Block) []string {
	var out []string
	for _, b := range blocks {
		l, ok := b.(*comment.List)
		if !ok {
			continue
		}
		for _, it := range l.Items {
			if len(it.Content) == 0 {
				continue
			}
			if p, ok := it.Content[0].(*comment.Paragraph); ok {
				if m := flagItem.FindStringSubmatch(plain(p.Text)); m != nil {
					out = append(out, m[1])
				}
			}
		}
	}
	return out
}

// The manual has a section "# stormlab NAME" for every subcommand, which
// lists exactly the flags its FlagSet defines, and no section for a
// command that does not exist; it shows every synopsis line of stormlab's
// usage; and every usage text points to it. A flag added to a FlagSet, or
// a subcommand added, without its manual entry fails here.
func TestManualNamesEveryCommandAndFlag(t *testing.T) {
	text := manualText(t)
	secs := sections(text)
	names := map[string]bool{}
	for _, c := range commands() {
		names[c.name] = true
		blocks, ok := secs["stormlab "+c.name]
		if !ok {
			t.Errorf("the manual has no section # stormlab %s", c.name)
			continue
		}
		var defined []string
		if c.flags != nil {
			var usageText bytes.Buffer
			fs := c.flags(&usageText)
			fs.VisitAll(func(f *flag.Flag) { defined = append(defined, f.Name) })
			fs.Usage()
			if !strings.Contains(usageText.String(), manualRef) {
				t.Errorf("stormlab %s -h does not point to the manual:\n%s", c.name, usageText.String())
			}
		}
		listed := listedFlags(blocks)
		for _, f := range defined {
			if !slices.Contains(listed, f) {
				t.Errorf("stormlab %s defines -%s, which the manual's section does not list", c.name, f)
			}
		}
		for _, f := range listed {
			if !slices.Contains(defined, f) {
				t.Errorf("the manual lists -%s under stormlab %s, which has no such flag", f, c.name)
			}
		}
		if len(listed) != len(slices.Compact(slices.Sorted(slices.Values(listed)))) {
			t.Errorf("the manual lists a flag of stormlab %s twice: %v", c.name, listed)
		}
	}
	for name := range secs {
		if cmd, ok := strings.CutPrefix(name, "stormlab "); ok && !names[cmd] {
			t.Errorf("the manual has a section # %s, but there is no such command", name)
		}
	}
	for _, l := range strings.Split(usage, "\n") {
		if s := strings.TrimSpace(l); s != l && strings.HasPrefix(s, "stormlab ") && !strings.Contains(text, "\tstormlab "+strings.TrimPrefix(s, "stormlab ")+"\n") {
			t.Errorf("the manual's synopsis lacks %q", s)
		}
	}
	if !strings.Contains(usage, manualRef) {
		t.Errorf("stormlab's usage does not point to the manual")
	}
}

// The listing above finds what it looks for: a section without a flag
// list lists nothing, and each of the forms the manual uses is found.
func TestListedFlags(t *testing.T) {
	secs := sections("# stormlab x\n\nText -not a flag.\n\n  - -out DIR: where\n  - -figures=false: none\n  - -j N: workers\n  - 0: ok\n\n# other\n\n  - -y: z\n")
	if got := listedFlags(secs["stormlab x"]); !slices.Equal(got, []string{"out", "figures", "j"}) {
		t.Errorf("listed %v", got)
	}
}

// go doc ./cmd/stormlab prints the manual: the package doc of a command,
// with its sections.
func TestGoDocPrintsTheManual(t *testing.T) {
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gobin, "doc", ".").CombinedOutput()
	if err != nil {
		t.Skipf("go doc: %v\n%s", err, out)
	}
	for _, want := range []string{"Stormlab runs retry-storm experiments", "# stormlab run", "# stormlab merge", "# Shards and merge", "# Exit codes", "  - -max-memory SIZE:"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("go doc . lacks %q:\n%s", want, out)
		}
	}
}
