package importer

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/stormlab/stormlab/experiments"
)

// iniSection matches a section header line of an INI file: [default],
// [profile dev].
var iniSection = regexp.MustCompile(`^\[([^\[\]"',]+)\]\s*$`)

// looksINI reports whether the first line that is not blank or a comment
// is an INI section header, as in the AWS shared config file.
func looksINI(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") {
			continue
		}
		return iniSection.MatchString(l)
	}
	return false
}

// parseINI reads an INI file as the AWS SDKs read their shared config
// file (Python's configparser, as botocore uses it): [section] headers,
// "key = value" or "key: value" lines with the key in lower case, whole-line
// comments starting with # or ;, and an indented line continuing the key
// above it, which holds a nested "key = value" (the S3 settings). A key
// before any section, or a section or a key written twice, is an error.
// The tree is a mapping of sections, each a mapping of its keys.
func parseINI(file string, data []byte) (*node, error) {
	root := &node{kind: mapNode, file: file, index: -1, line: 1, col: 1}
	var sec, nested *node
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i, raw := range lines {
		line := i + 1
		text := strings.TrimSpace(raw)
		if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, ";") {
			continue
		}
		indented := raw[0] == ' ' || raw[0] == '\t'
		col := len(raw) - len(strings.TrimLeft(raw, " \t")) + 1
		if m := iniSection.FindStringSubmatch(text); m != nil && !indented {
			name := "[" + strings.Join(strings.Fields(m[1]), " ") + "]"
			if prev := root.child(name, same); prev != nil {
				return nil, &experiments.Error{File: file, Line: line, Col: col, Key: name, Msg: fmt.Sprintf("section given twice (first at line %d)", prev.line)}
			}
			sec = &node{kind: mapNode, file: file, parent: root, name: name, index: -1, line: line, col: col}
			root.keys, root.items = append(root.keys, name), append(root.items, sec)
			nested = nil
			continue
		}
		if sec == nil {
			return nil, &experiments.Error{File: file, Line: line, Col: col, Msg: "a setting before any [section]; the file starts with [default] or [profile NAME]"}
		}
		key, value, ok := cutSetting(text)
		if !ok {
			return nil, &experiments.Error{File: file, Line: line, Col: col, Key: sec.name, Msg: fmt.Sprintf("%q is neither a [section] nor a setting (key = value)", text)}
		}
		parent := sec
		if indented && nested != nil {
			parent = nested
		} else if indented {
			return nil, &experiments.Error{File: file, Line: line, Col: col, Key: sec.name, Msg: "an indented setting continues a key with an empty value above it; there is none"}
		}
		if prev := parent.child(key, same); prev != nil {
			return nil, &experiments.Error{File: file, Line: line, Col: col, Key: joinPath(parent.path(), key), Msg: fmt.Sprintf("given twice (first at line %d)", prev.line)}
		}
		n := &node{kind: scalarNode, file: file, parent: parent, name: key, index: -1, line: line, col: col, value: value, tag: "!!str"}
		if value == "" && parent == sec {
			n.kind, n.tag = mapNode, ""
			nested = n
		} else if parent == sec {
			nested = nil
		}
		parent.keys, parent.items = append(parent.keys, key), append(parent.items, n)
	}
	return root, nil
}

// cutSetting splits "key = value" or "key: value" at the first = or :, the
// key in lower case as configparser stores it.
func cutSetting(text string) (key, value string, ok bool) {
	i := strings.IndexAny(text, "=:")
	if i <= 0 {
		return "", "", false
	}
	return strings.ToLower(strings.TrimSpace(text[:i])), strings.TrimSpace(text[i+1:]), true
}

// same spells a key as written.
func same(s string) string { return s }
