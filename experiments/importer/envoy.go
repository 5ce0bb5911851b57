package importer

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stormlab/stormlab/model"
)

// Envoy: a route configuration (RouteConfiguration, VirtualHost or Route,
// as the xDS v3 API writes them in YAML or JSON) and the clusters its
// routes send to (Cluster, for its circuit_breakers), alone or as the
// static resources of a bootstrap file (envoy_bootstrap.go). The semantics follow
// Envoy's API reference (route_components.proto, cluster/v3/circuit_breaker.proto,
// core/v3/backoff.proto) and its router filter's documentation.

func envoyFormat() Format {
	return Format{
		Name:      "envoy",
		Doc:       "an Envoy bootstrap, route configuration or cluster",
		Sources:   "Envoy's API reference (config.route.v3 RetryPolicy, RouteAction; config.cluster.v3 CircuitBreakers) and its router filter documentation (x-envoy-max-retries, retry back-off)",
		Rules:     envoyRules(),
		is:        isEnvoy,
		canon:     lowerSnake,
		translate: translateEnvoy,
	}
}

// Envoy's defaults, from its API reference.
const (
	envoyNumRetries    = 1                                                                       // RetryPolicy.num_retries
	envoyBaseInterval  = model.Duration(25 * time.Millisecond)                                   // RetryBackOff.base_interval
	envoyRouteTimeout  = model.Duration(15 * time.Second)                                        // RouteAction.timeout
	envoyMaxRetries    = 3                                                                       // Thresholds.max_retries
	envoyMaxIntervalX  = 10                                                                      // max_interval = 10 × base_interval
	envoyDefaultBudget = "retry_budget unset: Envoy limits the retries in flight to max_retries" // said on the budget keys
)

func envoyRules() []Rule {
	return []Rule{
		{"Bootstrap.static_resources", nil, "read for its listeners' HTTP routes and its clusters"},
		{"Bootstrap.static_resources.listeners", nil, "read for their HTTP connection managers' route_config"},
		{"Bootstrap.static_resources.clusters", nil, "each a Cluster, below"},
		{"Bootstrap.static_resources.*", nil, "secrets and the other static resources are not modelled"},
		{"Bootstrap.*", nil, "the node, admin, runtime, statistics, tracing and xDS sources are not modelled; routes and clusters sent by xDS are not in the file, so import reads static resources only"},
		{"Listener.filter_chains", nil, "read for their HTTP connection managers"},
		{"Listener.*", nil, "addresses, listener filters and socket options are not modelled"},
		{"FilterChain.filters", nil, "read for an HTTP connection manager"},
		{"FilterChain.*", nil, "the chain's match and transport socket are not modelled"},
		{"Filter", nil, "a network filter other than the HTTP connection manager: it routes no HTTP requests"},
		{"Filter.name", nil, "tells the HTTP connection manager"},
		{"Filter.typed_config", nil, "the HTTP connection manager's configuration (its @type)"},
		{"Filter.*", nil, "not modelled"},
		{"HttpConnectionManager.route_config", nil, "a RouteConfiguration, below"},
		{"HttpConnectionManager.rds", nil, "routes sent by RDS are not in the file: not modelled"},
		{"HttpConnectionManager.*", nil, "the HTTP filters, codec, statistics and connection settings are not modelled"},
		{"RouteConfiguration.name", nil, "names the policies"},
		{"RouteConfiguration.virtual_hosts", nil, "a policy per route of each virtual host"},
		{"RouteConfiguration.*", nil, "headers, cluster validation and the other listener-wide settings are not modelled"},
		{"VirtualHost.name", nil, "names the policies"},
		{"VirtualHost.domains", nil, "which hosts the virtual host serves: stormlab has one dependency"},
		{"VirtualHost.routes", nil, "a policy per route"},
		{"VirtualHost.retry_policy", nil, "the retry policy (RetryPolicy) of every route that sets none; a route's own replaces it whole"},
		{"VirtualHost.*", nil, "not a retry setting: not modelled"},
		{"Route.name", nil, "names the policy"},
		{"Route.match", nil, "which requests the route takes: stormlab does not tell requests apart by path or header; it names the policy"},
		{"Route.route", nil, "the route's action (RouteAction)"},
		{"Route.*", nil, "redirects, direct responses, headers and metadata are not modelled"},
		{"RouteAction.cluster", []string{"budget.kind", "budget.budget_percent", "budget.min_retry_concurrency", "budget.scope"}, "the cluster whose circuit_breakers give the retry limit; a cluster not among the files has Envoy's default thresholds (max_retries 3)"},
		{"RouteAction.timeout", []string{"deadline", "layer.0.timeout"}, "the whole request's timeout, every retry included (Envoy's router: the route timeout spans the retries); 15 s when unset, 0 disables it"},
		{"RouteAction.retry_policy", []string{"layer.0.attempts"}, "the route's retry policy (RetryPolicy), replacing its virtual host's whole; with neither, Envoy does not retry (attempts = 1)"},
		{"RetryPolicy", []string{"layer.0.backoff.kind", "layer.0.backoff.jitter", "layer.0.backoff.factor"}, "Envoy retries with a fully jittered exponential back-off: before retry N it waits random(0, (2^N − 1) × base_interval), at most max_interval. stormlab's exponential with factor 2 and full jitter waits random(0, 2^(N−1) × base), at most cap: the same first wait, later bounds up to half of Envoy's"},
		{"RouteAction.hedge_policy", nil, "Envoy's hedging sends extra requests at once or on a per-try timeout, not after a delay as stormlab's hedge does: not modelled"},
		{"RouteAction.*", nil, "not a retry setting: not modelled"},
		{"RetryPolicy.num_retries", []string{"layer.0.attempts"}, "retries after the first try: attempts = num_retries + 1; 1 when unset"},
		{"RetryPolicy.per_try_timeout", []string{"layer.0.timeout"}, "each try's timeout; unset, a try may take the whole route timeout"},
		{"RetryPolicy.retry_back_off", nil, "the back-off's base and cap"},
		{"RetryPolicy.retry_back_off.base_interval", []string{"layer.0.backoff.base"}, "25 ms when unset"},
		{"RetryPolicy.retry_back_off.max_interval", []string{"layer.0.backoff.cap"}, "10 × base_interval when unset"},
		{"RetryPolicy.retry_on", nil, "which failures are retried: stormlab retries every failed try; the import says whether the conditions cover an overloaded or failed server (5xx, gateway-error, reset, connect-failure, retriable-status-codes with 503, unavailable, resource-exhausted)"},
		{"RetryPolicy.retriable_status_codes", nil, "the status codes retried under retriable-status-codes: stormlab retries every failed try"},
		{"RetryPolicy.per_try_idle_timeout", nil, "a try's timeout between bytes of its answer: stormlab's answers come whole"},
		{"RetryPolicy.retry_priority", nil, "which priority a retry's host is picked from: stormlab has one dependency"},
		{"RetryPolicy.retry_host_predicate", nil, "which hosts a retry avoids: stormlab has one dependency"},
		{"RetryPolicy.host_selection_retry_max_attempts", nil, "tries at picking a host for a retry: stormlab has one dependency"},
		{"RetryPolicy.retry_options_predicates", nil, "upstream connection options per retry: not modelled"},
		{"RetryPolicy.rate_limited_retry_back_off", nil, "a back-off the upstream sets in a header of its answer: stormlab's dependency sends none"},
		{"RetryPolicy.retriable_headers", nil, "retries chosen by answer headers: not modelled"},
		{"RetryPolicy.retriable_request_headers", nil, "retries chosen by request headers: not modelled"},
		{"Cluster.name", nil, "the name routes send to"},
		{"Cluster.circuit_breakers", nil, "the cluster's limits, per priority"},
		{"Cluster.*", nil, "connections, load balancing, endpoints and outlier detection are not modelled: stormlab has one dependency"},
		{"CircuitBreakers.thresholds", nil, "the limits, one entry per routing priority; routes send at the DEFAULT priority"},
		{"CircuitBreakers.per_host_thresholds", nil, "limits per upstream host: stormlab has one dependency"},
		{"Thresholds.priority", nil, "the routing priority the entry is for: the DEFAULT entry gives the budget; a HIGH entry is not modelled"},
		{"Thresholds.retry_budget", []string{"budget.kind", "budget.scope"}, "Envoy's retry budget: the retries in flight at most budget_percent of the active and pending requests, and at least min_retry_concurrency; stormlab's envoy budget counts the tries in flight. Envoy keeps it per cluster in each proxy: one per client. With a retry_budget, max_retries is ignored"},
		{"Thresholds.retry_budget.budget_percent", []string{"budget.budget_percent"}, "20 when unset"},
		{"Thresholds.retry_budget.min_retry_concurrency", []string{"budget.min_retry_concurrency"}, "3 when unset"},
		{"Thresholds.max_retries", []string{"budget.kind", "budget.budget_percent", "budget.min_retry_concurrency", "budget.scope"}, "without a retry_budget, at most max_retries retries in flight at once (3 when unset): stormlab's envoy budget with budget_percent 0 and min_retry_concurrency = max_retries"},
		{"Thresholds.max_connections", nil, "connections to the cluster: not modelled"},
		{"Thresholds.max_pending_requests", nil, "requests waiting for a connection: not modelled"},
		{"Thresholds.max_requests", nil, "requests in flight to the cluster (a bulkhead): not modelled"},
		{"Thresholds.max_connection_pools", nil, "connection pools: not modelled"},
		{"Thresholds.track_remaining", nil, "statistics only"},
	}
}

var (
	envoyRetry     = []string{"retry_on", "num_retries", "per_try_timeout", "per_try_idle_timeout", "retry_priority", "retry_host_predicate", "retry_options_predicates", "host_selection_retry_max_attempts", "retriable_status_codes", "retry_back_off", "rate_limited_retry_back_off", "retriable_headers", "retriable_request_headers"}
	envoyBackOff   = []string{"base_interval", "max_interval"}
	envoyBreakers  = []string{"thresholds", "per_host_thresholds"}
	envoyThreshold = []string{"priority", "max_connections", "max_pending_requests", "max_requests", "max_retries", "retry_budget", "track_remaining", "max_connection_pools"}
	envoyBudget    = []string{"budget_percent", "min_retry_concurrency"}
	// envoyOverload are the retry_on conditions that cover the failures
	// stormlab's dependency gives: an overloaded or failed server.
	envoyOverload = []string{"5xx", "gateway-error", "reset", "connect-failure", "retriable-status-codes", "unavailable", "resource-exhausted", "refused-stream"}
)

// lowerSnake spells a proto field name as Envoy's YAML does: maxRetries is
// max_retries; a name in snake_case stays.
func lowerSnake(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// envoyKind tells which Envoy message a document is.
func envoyKind(root *node) string {
	if root.kind != mapNode {
		return ""
	}
	has := func(k string) bool { return root.child(k, lowerSnake) != nil }
	switch {
	case has("static_resources") || has("dynamic_resources") || has("admin") || has("node"):
		return "Bootstrap"
	case has("virtual_hosts"):
		return "RouteConfiguration"
	case has("domains"):
		return "VirtualHost"
	case has("match") && (has("route") || has("redirect") || has("direct_response")):
		return "Route"
	case has("circuit_breakers") || has("name") && (has("connect_timeout") || has("load_assignment") || has("lb_policy")):
		return "Cluster"
	}
	return ""
}

func isEnvoy(root *node) bool { return envoyKind(root) != "" }

func translateEnvoy(t *translation, docs []*node) error {
	clusters := map[string]*envoyCluster{}
	var order []*envoyCluster
	var routes []*node
	addCluster := func(d *node) error {
		c, err := t.envoyCluster(d)
		if err != nil {
			return err
		}
		if prev, ok := clusters[c.name]; ok {
			return bad(d.child("name", lowerSnake), "cluster %q given twice (first at %s:%d)", c.name, prev.n.file, prev.n.line)
		}
		clusters[c.name] = c
		order = append(order, c)
		return nil
	}
	for _, d := range docs {
		switch envoyKind(d) {
		case "Cluster":
			if err := addCluster(d); err != nil {
				return err
			}
		case "Bootstrap":
			cs, rcs, err := t.envoyBootstrap(d)
			if err != nil {
				return err
			}
			for _, c := range cs {
				if err := addCluster(c); err != nil {
					return err
				}
			}
			routes = append(routes, rcs...)
		case "":
			return bad(d, "not an Envoy Bootstrap, RouteConfiguration, VirtualHost, Route or Cluster")
		default:
			routes = append(routes, d)
		}
	}
	for _, d := range routes {
		var err error
		switch envoyKind(d) {
		case "RouteConfiguration":
			t.anchor(d, "RouteConfiguration")
			err = t.envoyRouteConfig(d, clusters)
		default:
			t.anchor(d, "RouteConfiguration")
			t.leave(nil, d, "a route configuration without virtual hosts: no routes")
		case "VirtualHost":
			err = t.envoyVirtualHost(d, "", clusters)
		case "Route":
			err = t.envoyRoute(d, "", nil, clusters)
		}
		if err != nil {
			return err
		}
	}
	for _, c := range order {
		if !c.used {
			p := t.policy("cluster "+c.name, c.n)
			c.apply(t, p)
		}
		t.leaveAll(nil, c.n, "name", "circuit_breakers")
	}
	return nil
}

func (t *translation) envoyRouteConfig(rc *node, clusters map[string]*envoyCluster) error {
	name := ""
	if n := rc.child("name", lowerSnake); n != nil {
		s, err := text(n)
		if err != nil {
			return err
		}
		name = s
		t.leave(nil, n, t.why(n))
	}
	vhs := rc.child("virtual_hosts", lowerSnake)
	if err := list(vhs); err != nil {
		return err
	}
	for _, vh := range vhs.items {
		if err := t.envoyVirtualHost(vh, name, clusters); err != nil {
			return err
		}
	}
	t.leaveAll(nil, rc, "name", "virtual_hosts")
	return nil
}

func (t *translation) envoyVirtualHost(vh *node, prefix string, clusters map[string]*envoyCluster) error {
	if vh.kind != mapNode {
		return bad(vh, "must be a table of fields (a VirtualHost), got %s", describe(vh))
	}
	t.anchor(vh, "VirtualHost")
	name := prefix
	if n := vh.child("name", lowerSnake); n != nil {
		s, err := text(n)
		if err != nil {
			return err
		}
		name = strings.TrimSpace(prefix + " " + s)
		t.leave(nil, n, t.why(n))
	}
	rp := vh.child("retry_policy", lowerSnake)
	routes := vh.child("routes", lowerSnake)
	if routes == nil {
		return bad(vh, "routes is required: a VirtualHost lists its routes")
	}
	if err := list(routes); err != nil {
		return err
	}
	inherited := false
	for _, r := range routes.items {
		if r.kind == mapNode && (r.child("route", lowerSnake) == nil || r.child("route", lowerSnake).child("retry_policy", lowerSnake) == nil) {
			inherited = true
		}
		if err := t.envoyRoute(r, name, rp, clusters); err != nil {
			return err
		}
	}
	if rp != nil && !inherited {
		t.leave(nil, rp, "every route of the virtual host sets its own retry_policy, which replaces this one")
	}
	t.leaveAll(nil, vh, "name", "routes", "retry_policy")
	return nil
}

// envoyRoute translates one Route into a policy; vhRetry is its virtual
// host's retry_policy, used when the route sets none.
func (t *translation) envoyRoute(r *node, prefix string, vhRetry *node, clusters map[string]*envoyCluster) error {
	if r.kind != mapNode {
		return bad(r, "must be a table of fields (a Route), got %s", describe(r))
	}
	t.anchor(r, "Route")
	name := ""
	if n := r.child("name", lowerSnake); n != nil {
		s, err := text(n)
		if err != nil {
			return err
		}
		name = s
		t.leave(nil, n, t.why(n))
	}
	if m := r.child("match", lowerSnake); m != nil {
		if name == "" {
			name = envoyMatchName(m)
		}
		t.leave(nil, m, t.why(m))
	}
	if name == "" {
		name = "route"
	}
	if prefix != "" {
		name = prefix + " " + name
	}
	action := r.child("route", lowerSnake)
	if action == nil {
		t.leaveAll(nil, r, "name", "match")
		return nil // a redirect or a direct response sends nothing upstream
	}
	if action.kind != mapNode {
		return bad(action, "must be a table of fields (a RouteAction), got %s", describe(action))
	}
	t.anchor(action, "RouteAction")
	p := t.policy(name, r)
	rp := action.child("retry_policy", lowerSnake)
	if rp == nil {
		rp = vhRetry
	}
	timeout := envoyRouteTimeout
	tn := action.child("timeout", lowerSnake)
	if tn != nil {
		d, err := protoDuration(tn)
		if err != nil {
			return err
		}
		timeout = d
		says := "the request's timeout, its retries included (Envoy's route timeout)"
		if d == 0 {
			says = "0 disables Envoy's route timeout: no deadline"
		}
		t.set(p, "deadline", d, says, at(tn))
	} else {
		t.set(p, "deadline", timeout, "unset: Envoy's route timeout is 15 s, its retries included", unsetIn(action, "timeout"))
	}
	if rp == nil {
		t.set(p, "layer.0.attempts", 1, "no retry_policy on the route or its virtual host: Envoy does not retry", unsetIn(action, "retry_policy"))
		t.set(p, "layer.0.timeout", timeout, "a try may take the whole route timeout", envoyTimeoutSrc(tn, action))
	} else if err := t.envoyRetry(p, rp, timeout, tn, action); err != nil {
		return err
	}
	if err := t.envoyClusterKeys(p, action, clusters); err != nil {
		return err
	}
	t.leaveAll(p, action, "cluster", "timeout", "retry_policy")
	t.leaveAll(p, r, "name", "match", "route")
	return nil
}

// envoyTimeoutSrc is where a try's timeout comes from when the retry
// policy sets none: the route's timeout.
func envoyTimeoutSrc(tn, action *node) src {
	if tn != nil {
		return at(tn)
	}
	return unsetIn(action, "timeout")
}

// envoyMatchName names a route by its match: "prefix /api".
func envoyMatchName(m *node) string {
	for _, k := range []string{"prefix", "path", "safe_regex", "path_separated_prefix", "path_match_policy"} {
		if c := m.child(k, lowerSnake); c != nil && c.kind == scalarNode {
			return k + " " + c.value
		}
	}
	return ""
}

// envoyRetry translates a RetryPolicy.
func (t *translation) envoyRetry(p *Policy, rp *node, timeout model.Duration, tn, action *node) error {
	if err := table(rp, "RetryPolicy", lowerSnake, envoyRetry); err != nil {
		return err
	}
	t.anchor(rp, "RetryPolicy")
	retries := int64(envoyNumRetries)
	if n := rp.child("num_retries", lowerSnake); n != nil {
		v, err := retryCount(n)
		if err != nil {
			return err
		}
		retries = v
		t.set(p, "layer.0.attempts", retries+1, retriesSays(retries), at(n))
	} else {
		t.set(p, "layer.0.attempts", retries+1, "num_retries unset: Envoy retries once", unsetIn(rp, "num_retries"))
	}
	if n := rp.child("per_try_timeout", lowerSnake); n != nil {
		d, err := protoDuration(n)
		if err != nil {
			return err
		}
		t.set(p, "layer.0.timeout", d, "each try's timeout; the route timeout still bounds the request", at(n))
	} else {
		t.set(p, "layer.0.timeout", timeout, "per_try_timeout unset: a try may take the whole route timeout", envoyTimeoutSrc(tn, action))
	}
	base, capped := envoyBaseInterval, model.Duration(0)
	baseSrc, capSrc := unsetIn(rp, "retry_back_off.base_interval"), unsetIn(rp, "retry_back_off.max_interval")
	if bo := rp.child("retry_back_off", lowerSnake); bo != nil {
		if err := table(bo, "retry_back_off", lowerSnake, envoyBackOff); err != nil {
			return err
		}
		bn := bo.child("base_interval", lowerSnake)
		if bn == nil {
			return bad(bo, "base_interval is required (Envoy's RetryBackOff)")
		}
		d, err := protoDuration(bn)
		if err != nil {
			return err
		}
		if d <= 0 {
			return bad(bn, "must be more than 0s (Envoy's RetryBackOff)")
		}
		base, baseSrc = d, at(bn)
		capSrc = unsetIn(bo, "max_interval")
		if mn := bo.child("max_interval", lowerSnake); mn != nil {
			d, err := protoDuration(mn)
			if err != nil {
				return err
			}
			if d < base {
				return bad(mn, "must be at least base_interval (%v) (Envoy's RetryBackOff), got %v", base, d)
			}
			capped, capSrc = d, at(mn)
		}
	}
	if capped == 0 {
		capped = base * envoyMaxIntervalX
	}
	t.set(p, "layer.0.backoff.kind", "exponential", "Envoy's back-off is exponential in the retry's number", at(rp))
	t.set(p, "layer.0.backoff.jitter", "full", "Envoy draws each wait uniformly from 0 to its bound (fully jittered)", at(rp))
	t.set(p, "layer.0.backoff.factor", 2.0, "Envoy's bound before retry N is (2^N − 1) × base_interval, stormlab's base × 2^(N−1): the same first wait, later bounds up to half of Envoy's", at(rp))
	t.set(p, "layer.0.backoff.base", base, "the first retry waits random(0, base_interval); 25 ms unset", baseSrc)
	t.set(p, "layer.0.backoff.cap", capped, "no wait beyond max_interval; 10 × base_interval unset", capSrc)
	if n := rp.child("retry_on", lowerSnake); n != nil {
		s, err := text(n)
		if err != nil {
			return err
		}
		t.leave(p, n, envoyRetryOnWhy(s, "Envoy"))
	} else {
		t.leaveUnset(p, rp, "retry_on", "unset, so Envoy retries nothing unless a request's x-envoy-retry-on header asks; the keys retry every failed try")
	}
	for i, k := range rp.keys {
		if c := lowerSnake(k); c != "num_retries" && c != "per_try_timeout" && c != "retry_back_off" && c != "retry_on" {
			t.leave(p, rp.items[i], t.why(rp.items[i]))
		}
	}
	return nil
}

// envoyRetryOnWhy says which of the failures stormlab models a retry_on
// (Envoy's or Istio's, comma-separated) covers.
func envoyRetryOnWhy(s, who string) string {
	var hit []string
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		if slices.Contains(envoyOverload, c) || c == "503" {
			hit = append(hit, c)
		}
	}
	if len(hit) > 0 {
		return fmt.Sprintf("%s retries on %s, which cover an overloaded or failed server (%s), the failure stormlab's dependency gives; stormlab retries every failed try and does not tell other failures apart", who, s, strings.Join(hit, ", "))
	}
	return fmt.Sprintf("%s retries only on %s, none of which covers an overloaded or failed server (5xx, gateway-error, reset, connect-failure, 503): the keys retry more than this policy does", who, s)
}
