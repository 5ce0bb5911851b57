package importer

import (
	"fmt"
	"strconv"

	"github.com/stormlab/stormlab/model"
)

// Istio: a VirtualService (networking.istio.io), whose HTTP routes' retries
// and timeouts Istio hands to the client's Envoy sidecar. The semantics
// follow Istio's VirtualService reference (HTTPRoute, HTTPRetry) and, for
// what Istio leaves to Envoy, Envoy's router documentation.

func istioFormat() Format {
	return Format{
		Name:      "istio",
		Doc:       "an Istio VirtualService",
		Sources:   "Istio's VirtualService reference (HTTPRoute.timeout, HTTPRetry) and DestinationRule reference (connectionPool.http.maxRetries); Envoy's router documentation for the back-off Istio leaves to it",
		Rules:     istioRules(),
		is:        func(root *node) bool { return isKube(root, "networking.istio.io", "VirtualService") },
		canon:     same,
		translate: translateIstio,
	}
}

// Istio's defaults: the retry policy it gives a route without retries.
const (
	istioDefaultRetries = 2
	istioDefaultRetryOn = "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes"
)

func istioRules() []Rule {
	return append(kubeRules(),
		Rule{"spec.hosts", nil, "the hosts the routes apply to: stormlab has one dependency"},
		Rule{"spec.gateways", nil, "where the routes apply (sidecars or gateways): stormlab's callers are the sidecars' clients"},
		Rule{"spec.exportTo", nil, "namespaces that see the service: not modelled"},
		Rule{"spec.tcp", nil, "TCP routes have no retries: not modelled"},
		Rule{"spec.tls", nil, "TLS routes have no retries: not modelled"},
		Rule{"spec.http", nil, "a policy per HTTP route"},
		Rule{"spec.http[]", nil, "an HTTP route: a policy"},
		Rule{"spec.http[].name", nil, "names the policy"},
		Rule{"spec.http[].match", nil, "which requests the route takes: stormlab does not tell requests apart"},
		Rule{"spec.http[].timeout", []string{"deadline", "layer.0.timeout"}, "the request's timeout, its retries included (Envoy's route timeout); unset, Istio disables it: no deadline"},
		Rule{"spec.http[].retries", []string{"layer.0.attempts", "layer.0.backoff.kind", "layer.0.backoff.jitter", "layer.0.backoff.factor", "layer.0.backoff.base", "layer.0.backoff.cap", "budget.kind"}, "Envoy's back-off: fully jittered exponential from base_interval (25 ms unless retries.backoff sets it), at most 10 times that (see the Envoy rows for how it differs from stormlab's). Unset: Istio's default policy, 2 retries on connect-failure, refused-stream, unavailable, cancelled and 503 (attempts = 3). Istio sets Envoy's max_retries from a DestinationRule's connectionPool.http.maxRetries, 2^32 − 1 unless set: no retry budget (budget.kind = \"none\")"},
		Rule{"spec.http[].retries.attempts", []string{"layer.0.attempts"}, "retries, not tries: attempts = retries.attempts + 1; 0 or unset disables retries"},
		Rule{"spec.http[].retries.perTryTimeout", []string{"layer.0.timeout"}, "each try's timeout; unset, a try may take the route's timeout (none when that is unset: waits forever, 0)"},
		Rule{"spec.http[].retries.retryOn", nil, "which failures are retried (Envoy's retry_on and gRPC conditions, or status codes): stormlab retries every failed try; the import says whether the conditions cover an overloaded or failed server"},
		Rule{"spec.http[].retries.retryRemoteLocalities", nil, "whether retries go to other localities: stormlab has one dependency"},
		Rule{"spec.http[].retries.retryIgnorePreviousHosts", nil, "whether a retry avoids the hosts tried: stormlab has one dependency"},
		Rule{"spec.http[].retries.backoff", []string{"layer.0.backoff.base", "layer.0.backoff.cap"}, "Istio hands it to Envoy as retry_back_off.base_interval, so max_interval is 10 times it; unset, Envoy's 25 ms"},
		Rule{"spec.http[].*", nil, "routing, rewriting, fault injection, mirroring, CORS and headers are not modelled"},
	)
}

var istioRetry = []string{"attempts", "perTryTimeout", "retryOn", "retryRemoteLocalities", "retryIgnorePreviousHosts", "backoff"}

func translateIstio(t *translation, docs []*node) error {
	for _, d := range docs {
		name, spec, err := t.kubeEnvelope(d)
		if err != nil {
			return err
		}
		if name == "" {
			name = "VirtualService"
		}
		t.leaveAll(nil, spec, "http")
		routes := spec.child("http", same)
		if routes == nil {
			continue
		}
		if err := list(routes); err != nil {
			return err
		}
		for i, r := range routes.items {
			if err := t.istioRoute(name, i, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// istioRoute translates one HTTP route into a policy.
func (t *translation) istioRoute(vs string, i int, r *node) error {
	if r.kind != mapNode {
		return bad(r, "must be a table of fields (an HTTPRoute), got %s", describe(r))
	}
	name := vs + " http[" + strconv.Itoa(i) + "]"
	nn := r.child("name", same)
	if nn != nil {
		s, err := text(nn)
		if err != nil {
			return err
		}
		name = vs + " " + s
	}
	p := t.policy(name, r)
	if nn != nil {
		t.leave(p, nn, t.why(nn))
	}
	var deadline model.Duration
	tn := r.child("timeout", same)
	if tn != nil {
		d, err := goDuration(tn)
		if err != nil {
			return err
		}
		deadline = d
		t.set(p, "deadline", d, "the request's timeout, its retries included", at(tn))
	} else {
		t.set(p, "deadline", model.Duration(0), "unset: Istio disables the route timeout, so no deadline", unsetIn(r, "timeout"))
	}
	rt := r.child("retries", same)
	retries, perTry := int64(istioDefaultRetries), deadline
	retryOn := istioDefaultRetryOn
	var perTrySrc src
	if tn != nil {
		perTrySrc = at(tn)
	} else {
		perTrySrc = unsetIn(r, "timeout")
	}
	if rt == nil {
		t.set(p, "layer.0.attempts", retries+1, fmt.Sprintf("no retries: Istio's default policy, %d retries", retries), unsetIn(r, "retries"))
		t.leaveUnset(p, r, "retries.retryOn", envoyRetryOnWhy(retryOn+",503", "Istio's default policy"))
	} else {
		if err := table(rt, "retries (an HTTPRetry)", same, istioRetry); err != nil {
			return err
		}
		retries = 0
		an := rt.child("attempts", same)
		if an != nil {
			v, err := retryCount(an)
			if err != nil {
				return err
			}
			retries = v
			says := "attempts counts retries: " + retriesSays(v)
			if v == 0 {
				says = "0 disables Istio's retries: one try"
			}
			t.set(p, "layer.0.attempts", v+1, says, at(an))
		} else {
			t.set(p, "layer.0.attempts", 1, "attempts unset (0): Istio sends no retries", unsetIn(rt, "attempts"))
		}
		if pn := rt.child("perTryTimeout", same); pn != nil {
			d, err := goDuration(pn)
			if err != nil {
				return err
			}
			if d < model.Duration(1e6) {
				return bad(pn, "must be at least 1ms (Istio's HTTPRetry), got %v", d)
			}
			perTry, perTrySrc = d, at(pn)
		}
		if on := rt.child("retryOn", same); on != nil {
			s, err := text(on)
			if err != nil {
				return err
			}
			t.leave(p, on, envoyRetryOnWhy(s, "Istio"))
		} else if retries > 0 {
			t.leaveUnset(p, rt, "retryOn", envoyRetryOnWhy(istioDefaultRetryOn+",503", "Istio's default retryOn"))
		}
		t.leaveAll(p, rt, "attempts", "perTryTimeout", "retryOn", "backoff")
	}
	says := "perTryTimeout unset: a try may take the route's timeout"
	if perTry == 0 {
		says = "neither perTryTimeout nor timeout is set: a try waits for its answer (0 = waits forever)"
	} else if perTrySrc.unset == "" && perTrySrc.n != tn {
		says = "each try's timeout; the route's timeout still bounds the request"
	}
	t.set(p, "layer.0.timeout", perTry, says, perTrySrc)
	if retries > 0 {
		from := unsetIn(r, "retries")
		if rt != nil {
			from = at(rt)
		}
		t.set(p, "layer.0.backoff.kind", "exponential", "Envoy's back-off, exponential in the retry's number", from)
		t.set(p, "layer.0.backoff.jitter", "full", "Envoy draws each wait uniformly from 0 to its bound", from)
		t.set(p, "layer.0.backoff.factor", 2.0, "Envoy's bound before retry N is (2^N − 1) × base_interval, stormlab's base × 2^(N−1): the same first wait, later bounds up to half of Envoy's", from)
		base, baseSays, baseSrc := envoyBaseInterval, "retries.backoff unset: Envoy's default base_interval", from
		if rt != nil {
			if bn := rt.child("backoff", same); bn != nil {
				d, err := goDuration(bn)
				if err != nil {
					return err
				}
				if d <= 0 {
					return bad(bn, "must be more than 0s (Envoy's base_interval)")
				}
				base, baseSays, baseSrc = d, "Istio hands it to Envoy as base_interval: the first retry waits random(0, backoff)", at(bn)
			}
		}
		t.set(p, "layer.0.backoff.base", base, baseSays, baseSrc)
		t.set(p, "layer.0.backoff.cap", base*envoyMaxIntervalX, "Envoy's max_interval, 10 × base_interval, as Istio sets none", baseSrc)
	}
	t.set(p, "budget.kind", "none", "Istio sets Envoy's max_retries from a DestinationRule's connectionPool.http.maxRetries, 2^32 − 1 unless set: no limit", unsetIn(r, "retries"))
	t.leaveAll(p, r, "name", "timeout", "retries")
	return nil
}
