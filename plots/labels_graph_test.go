package plots

import "testing"

// TestGraphPathLabels: an axis over a graph's key is named by the key and
// the part of the graph it sets, not by every segment of its path.
func TestGraphPathLabels(t *testing.T) {
	for path, want := range map[string]string{
		"graph.service.*.server.failure_probability": "failure probability (every service's server)",
		"graph.service.2.server.capacity":            "capacity (the server of service 2)",
		"graph.service.1.quorum":                     "quorum (service 1)",
		"graph.edge.*.attempts":                      "attempts (every edge)",
		"graph.edge.3.timeout":                       "timeout (edge 3)",
		"dependency.queue_limit":                     "queue limit",
		"fault.0.length":                             "fault length",
	} {
		if got := pathLabel(path); got != want {
			t.Errorf("pathLabel(%q) = %q, want %q", path, got, want)
		}
	}
}
