// Package importer turns the retry configuration a team ships into
// stormlab's scenario keys: a gRPC service config, an Envoy route and
// cluster, an Istio VirtualService, a Linkerd ServiceProfile and the AWS
// SDKs' shared config file. Each format is one file here (an Envoy
// bootstrap's static resources a second), a pure function from the parsed
// files to policies: each policy is one caller as its
// configuration sets it up, a set of keys with, for each, the fields it
// comes from and the published semantics the mapping follows; and every
// field that stormlab does not model is named with the reason. No field
// is dropped silently: a field no translation reads is listed too.
//
// Each format keeps a table of its fields (Rules): the keys a field sets,
// or why it is left out. The table is the documentation's mapping
// (MappingMarkdown), and the tests hold every key written and every field
// left out to a row of it. Render writes a result as the [[policy]]
// tables of an experiment file, Experiment as a whole experiment, and
// Check runs that experiment through the experiment loader, so what the
// importer prints is what stormlab validate accepts.
package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/experiments"
)

// File is one configuration file to import: its name as the user gave it
// (errors and comments cite it), its bytes, and its format's name, or ""
// to tell the format from the content.
type File struct {
	Name   string
	Data   []byte
	Format string
}

// Result is what an import makes of its files: the files and the formats
// they were read as, the policies, and the fields that belong to no one
// policy and that stormlab does not model.
type Result struct {
	Files      []Source
	Policies   []Policy
	Unmodelled []Field
}

// Source is one file imported and the format it was read as.
type Source struct {
	Name   string
	Format string // a Format's Doc
}

// Policy is one caller's configuration as scenario keys: a method config,
// a route, an AWS profile. Its keys describe the edge caller of a chain
// (layer 0) and the scenario's budget and deadline.
type Policy struct {
	Name       string
	From       Field // what it is made from
	Keys       []Key
	Unmodelled []Field // its fields that stormlab does not model
}

// Key is one scenario key the import sets, with its sources.
type Key struct {
	Key   string  // dotted below [scenario]: layer.0.attempts
	Value any     // int, float64, string, bool or model.Duration
	From  []Field // the fields it follows from; a field the file leaves unset gives its default
	Says  string  // how the value follows from them, and where the semantics differ
}

// Field is one field of a source file.
type Field struct {
	File      string
	Line, Col int
	Path      string // as the file spells it: methodConfig[0].retryPolicy.maxAttempts
	Pattern   string // its row in the format's Rules: list indices dropped, the format's spelling
	Value     string // a scalar as written; "" for a table or a list, or a value not repeated
	Unset     bool   // the file does not write it: Line and Col are those of the table it would be in
	Why       string // for a field stormlab does not model: why
}

// Format is one kind of configuration the importer reads: its name (for
// -format), what it is, the published documents its mapping follows, its
// mapping table, how to tell one of its documents, how it spells field
// names, and its translation.
type Format struct {
	Name    string
	Doc     string
	Sources string
	Rules   []Rule
	// is tells a document of the format by its fields.
	is func(root *node) bool
	// canon spells a field name the way the format's documentation does
	// (proto JSON takes both camelCase and snake_case names).
	canon func(string) string
	// translate makes policies of all the import's documents of the format
	// (an Envoy route needs its cluster).
	translate func(t *translation, docs []*node) error
}

// Rule is one row of a format's mapping: a field, the scenario keys it
// sets (none when stormlab does not model it), and the published semantics
// the mapping follows or why the field is left out. A Field ending in ".*"
// stands for every other field of that table.
type Rule struct {
	Field string
	Keys  []string
	Says  string
}

// Formats lists the formats the importer reads, in the order it tries
// them on a file that does not name its format.
func Formats() []Format {
	return []Format{grpcFormat(), envoyFormat(), istioFormat(), linkerdFormat(), awsFormat()}
}

// lookupFormat finds a format by name.
func lookupFormat(name string) (Format, bool) {
	for _, f := range Formats() {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// FormatNames lists the formats' names.
func FormatNames() []string {
	var out []string
	for _, f := range Formats() {
		out = append(out, f.Name)
	}
	return out
}

// Import reads the files and translates them: every document of a file is
// read as the file's format, or as the format its fields show. The
// documents of one format are translated together, so an Envoy route
// finds its cluster in another file. Bad input is an *experiments.Error.
func Import(files []File) (*Result, error) {
	res := &Result{}
	var order []string
	byFormat := map[string][]*node{}
	for _, f := range files {
		docs, formats, err := read(f)
		if err != nil {
			return nil, err
		}
		var docNames []string
		for i, d := range docs {
			name := formats[i]
			if _, ok := byFormat[name]; !ok {
				order = append(order, name)
			}
			byFormat[name] = append(byFormat[name], d)
			fm, _ := lookupFormat(name)
			if !slices.Contains(docNames, fm.Doc) {
				docNames = append(docNames, fm.Doc)
			}
		}
		res.Files = append(res.Files, Source{Name: f.Name, Format: strings.Join(docNames, ", ")})
	}
	for _, name := range order {
		fm, _ := lookupFormat(name)
		t := newTranslation(res, fm)
		if err := fm.translate(t, byFormat[name]); err != nil {
			return nil, err
		}
		t.account(byFormat[name])
	}
	uniqueNames(res.Policies)
	return res, nil
}

// read parses a file and tells the format of each of its documents.
func read(f File) ([]*node, []string, error) {
	var given Format
	if f.Format != "" {
		fm, ok := lookupFormat(f.Format)
		if !ok {
			return nil, nil, &experiments.Error{File: f.Name, Msg: fmt.Sprintf("unknown format %q; the formats are %s", f.Format, strings.Join(FormatNames(), ", "))}
		}
		given = fm
	}
	if given.Name == "aws" || given.Name == "" && looksINI(f.Data) {
		root, err := parseINI(f.Name, f.Data)
		if err != nil {
			return nil, nil, err
		}
		return []*node{root}, []string{"aws"}, nil
	}
	docs, err := parseTree(f.Name, f.Data)
	if err != nil {
		return nil, nil, err
	}
	if len(docs) == 0 {
		return nil, nil, &experiments.Error{File: f.Name, Msg: "holds no configuration"}
	}
	var names []string
	for _, d := range docs {
		if given.Name != "" {
			names = append(names, given.Name)
			continue
		}
		found := ""
		for _, fm := range Formats() {
			if fm.is != nil && fm.is(d) {
				found = fm.Name
				break
			}
		}
		if found == "" {
			return nil, nil, &experiments.Error{File: d.file, Line: d.line, Col: d.col,
				Msg: "cannot tell its format: expected a gRPC service config (methodConfig, retryThrottling), an Envoy RouteConfiguration, VirtualHost, Route or Cluster, an Istio VirtualService, a Linkerd ServiceProfile, or an AWS config file ([default], [profile NAME]); name the format with -format (" + strings.Join(FormatNames(), ", ") + ")"}
		}
		names = append(names, found)
	}
	return docs, names, nil
}

// uniqueNames numbers policies that share a name, since an experiment's
// policies are told apart by name.
func uniqueNames(ps []Policy) {
	seen := map[string]int{}
	for i := range ps {
		seen[ps[i].Name]++
		if n := seen[ps[i].Name]; n > 1 {
			ps[i].Name = fmt.Sprintf("%s (%d)", ps[i].Name, n)
		}
	}
}
