package tipping

import (
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
)

// KeyLabel names the key of t in words for messages and figures: "blip
// length", "load".
func KeyLabel(t *spec.Tipping) string {
	switch t.Key {
	case "blip":
		return "blip length"
	}
	return strings.ReplaceAll(strings.TrimPrefix(t.Key, "dependency."), "_", " ")
}

// Mildest names the critical value of a search: "the shortest blip length
// that tips", "the lowest load that tips", "the highest capacity that
// tips" for a range that runs downwards; for a stochastic engine, "the
// blip length at which half of the runs tip"; judged at a service, "the
// shortest blip length that tips web".
func Mildest(t *spec.Tipping, exact bool) string {
	at := ""
	if t.Service != "" {
		at = " " + t.Service // what tips: the service judged
	}
	if !exact {
		return "the " + KeyLabel(t) + " at which half of the runs tip" + at
	}
	word := "lowest"
	switch {
	case t.Duration && t.To > t.From:
		word = "shortest"
	case t.Duration:
		word = "longest"
	case t.To < t.From:
		word = "highest"
	}
	return "the " + word + " " + KeyLabel(t) + " that tips" + at
}
