package importer

import (
	"strings"
	"time"

	"github.com/stormlab/stormlab/model"
)

// AWS: the shared config file of the AWS SDKs and the AWS CLI (~/.aws/config),
// an INI file of profiles, of which retry_mode and max_attempts set the
// retries. The semantics follow the AWS SDKs and Tools Reference Guide
// ("Retry behavior", as revised in 2026): the standard mode's attempts, its
// exponential backoff with full jitter and its retry quota.

func awsFormat() Format {
	return Format{
		Name:      "aws",
		Doc:       "an AWS shared config file",
		Sources:   "the AWS SDKs and Tools Reference Guide, \"Retry behavior\" (retry_mode, max_attempts, the standard mode's backoff and retry quota, as revised in 2026) and \"Shared config and credentials files\" (profiles), and the AWS Developer Tools Blog's \"Announcing updated retry behavior for AWS SDKs and Tools\"",
		Rules:     awsRules(),
		is:        nil, // told by its INI form
		canon:     same,
		translate: translateAWS,
	}
}

// The standard retry mode's constants (AWS SDKs and Tools Reference Guide,
// "Retry behavior", as revised in 2026 and the default since November
// 2026), for errors other than throttling: an overloaded or failed server's
// 5xx answers and timeouts.
const (
	awsStandardAttempts = 3
	awsRetryCost        = 14                                    // tokens a retry takes, after a timeout too
	awsBackoffBase      = model.Duration(50 * time.Millisecond) // the wait's bound before retry i is 2^(i−1) × 50 ms ...
	awsMaxBackoff       = model.Duration(20 * time.Second)      // ... at most 20 s
)

// awsSays is how the standard mode's quota and backoff map, and what an
// SDK released before the 2026 revision does instead.
const awsSays = "stormlab's aws budget: a quota of 500 tokens per client, a retry takes 14 (after a timeout too), a first-try success adds 1, a successful retry gives back its cost; waits of random(0, min(2^(i−1) × 50 ms, 20 s)) before retry i. These are the values of the 2026 revision, the default since November 2026; an older SDK (or AWS_NEW_RETRIES_2026=false) takes 5 tokens a retry, 10 after a timeout, and waits from 1 s. Against throttling errors (429, ThrottlingException) the revision takes 5 tokens and waits from 1 s: set budget.retry_cost and layer.0.backoff.base to those if the dependency throttles"

func awsRules() []Rule {
	return []Rule{
		{"[default]", nil, "the default profile: a policy when it sets retry_mode or max_attempts"},
		{"[profile]", nil, "a named profile: a policy when it sets retry_mode or max_attempts"},
		{"[profile].retry_mode", []string{"budget.kind", "budget.scope", "budget.retry_cost", "budget.timeout_cost", "layer.0.backoff.kind", "layer.0.backoff.jitter", "layer.0.backoff.base", "layer.0.backoff.factor", "layer.0.backoff.cap"}, "standard: " + awsSays + ". adaptive: the same, plus a client-side rate limiter that slows every request after throttling errors, which is not modelled. legacy: specific to each SDK (its backoff, its quota if any): not mapped but for max_attempts. Unset: standard, the default of every SDK since the 2026 revision"},
		{"[profile].max_attempts", []string{"layer.0.attempts"}, "tries per call, the first included; 3 unset in standard and adaptive mode"},
		{"[profile].*", nil, "not a retry setting (region, credentials, endpoints, output): not modelled; values are not repeated, since the file may hold secrets"},
		{"[sso-session]", nil, "single sign-on settings: not modelled"},
		{"[services]", nil, "endpoint settings per service: not modelled"},
		{"[*]", nil, "a section that is not a profile: not modelled"},
	}
}

// awsSection tells what a section of the file is: its row in the rules and
// the name of the policy it makes.
func awsSection(name string) (pattern, policy string) {
	inner := strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	switch {
	case inner == "default":
		return "[default]", "profile default"
	case strings.HasPrefix(inner, "profile "):
		return "[profile]", "profile " + strings.TrimSpace(strings.TrimPrefix(inner, "profile "))
	case strings.HasPrefix(inner, "sso-session "):
		return "[sso-session]", ""
	case strings.HasPrefix(inner, "services "):
		return "[services]", ""
	}
	return "[*]", ""
}

func translateAWS(t *translation, docs []*node) error {
	for _, root := range docs {
		for _, sec := range root.items {
			pattern, name := awsSection(sec.name)
			t.anchor(sec, pattern)
			if pattern == "[default]" {
				t.anchor(sec, "[profile]") // its keys are a profile's
			}
			if name == "" {
				t.leave(nil, sec, t.format.ruleSays(pattern))
				continue
			}
			if err := t.awsProfile(sec, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// ruleSays is the Says of the row named pattern.
func (f Format) ruleSays(pattern string) string {
	if r, ok := f.rule(pattern); ok {
		return r.Says
	}
	return unread
}

// awsProfile translates a profile that sets retry_mode or max_attempts.
func (t *translation) awsProfile(sec *node, name string) error {
	mode, attempts := sec.child("retry_mode", same), sec.child("max_attempts", same)
	if mode == nil && attempts == nil {
		if len(sec.items) == 0 {
			t.leave(nil, sec, "an empty profile")
		}
		for _, n := range sec.items {
			t.leave(nil, n, "the profile sets neither retry_mode nor max_attempts: "+t.why(n))
		}
		return nil
	}
	m := "standard"
	if mode != nil {
		switch mode.value {
		case "standard", "adaptive", "legacy":
			m = mode.value
		default:
			return bad(mode, "must be standard, adaptive or legacy, got %q", mode.value)
		}
	}
	p := t.policy(name, sec)
	n := int64(awsStandardAttempts)
	if attempts != nil {
		v, err := whole(attempts, 1, 1000, "")
		if err != nil {
			return err
		}
		n = v
		t.set(p, "layer.0.attempts", n, retriesSays(n-1), at(attempts))
	} else if m != "legacy" {
		t.set(p, "layer.0.attempts", n, "max_attempts unset: the "+m+" mode's 3", unsetIn(sec, "max_attempts"))
	} else {
		t.leaveUnset(p, sec, "max_attempts", "unset: the legacy mode's attempts are specific to each SDK; the keys leave attempts as the experiment has them")
	}
	modeSrc := unsetIn(sec, "retry_mode")
	if mode != nil {
		modeSrc = at(mode)
	}
	if m == "legacy" {
		t.set(p, "budget.kind", "none", "legacy mode: some SDKs keep a retry quota of their own, most none; none is assumed, and the SDK's own backoff is not mapped", modeSrc)
		t.leaveAll(p, sec, "retry_mode", "max_attempts")
		return nil
	}
	says := "the " + m + " mode's retry quota, one per SDK client"
	if mode == nil {
		says = "retry_mode unset: standard, every SDK's default since the 2026 revision; " + says
	}
	if m == "adaptive" {
		says += "; adaptive mode's client-side rate limiter, which slows every request after throttling errors, is not modelled"
	}
	t.set(p, "budget.kind", "aws", says+": "+awsSays, modeSrc)
	t.set(p, "budget.scope", "client", "the quota is kept per SDK client", modeSrc)
	t.set(p, "budget.retry_cost", awsRetryCost, "tokens a retry after an error takes (5 before the 2026 revision)", modeSrc)
	t.set(p, "budget.timeout_cost", awsRetryCost, "a timeout costs as any other error since the 2026 revision (10 before it)", modeSrc)
	t.set(p, "layer.0.backoff.kind", "exponential", "the wait's bound doubles with each retry", modeSrc)
	t.set(p, "layer.0.backoff.jitter", "full", "the wait is drawn uniformly from 0 to its bound", modeSrc)
	t.set(p, "layer.0.backoff.base", awsBackoffBase, "the first retry waits random(0, 50 ms) (1 s before the 2026 revision, and against throttling errors)", modeSrc)
	t.set(p, "layer.0.backoff.factor", 2.0, "the bound doubles per retry", modeSrc)
	t.set(p, "layer.0.backoff.cap", awsMaxBackoff, "no bound beyond 20 s, applied before the jitter is drawn", modeSrc)
	t.leaveAll(p, sec, "retry_mode", "max_attempts")
	return nil
}
