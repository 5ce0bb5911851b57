package tipping

import (
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
)

// KeyLabel names the key of t in words for messages and figures: "blip
// length", "load"; a service graph's key by what it sets, a service's
// ("capacity of db", "quorum of gateway") or an edge's ("attempts of
// orders → db", an entry point's "timeout of users → web"), the key's
// last words after the service or edge it names, with spaces for dots and
// underscores.
func KeyLabel(t *spec.Tipping) string {
	switch t.Key {
	case "blip":
		return "blip length"
	}
	if l, ok := graphLabel(t); ok {
		return l
	}
	return strings.ReplaceAll(strings.TrimPrefix(t.Key, "dependency."), "_", " ")
}

// graphLabel is KeyLabel for a key of a service graph's
// (graph.service.N.… or graph.edge.N.…): false for any other key, or
// without the graph's names.
func graphLabel(t *spec.Tipping) (string, bool) {
	g := t.Graph
	rest, ok := strings.CutPrefix(t.Path, "graph.")
	if g == nil || !ok {
		return "", false
	}
	list, rest, _ := strings.Cut(rest, ".")
	n, key, _ := strings.Cut(rest, ".")
	i, err := strconv.Atoi(n)
	if err != nil || i < 0 || key == "" {
		return "", false
	}
	words := func(k string) string { return strings.NewReplacer(".", " ", "_", " ").Replace(k) }
	switch {
	case list == "service" && i < len(g.Services):
		return words(strings.TrimPrefix(key, "server.")) + " of " + g.Services[i], true
	case list == "edge" && i < len(g.Edges):
		from := g.Edges[i].From
		if from == "" {
			from = "users"
		}
		return words(key) + " of " + from + " → " + g.Edges[i].To, true
	}
	return "", false
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
