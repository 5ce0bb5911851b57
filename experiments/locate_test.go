package experiments

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// keyPositionCases are documents with every expected key position ("line:col").
var keyPositionCases = []struct {
	name string
	src  string
	want map[string]string
}{
	{
		name: "experiment",
		src: `name = "blip-30s"
seed = 1
[scenario]
load = 70
dependency.capacity = 100
[scenario.fault]
start = "60s"
[[policy]]
name = "no retries"
attempts = 1
[[policy]]
name = "27 attempts"
budget = { kind = "per_tick", ratio = 0.1 }
[grid]
load = { from = 50, to = 95, step = 5 }
blip = ["0s", "30s"]
`,
		want: map[string]string{
			"name":                         "1:1",
			"seed":                         "2:1",
			"scenario":                     "3:2",
			"scenario.load":                "4:1",
			"scenario.dependency":          "5:1",
			"scenario.dependency.capacity": "5:12",
			"scenario.fault":               "6:11",
			"scenario.fault.start":         "7:1",
			"policy":                       "8:3",
			"policy.0":                     "8:1",
			"policy.0.name":                "9:1",
			"policy.0.attempts":            "10:1",
			"policy.1":                     "11:1",
			"policy.1.name":                "12:1",
			"policy.1.budget":              "13:1",
			"policy.1.budget.kind":         "13:12",
			"policy.1.budget.ratio":        "13:31",
			"grid":                         "14:2",
			"grid.load":                    "15:1",
			"grid.load.from":               "15:10",
			"grid.load.to":                 "15:21",
			"grid.load.step":               "15:30",
			"grid.blip":                    "16:1",
			"grid.blip.0":                  "16:9",
			"grid.blip.1":                  "16:15",
		},
	},
	{
		name: "strings hiding syntax",
		src: `a = "x # = [ ] { } , \" y" # comment [z]
b = 'lit # [ ] { } "'
c = """
multi " "" \""" # [x]
e = { } ,"""""
d = '''
raw '' [n] = 1
'''''
f = 1
`,
		want: map[string]string{"a": "1:1", "b": "2:1", "c": "3:1", "d": "6:1", "f": "9:1"},
	},
	{
		name: "inline tables in arrays in inline tables",
		src:  `x = [{a = 1}, {a = 2, b = [ {c = {d = [1, [2, 3]]}} ]}]`,
		want: map[string]string{
			"x": "1:1", "x.0": "1:6", "x.0.a": "1:7", "x.1": "1:15", "x.1.a": "1:16",
			"x.1.b": "1:23", "x.1.b.0": "1:29", "x.1.b.0.c": "1:30", "x.1.b.0.c.d": "1:35",
			"x.1.b.0.c.d.0": "1:40", "x.1.b.0.c.d.1": "1:43",
			"x.1.b.0.c.d.1.0": "1:44", "x.1.b.0.c.d.1.1": "1:47",
		},
	},
	{
		name: "arrays of tables with sub-tables",
		src: `[[a]]
n = 1
[a.b]
m = 2
[[a.c]]
k = 3
[[a.c]]
[[a]]
[[a.c]]
k = 4
`,
		want: map[string]string{
			"a": "1:3", "a.0": "1:1", "a.0.n": "2:1", "a.0.b": "3:4", "a.0.b.m": "4:1",
			"a.0.c": "5:5", "a.0.c.0": "5:1", "a.0.c.0.k": "6:1", "a.0.c.1": "7:1",
			"a.1": "8:1", "a.1.c": "9:5", "a.1.c.0": "9:1", "a.1.c.0.k": "10:1",
		},
	},
	{
		name: "dotted, quoted and unicode keys",
		src: `a.b.c = 1
"a b" = 2
'x.y' = 3
"\u00e9t\u00e9" = 4
"ключ" = { "значение" = 5 }
  p . "q" . r   =  6
[ t . "u v" ]
'w' = 7
`,
		want: map[string]string{
			"a": "1:1", "a.b": "1:3", "a.b.c": "1:5",
			"a b": "2:1", "x.y": "3:1", "été": "4:1",
			"ключ": "5:1", "ключ.значение": "5:12",
			"p": "6:3", "p.q": "6:7", "p.q.r": "6:13",
			"t": "7:3", "t.u v": "7:7", "t.u v.w": "8:1",
		},
	},
	{
		name: "BOM and CRLF",
		src:  "\uFEFFa = 1\r\n[t]\r\nb = \"x\"\r\nc = [\r\n  1,\r\n  2,\r\n]\r\n",
		want: map[string]string{
			"a": "1:1", "t": "2:2", "t.b": "3:1", "t.c": "4:1", "t.c.0": "5:3", "t.c.1": "6:3",
		},
	},
	{
		name: "TOML 1.1 newlines in inline tables",
		src: `t = {
  a = 1, # one
  b = [
    2, # two
  ],
  c = { d = 3 },
}
`,
		want: map[string]string{
			"t": "1:1", "t.a": "2:3", "t.b": "3:3", "t.b.0": "4:5", "t.c": "6:3", "t.c.d": "6:9",
		},
	},
	{
		name: "first position wins",
		src: `[x.y.z]
v = 1
[x]
w = 2
[x.y]
`,
		want: map[string]string{"x": "1:2", "x.y": "1:4", "x.y.z": "1:6", "x.y.z.v": "2:1", "x.w": "4:1"},
	},
	{
		name: "empty containers, nested arrays and date-times",
		src: `e = []
f = {}
y = [[1, 2], []]
d = 1979-05-27 07:32:00Z
arr = [1979-05-27 07:32:00, 2]
[empty]
`,
		want: map[string]string{
			"e": "1:1", "f": "2:1", "y": "3:1", "y.0": "3:6", "y.0.0": "3:7", "y.0.1": "3:10",
			"y.1": "3:14", "d": "4:1", "arr": "5:1", "arr.0": "5:8", "arr.1": "5:29", "empty": "6:2",
		},
	},
	{
		// Invalid TOML (found in toml-test) that BurntSushi 1.6 accepts: a dotted key
		// through an array of tables refers to its last element.
		name: "dotted key through an array of tables",
		src: `[[tab.arr]]
[tab]
arr.val1 = 1
`,
		want: map[string]string{"tab": "1:3", "tab.arr": "1:7", "tab.arr.0": "1:1", "tab.arr.0.val1": "3:5"},
	},
}

// TestKeyPositions checks exact positions, and that each case is a document BurntSushi accepts.
func TestKeyPositions(t *testing.T) {
	for _, tc := range keyPositionCases {
		t.Run(tc.name, func(t *testing.T) {
			var m map[string]any
			if _, err := toml.Decode(tc.src, &m); err != nil {
				t.Fatalf("test document is not valid TOML: %v", err)
			}
			got := map[string]string{}
			for k, p := range keyPositions([]byte(tc.src)) {
				got[k] = p.String()
			}
			for _, k := range slices.Sorted(maps.Keys(tc.want)) {
				if got[k] != tc.want[k] {
					t.Errorf("%q: got %q, want %q", k, got[k], tc.want[k])
				}
			}
			for _, k := range slices.Sorted(maps.Keys(got)) {
				if _, ok := tc.want[k]; !ok {
					t.Errorf("unexpected key %q at %s", k, got[k])
				}
			}
		})
	}
}

// TestKeyPositionsInvalid checks that broken documents neither panic nor hang.
func TestKeyPositionsInvalid(t *testing.T) {
	for _, src := range []string{
		"", "[", "[[", "[]", "[[]]", "a", "a =", "a = [", "a = {", "a = \"", "a = '''", `a = """\`,
		"a = [1,,}", "a = {b = ]", "= 1", ". = 1", "\"a", "a.", "a = [{b = [{", "\xff = \xfe",
		"[a\n[[a.b\nc", "\r\r\n", "a = {b\n= 1}", strings.Repeat("[", maxKeyNesting+10),
		"a = " + strings.Repeat("[", maxKeyNesting+10),
	} {
		keyPositions([]byte(src))
	}
}

// TestPositionString checks the "line:col" format.
func TestPositionString(t *testing.T) {
	if got := (position{Line: 12, Col: 5}).String(); got != "12:5" {
		t.Errorf("got %q, want 12:5", got)
	}
}

// FuzzKeyPositions checks that keyPositions never panics, and that on every document
// BurntSushi/toml decodes, each path of the decoded value has a position inside the source,
// where, for a key, its quote or bare name is written.
func FuzzKeyPositions(f *testing.F) {
	for _, tc := range keyPositionCases {
		f.Add([]byte(tc.src))
	}
	f.Fuzz(checkKeyPositions)
}

// checkKeyPositions is the property FuzzKeyPositions checks on one input.
func checkKeyPositions(t *testing.T, src []byte) {
	got := keyPositions(src)
	var m map[string]any
	if _, err := toml.Decode(string(src), &m); err != nil {
		return
	}
	lines := strings.Split(string(bytes.TrimPrefix(src, []byte("\uFEFF"))), "\n")
	paths := map[string]bool{}
	ambiguous := flattenPaths(nil, m, paths)
	for path, isKey := range paths {
		p, ok := got[path]
		if !ok {
			t.Fatalf("no position for %q; found %v", path, got)
		}
		if p.Line < 1 || p.Line > len(lines) || p.Col < 1 || p.Col > utf8.RuneCountInString(lines[p.Line-1]) {
			t.Fatalf("%q: position %s outside the source", path, p)
		}
		// A key segment containing "." makes paths ambiguous: don't check the text then.
		if !isKey || ambiguous {
			continue
		}
		at := string([]rune(lines[p.Line-1])[p.Col-1:])
		name := path[strings.LastIndex(path, ".")+1:]
		if !strings.HasPrefix(at, `"`) && !strings.HasPrefix(at, `'`) && !strings.HasPrefix(at, name) {
			t.Fatalf("%q at %s points at %q", path, p, at)
		}
	}
}

// flattenPaths adds to paths every path in v below prefix (maps by key, arrays by index), mapped to
// whether its last segment is a key (rather than an array index). It reports whether some key
// contains a ".".
func flattenPaths(prefix []string, v any, paths map[string]bool) (dotted bool) {
	add := func(seg string, isKey bool, e any) {
		p := append(prefix[:len(prefix):len(prefix)], seg)
		paths[strings.Join(p, ".")] = isKey
		dotted = flattenPaths(p, e, paths) || dotted || isKey && strings.Contains(seg, ".")
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			add(k, true, e)
		}
	case []any:
		for i, e := range v {
			add(strconv.Itoa(i), false, e)
		}
	case []map[string]any:
		for i, e := range v {
			add(strconv.Itoa(i), false, e)
		}
	}
	return dotted
}
