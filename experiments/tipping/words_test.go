package tipping_test

import (
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/tipping"
)

// TestGraphKeyLabels: a search over a service graph's key is named by the
// service or the call it sets, in the words of a design review, and reads
// so in every sentence built on it; a chain's keys keep their words.
func TestGraphKeyLabels(t *testing.T) {
	names := &spec.GraphNames{Services: []string{"web", "orders", "db"},
		Edges: []spec.Edge{{To: "web"}, {From: "web", To: "orders"}, {From: "orders", To: "db"}}}
	for _, c := range []struct{ path, label string }{
		{"graph.service.2.server.capacity", "capacity of db"},
		{"graph.service.2.server.queue_limit", "queue limit of db"},
		{"graph.service.2.server.collapse.floor", "collapse floor of db"},
		{"graph.service.1.quorum", "quorum of orders"},
		{"graph.edge.2.attempts", "attempts of orders → db"},
		{"graph.edge.0.timeout", "timeout of users → web"},
		{"graph.edge.1.backoff.base", "backoff base of web → orders"},
		{"graph.edge.3.attempts", "graph.edge.3.attempts"}, // no such edge: the path
		{"load", "load"},
		{"dependency.queue_limit", "queue limit"},
	} {
		ts := &spec.Tipping{Key: c.path, Path: c.path, Graph: names}
		if got := tipping.KeyLabel(ts); got != c.label {
			t.Errorf("%s: %q, want %q", c.path, got, c.label)
		}
	}
	ts := &spec.Tipping{Key: "graph.service.2.server.capacity", Path: "graph.service.2.server.capacity", From: 200, To: 20, Graph: names, Service: "web"}
	if got, want := tipping.Mildest(ts, true), "the highest capacity of db that tips web"; got != want {
		t.Errorf("mildest: %q, want %q", got, want)
	}
	ts = &spec.Tipping{Key: "graph.edge.2.attempts", Path: "graph.edge.2.attempts", From: 1, To: 9, Graph: names}
	if got, want := tipping.Mildest(ts, false), "the attempts of orders → db at which half of the runs tip"; got != want {
		t.Errorf("mildest: %q, want %q", got, want)
	}
	// Without the graph's names (a search built by hand), the path.
	if got := tipping.KeyLabel(&spec.Tipping{Key: "graph.edge.2.attempts", Path: "graph.edge.2.attempts"}); got != "graph.edge.2.attempts" {
		t.Errorf("without names: %q", got)
	}
}

// TestGraphKeyLabelFromFile: a search read from a file with a graph
// carries the graph's names, so its key reads as the service it sets, in
// the key's unit; a chain's search carries none.
func TestGraphKeyLabelFromFile(t *testing.T) {
	e, err := experiments.Parse("two.toml", []byte(twoEntryPoints), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, unit := tipping.KeyLabel(&e.Tipping[2]), e.Tipping[2].Unit; got != "capacity of cache" || unit != "calls/s" {
		t.Errorf("the cache's capacity reads %q, in %q", got, unit)
	}
	chain, err := experiments.Parse("chain.toml", []byte("[tipping]\nkey = \"blip\"\nfrom = \"0s\"\nto = \"60s\"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if chain.Tipping[0].Graph != nil {
		t.Errorf("a chain's search has graph names: %+v", chain.Tipping[0].Graph)
	}
}
