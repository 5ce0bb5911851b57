package experiments

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// applySet writes one -set PATH=VALUE flag into the decoded file before it
// is read, so that a flag can set any key a file can. VALUE is read as a
// TOML value (80, 0.1, true, [1, 2], {from = 1, to = 3, step = 1}) and as a
// plain string when it is not one ("30s", "fifo"). PATH is a dotted key of
// the file; a path that does not start with a top-level key is a scenario
// key. An entry of a list of tables is named by its index, whether the file
// writes the list as [[...]] tables or inline (layer = [{ ... }]); the index
// one past the end adds an entry, and an entry may be given whole as a table
// (-set 'layer.1={ attempts = 3 }').
func (e *Experiment) applySet(tree map[string]any, flag string) error {
	if strings.ContainsAny(flag, "\n\r") {
		// TOML would read the lines after the first as keys of their own,
		// which the flag would then drop.
		return &Error{File: e.File, Key: "-set", Msg: fmt.Sprintf("%q holds a line break; a -set flag is one PATH=VALUE on one line: give each key its own -set (-set scenario.load=80 -set seed=9)", flag)}
	}
	path, raw, ok := strings.Cut(flag, "=")
	path = strings.TrimSpace(path)
	if !ok || path == "" {
		return &Error{File: e.File, Key: "-set " + flag, Msg: "want PATH=VALUE, for example -set scenario.load=80 or -set grid.blip=30s"}
	}
	var v any = strings.TrimSpace(raw)
	var probe map[string]any
	if _, err := toml.Decode("v = "+raw, &probe); err == nil {
		v = probe["v"]
	}
	segs := strings.Split(path, ".")
	if !slices.Contains(tableKeys(&topLevel{}), segs[0]) {
		segs = append([]string{"scenario"}, segs...) // a bare scenario key
	}
	e.sets[strings.Join(segs, ".")] = true
	fail := func(format string, args ...any) error {
		return &Error{File: e.File, Key: "-set " + path, Msg: fmt.Sprintf(format, args...)}
	}
	node := any(tree)
	put := func(any) {} // replaces node where it is held
	for i, s := range segs {
		here, last := strings.Join(segs[:i], "."), i == len(segs)-1
		if m, ok := node.(map[string]any); ok {
			if last {
				m[s] = v
				return nil
			}
			next, ok := m[s]
			if !ok {
				next = map[string]any{}
				m[s] = next
			}
			node, put = next, func(x any) { m[s] = x }
			continue
		}
		list, ok := sweep.Tables(node)
		if !ok {
			if _, values := node.([]any); values {
				return fail("%s is a list of values; set it whole, as -set %s=[...]", here, here)
			}
			return fail("%s is a single value, not a table", here)
		}
		j, err := strconv.Atoi(s)
		if err != nil || j < 0 || j > len(list) {
			return fail("%s has entries 0..%d; name one of them, or %d to add one", here, len(list)-1, len(list))
		}
		entry := map[string]any{}
		if j < len(list) {
			entry = list[j]
		}
		if last {
			// The whole entry: a table of its keys.
			if entry, ok = v.(map[string]any); !ok {
				return fail("an entry of %s is a table; give it as { key = value, ... }", here)
			}
		}
		if j == len(list) || last {
			switch n := node.(type) {
			case []map[string]any:
				put(setEntry(n, j, entry))
			case []any:
				put(setEntry(n, j, any(entry)))
			}
		}
		if last {
			return nil
		}
		node, put = entry, func(any) {}
	}
	return nil
}

// setEntry puts x at index j of list, appending it when j is the length.
func setEntry[T any](list []T, j int, x T) []T {
	if j == len(list) {
		return append(list, x)
	}
	list[j] = x
	return list
}
