package experiments

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// applySet writes one PATH=VALUE flag into the decoded file. VALUE is read
// as a TOML value (80, 0.1, true, [1, 2], {from = 1, to = 3, step = 1}) and
// as a plain string when it is not one ("30s", "fifo").
func (e *Experiment) applySet(tree map[string]any, flag string) error {
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
	node := any(tree)
	for i, s := range segs[:len(segs)-1] {
		switch n := node.(type) {
		case map[string]any:
			next, ok := n[s]
			if !ok {
				next = map[string]any{}
				n[s] = next
			}
			node = next
		case []map[string]any:
			j, err := strconv.Atoi(s)
			if err != nil || j < 0 || j >= len(n) {
				return &Error{File: e.File, Key: "-set " + path, Msg: fmt.Sprintf("%s has entries 0..%d", strings.Join(segs[:i], "."), len(n)-1)}
			}
			node = n[j]
		default:
			return &Error{File: e.File, Key: "-set " + path, Msg: strings.Join(segs[:i], ".") + " is a single value, not a table"}
		}
	}
	m, ok := node.(map[string]any)
	if !ok {
		return &Error{File: e.File, Key: "-set " + path, Msg: strings.Join(segs[:len(segs)-1], ".") + " is not a table"}
	}
	m[segs[len(segs)-1]] = v
	return nil
}
