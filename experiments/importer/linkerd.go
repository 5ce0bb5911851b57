package importer

import (
	"fmt"
	"time"

	"github.com/stormlab/stormlab/model"
)

// Linkerd: a ServiceProfile (linkerd.io), whose routes' retryability and
// timeouts and whose retry budget the client's Linkerd proxy applies. The
// semantics follow Linkerd's ServiceProfile reference and its "Configuring
// Retries" and "Configuring Timeouts" tasks; the budget is Finagle's
// RetryBudget, which Linkerd's proxy follows with the share written as a
// ratio.

func linkerdFormat() Format {
	return Format{
		Name:      "linkerd",
		Doc:       "a Linkerd ServiceProfile",
		Sources:   "Linkerd's ServiceProfile reference, its Retries and Timeouts page and its Configuring Retries and Configuring Timeouts tasks; Finagle's RetryBudget for the budget's semantics",
		Rules:     linkerdRules(),
		is:        func(root *node) bool { return isKube(root, "linkerd.io", "ServiceProfile") },
		canon:     same,
		translate: translateLinkerd,
	}
}

// Linkerd's defaults, from its ServiceProfile reference.
const (
	linkerdTimeout     = model.Duration(10 * time.Second)
	linkerdRetryRatio  = 0.2
	linkerdMinPerSec   = 10
	linkerdTTL         = model.Duration(10 * time.Second)
	linkerdMaxAttempts = 1000 // stormlab's largest attempts: Linkerd counts none
)

func linkerdRules() []Rule {
	return append(kubeRules(),
		Rule{"spec.routes", nil, "a policy per route"},
		Rule{"spec.routes[].name", nil, "names the policy"},
		Rule{"spec.routes[].condition", nil, "which requests the route takes: stormlab does not tell requests apart"},
		Rule{"spec.routes[].responseClasses", nil, "which answers count as failures: stormlab's dependency fails a call when it is overloaded or down"},
		Rule{"spec.routes[].isRetryable", []string{"layer.0.attempts", "layer.0.backoff.kind"}, "true: Linkerd retries a failed request at once, with no limit on the number of tries but the budget and the route's timeout (attempts = 1000, the key's top, so that the budget and the deadline bound the retries; backoff none); unset or false: no retries (attempts = 1). Linkerd does not retry a request whose body is over 64 KiB"},
		Rule{"spec.routes[].timeout", []string{"deadline", "layer.0.timeout"}, "the longest wait for an answer, retries included: the deadline; Linkerd has no per-try timeout, so a try may take all of it. 10 s when unset"},
		Rule{"spec.retryBudget", []string{"budget.kind", "budget.scope"}, "Finagle's RetryBudget as Linkerd's proxy keeps it, one per service in each client's proxy: stormlab's finagle budget, one per client. Unset: Linkerd's default, 20% with 10 retries a second over 10 s"},
		Rule{"spec.retryBudget.retryRatio", []string{"budget.percent_can_retry"}, "retries allowed per request, as a ratio (Finagle's percentCanRetry); 0.2 unset"},
		Rule{"spec.retryBudget.minRetriesPerSecond", []string{"budget.min_retries_per_sec"}, "retries allowed a second on top of the ratio; 10 unset"},
		Rule{"spec.retryBudget.ttl", []string{"budget.ttl"}, "how long a request's deposit counts; 10s unset"},
		Rule{"spec.dstOverrides", nil, "traffic split between backends: stormlab has one dependency"},
		Rule{"spec.opaquePorts", nil, "ports whose traffic Linkerd does not read: not modelled"},
	)
}

var linkerdBudget = []string{"retryRatio", "minRetriesPerSecond", "ttl"}

// linkerdBudgetKeys is a profile's retry budget, read once and set on
// each of its routes' policies.
type linkerdBudgetKeys struct {
	spec, n, ratio, perSec, ttl *node
	r, min                      float64
	d                           model.Duration
}

func translateLinkerd(t *translation, docs []*node) error {
	for _, d := range docs {
		name, spec, err := t.kubeEnvelope(d)
		if err != nil {
			return err
		}
		if name == "" {
			name = "ServiceProfile"
		}
		b, err := linkerdBudgetOf(spec)
		if err != nil {
			return err
		}
		t.leaveAll(nil, spec, "routes", "retryBudget")
		routes := spec.child("routes", same)
		if routes == nil {
			if b.n != nil {
				b.apply(t, t.policy(name+" retryBudget", b.n))
			}
			continue
		}
		if err := list(routes); err != nil {
			return err
		}
		for i, r := range routes.items {
			if err := t.linkerdRoute(name, i, r, b); err != nil {
				return err
			}
		}
	}
	return nil
}

func linkerdBudgetOf(spec *node) (linkerdBudgetKeys, error) {
	b := linkerdBudgetKeys{spec: spec, r: linkerdRetryRatio, min: linkerdMinPerSec, d: linkerdTTL}
	b.n = spec.child("retryBudget", same)
	if b.n == nil {
		return b, nil
	}
	if err := table(b.n, "retryBudget", same, linkerdBudget); err != nil {
		return b, err
	}
	if b.ratio = b.n.child("retryRatio", same); b.ratio != nil {
		v, err := number(b.ratio)
		if err != nil {
			return b, err
		}
		if v < 0 || v > 1000 {
			return b, bad(b.ratio, "must be a ratio from 0 to 1000 (stormlab's percent_can_retry), got %v", v)
		}
		b.r = v
	}
	if b.perSec = b.n.child("minRetriesPerSecond", same); b.perSec != nil {
		v, err := number(b.perSec)
		if err != nil {
			return b, err
		}
		if v < 0 || v > 1e6 {
			return b, bad(b.perSec, "must be a number from 0 to 1000000, got %v", v)
		}
		b.min = v
	}
	if b.ttl = b.n.child("ttl", same); b.ttl != nil {
		d, err := goDuration(b.ttl)
		if err != nil {
			return b, err
		}
		if d < model.Duration(time.Second) || d > model.Duration(time.Minute) {
			return b, bad(b.ttl, "must be from 1s to 1m (Finagle's RetryBudget), got %v", d)
		}
		b.d = d
	}
	return b, nil
}

// apply sets the budget's keys on p.
func (b linkerdBudgetKeys) apply(t *translation, p *Policy) {
	field := func(n *node, name string) src {
		if n != nil {
			return at(n)
		}
		if b.n != nil {
			return unsetIn(b.n, name)
		}
		return unsetIn(b.spec, "retryBudget."+name)
	}
	whole := unsetIn(b.spec, "retryBudget")
	says := "no retryBudget: Linkerd's default budget"
	if b.n != nil {
		whole, says = at(b.n), "Finagle's RetryBudget: each request deposits, each retry withdraws, deposits expire after ttl"
	}
	t.set(p, "budget.kind", "finagle", says, whole)
	t.set(p, "budget.scope", "client", "Linkerd keeps the budget per service in each client's proxy: one per client", whole)
	t.set(p, "budget.percent_can_retry", b.r, "retries per request, as a ratio", field(b.ratio, "retryRatio"))
	t.set(p, "budget.min_retries_per_sec", b.min, "retries a second allowed whatever the ratio", field(b.perSec, "minRetriesPerSecond"))
	t.set(p, "budget.ttl", b.d, "how long a deposit counts", field(b.ttl, "ttl"))
}

// linkerdRoute translates one route into a policy.
func (t *translation) linkerdRoute(profile string, i int, r *node, b linkerdBudgetKeys) error {
	if err := table(r, "a route", same, []string{"name", "condition", "responseClasses", "isRetryable", "timeout"}); err != nil {
		return err
	}
	name := fmt.Sprintf("%s routes[%d]", profile, i)
	nn := r.child("name", same)
	if nn != nil {
		s, err := text(nn)
		if err != nil {
			return err
		}
		name = profile + " " + s
	}
	p := t.policy(name, r)
	if nn != nil {
		t.leave(p, nn, t.why(nn))
	}
	retryable := false
	rn := r.child("isRetryable", same)
	if rn != nil {
		v, err := boolean(rn)
		if err != nil {
			return err
		}
		retryable = v
	}
	from := unsetIn(r, "isRetryable")
	if rn != nil {
		from = at(rn)
	}
	if retryable {
		t.set(p, "layer.0.attempts", linkerdMaxAttempts, "Linkerd counts no tries: it retries while the budget and the timeout allow; 1000 is the key's top, so the budget and the deadline bound the retries", from)
		t.set(p, "layer.0.backoff.kind", "none", "Linkerd retries a failed request at once", from)
	} else {
		t.set(p, "layer.0.attempts", 1, "the route is not retryable: Linkerd sends one try", from)
	}
	timeout, tsrc, says := linkerdTimeout, unsetIn(r, "timeout"), "unset: Linkerd's route timeout is 10 s"
	if tn := r.child("timeout", same); tn != nil {
		d, err := goDuration(tn)
		if err != nil {
			return err
		}
		timeout, tsrc, says = d, at(tn), "the longest wait for an answer, retries included"
	}
	t.set(p, "deadline", timeout, says, tsrc)
	t.set(p, "layer.0.timeout", timeout, "Linkerd has no per-try timeout: a try may take the whole timeout", tsrc)
	b.apply(t, p)
	t.leaveAll(p, r, "name", "isRetryable", "timeout")
	return nil
}
