package serve

import (
	"net/http"
	"strings"
	"testing"
)

// TestGraphRefused: a service graph cannot be streamed yet; asking for a
// run of one is refused with a message that says so and what to run
// instead, not answered with a chain's keys that do not apply.
func TestGraphRefused(t *testing.T) {
	_, hs := testServer(t, Options{Files: []string{fig1, "../../../experiments/shared-database.toml"}})
	code, body := call(t, "POST", hs.URL+"/api/runs", map[string]any{"experiment": "shared-database"})
	if code != http.StatusBadRequest || !strings.Contains(body, "a service graph") || !strings.Contains(body, "shared-database.toml writes its report") {
		t.Errorf("a graph's run: %d %s", code, body)
	}
	if code, body := call(t, "POST", hs.URL+"/api/runs", map[string]any{"experiment": "server-60"}); code != http.StatusCreated && code != http.StatusOK {
		t.Errorf("a chain's run beside it: %d %s", code, body)
	}
}
