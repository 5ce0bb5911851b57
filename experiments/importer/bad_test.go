package importer

import (
	"errors"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments"
)

// TestBadInput holds each kind of bad input to one error naming the file,
// the line and column where the parser gives them, the field, and what is
// allowed.
func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		name, format, data, want string
	}{
		{"grpc.json", "", `{"methodConfig": [{"name": [{"service": "s"}], "retryPolicy": {"maxAttempts": 1, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`,
			"grpc.json:1:64: methodConfig[0].retryPolicy.maxAttempts: must be 2 or more"},
		{"grpc.json", "", "{\n  \"methodConfig\": [\n}", "grpc.json:3:1: not valid JSON"},
		{"grpc.json", "", `{"methodConfig": [{"name": [{"service": "s"}], "retryPolicy": {"maxAttempts": 3, "initalBackoff": "0.1s"}}]}`,
			`unknown field "initalBackoff" (did you mean "initialBackoff"?); retryPolicy has maxAttempts, initialBackoff`},
		{"grpc.json", "", `{"methodConfig": [{"name": [{"service": "s"}], "timeout": "10"}]}`,
			`grpc.json:1:48: methodConfig[0].timeout: must be a duration written as seconds with an "s"`},
		{"grpc.json", "", `{"methodConfig": [{"name": [{"service": "s"}], "retryPolicy": {}, "hedgingPolicy": {}}]}`,
			"retryPolicy or hedgingPolicy, not both"},
		{"route.yaml", "", "virtual_hosts:\n- name: a\n  domains: ['*']\n  routes:\n  - match: {prefix: /}\n    route:\n      cluster: c\n      retry_policy:\n        num_retries: -1\n",
			"route.yaml:9:9: virtual_hosts[0].routes[0].route.retry_policy.num_retries: must be a whole number from 0 to 999"},
		{"route.yaml", "", "virtual_hosts:\n- name: a\n  domains: ['*']\n  routes:\n  - match: {prefix: /}\n    route:\n      retry_policy:\n        retry_back_off: {base_interval: 1s, max_interval: 0.5s}\n",
			"retry_back_off.max_interval: must be at least base_interval"},
		{"cluster.yaml", "", "name: c\ncircuit_breakers:\n  thresholds:\n  - retry_budget: {budget_percent: {value: 120}}\n",
			"cluster.yaml:4:37: circuit_breakers.thresholds[0].retry_budget.budget_percent.value: must be a percentage from 0 to 100"},
		{"vs.yaml", "", "apiVersion: networking.istio.io/v1\nkind: VirtualService\nspec:\n  http:\n  - retries: {attempts: 2, perTryTimeout: 2}\n",
			`vs.yaml:5:28: spec.http[0].retries.perTryTimeout: must be a duration such as "300ms"`},
		{"sp.yaml", "", "apiVersion: linkerd.io/v1alpha2\nkind: ServiceProfile\nspec:\n  retryBudget: {retryRatio: 0.2, minRetriesPerSecond: 10, ttl: 2m}\n",
			"sp.yaml:4:59: spec.retryBudget.ttl: must be from 1s to 1m"},
		{"config", "", "[default]\nretry_mode = fast\n", "config:2:1: [default].retry_mode: must be standard, adaptive or legacy"},
		{"config", "aws", "region = x\n[default]\n", "config:1:1: a setting before any [section]"},
		{"x.yaml", "", "a: 1\n", "x.yaml:1:1: cannot tell its format"},
		{"x.yaml", "", "a: [1\n", "x.yaml:1: not valid YAML"},
		{"x.yaml", "nginx", "a: 1\n", `x.yaml: unknown format "nginx"; the formats are grpc, envoy, istio, linkerd, aws`},
		{"x.yaml", "", "methodConfig: []\nmethodConfig: []\n", "x.yaml:2:1: methodConfig: given twice (first at line 1)"},
	} {
		_, err := Import([]File{{Name: c.name, Data: []byte(c.data), Format: c.format}})
		var e *experiments.Error
		if !errors.As(err, &e) {
			t.Errorf("%s %q: got %v, want an *experiments.Error", c.name, c.data, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q:\n got %s\nwant %s", c.name, c.data, err, c.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: the error is more than one line: %q", c.name, err)
		}
	}
}
