package importer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// gRPC service config: the JSON a gRPC client takes from its resolver or
// its channel options. The semantics follow gRFC A6 (client retries) and
// grpc/service_config.proto.

func grpcFormat() Format {
	return Format{
		Name:      "grpc",
		Doc:       "a gRPC service config",
		Sources:   "gRFC A6 \"gRPC Retry Design\" and grpc/service_config/service_config.proto (grpc-proto)",
		Rules:     grpcRules(),
		is:        isGRPC,
		canon:     lowerCamel,
		translate: translateGRPC,
	}
}

// grpcMaxAttempts is gRPC's client-side cap on maxAttempts (gRFC A6).
const grpcMaxAttempts = 5

func grpcRules() []Rule {
	return []Rule{
		{"methodConfig[].name", nil, "the methods the entry applies to; they name the policy (an entry without names is skipped by gRPC, and here)"},
		{"methodConfig[]", []string{"layer.0.attempts"}, "an entry with neither retryPolicy nor hedgingPolicy: gRPC makes one attempt (attempts = 1); its transparent retries of calls that never reached the server are not modelled"},
		{"methodConfig[].timeout", []string{"deadline", "layer.0.timeout"}, "the call's deadline, its retries included (gRFC A6: the deadline applies across all attempts); gRPC has no per-try timeout, so a try waits until the deadline (layer timeout = deadline). Unset: no deadline unless the application sets one per call, so a try waits for its answer (timeout 0)"},
		{"methodConfig[].retryPolicy", []string{"layer.0.backoff.kind", "layer.0.backoff.jitter"}, "gRPC waits random(0, min(initialBackoff × backoffMultiplier^(n−1), maxBackoff)) before the n-th retry: an exponential backoff with full jitter"},
		{"methodConfig[].retryPolicy.maxAttempts", []string{"layer.0.attempts"}, "tries per call, the first included; gRPC takes a value above 5 as 5 (gRFC A6, the client's default cap)"},
		{"methodConfig[].retryPolicy.initialBackoff", []string{"layer.0.backoff.base"}, "the first retry's wait is random(0, initialBackoff)"},
		{"methodConfig[].retryPolicy.maxBackoff", []string{"layer.0.backoff.cap"}, "the longest wait, before the jitter is drawn"},
		{"methodConfig[].retryPolicy.backoffMultiplier", []string{"layer.0.backoff.factor"}, "growth of the wait per retry"},
		{"methodConfig[].retryPolicy.retryableStatusCodes", nil, "which answers are retried: stormlab retries every failed try; the import says whether the codes include the answer of an overloaded or failed server (UNAVAILABLE, RESOURCE_EXHAUSTED)"},
		{"methodConfig[].hedgingPolicy", []string{"layer.0.attempts"}, "a hedged call is never retried (gRFC A6): attempts = 1"},
		{"methodConfig[].hedgingPolicy.maxAttempts", []string{"layer.0.hedge.max_share"}, "gRPC sends up to maxAttempts − 1 hedges, one each hedgingDelay, with no cap on their share (max_share = 1); stormlab sends one hedge per call, so above 2 the keys hedge less than gRPC. Hedges pass gRPC's throttle while more than maxTokens / 2 tokens remain, as stormlab's grpc budget lets them"},
		{"methodConfig[].hedgingPolicy.hedgingDelay", []string{"layer.0.hedge.delay"}, "the wait before a hedge (stormlab hedges at the bottom layer of the chain); 0 or unset sends every copy at once, which stormlab does not model"},
		{"methodConfig[].hedgingPolicy.nonFatalStatusCodes", nil, "after a non-fatal error gRPC sends the next hedge at once; stormlab's hedge waits for its delay"},
		{"methodConfig[].waitForReady", nil, "whether a call waits for a connection: stormlab's calls always reach the dependency"},
		{"methodConfig[].maxRequestMessageBytes", nil, "message sizes are not modelled"},
		{"methodConfig[].maxResponseMessageBytes", nil, "message sizes are not modelled"},
		{"retryThrottling", []string{"budget.kind", "budget.scope"}, "gRPC's retry throttle, one per server name in each client channel: stormlab's grpc budget (gRFC A6: a failed try takes a token, a success adds tokenRatio, retries and hedges pass while more than maxTokens / 2 remain), one per client (scope = \"client\"). Unset: gRPC does not throttle (budget.kind = \"none\")"},
		{"retryThrottling.maxTokens", []string{"budget.max_tokens"}, "tokens the throttle starts with and holds at most"},
		{"retryThrottling.tokenRatio", []string{"budget.token_ratio"}, "tokens a success adds (gRPC keeps three decimals)"},
		{"loadBalancingConfig", nil, "how a call picks a backend: stormlab has one dependency"},
		{"loadBalancingPolicy", nil, "how a call picks a backend: stormlab has one dependency"},
		{"healthCheckConfig", nil, "client-side health checks of backends: stormlab has one dependency"},
		{"connectionScaling", nil, "connections per backend are not modelled"},
	}
}

var (
	grpcTop      = []string{"loadBalancingPolicy", "loadBalancingConfig", "methodConfig", "retryThrottling", "healthCheckConfig", "connectionScaling"}
	grpcMethod   = []string{"name", "waitForReady", "timeout", "maxRequestMessageBytes", "maxResponseMessageBytes", "retryPolicy", "hedgingPolicy"}
	grpcName     = []string{"service", "method"}
	grpcRetry    = []string{"maxAttempts", "initialBackoff", "maxBackoff", "backoffMultiplier", "retryableStatusCodes"}
	grpcHedge    = []string{"maxAttempts", "hedgingDelay", "nonFatalStatusCodes"}
	grpcThrottle = []string{"maxTokens", "tokenRatio"}
	// grpcCodes are gRPC's status codes, numbered from 0.
	grpcCodes = []string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
		"PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
		"INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}
)

// isGRPC tells a service config by its top-level fields.
func isGRPC(root *node) bool {
	if root.kind != mapNode {
		return false
	}
	for _, k := range root.keys {
		if slices.Contains(grpcTop, lowerCamel(k)) {
			return true
		}
	}
	return false
}

// lowerCamel spells a proto field name as proto JSON does: max_attempts is
// maxAttempts; a name already in camelCase stays.
func lowerCamel(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	var b strings.Builder
	up := false
	for _, r := range s {
		switch {
		case r == '_':
			up = true
		case up:
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func translateGRPC(t *translation, docs []*node) error {
	for _, root := range docs {
		if err := t.grpcConfig(root); err != nil {
			return err
		}
	}
	return nil
}

// grpcConfig translates one service config: a policy per method config,
// each with the channel's throttle.
func (t *translation) grpcConfig(root *node) error {
	if err := table(root, "a service config", lowerCamel, grpcTop); err != nil {
		return err
	}
	throttle, err := t.grpcThrottle(root)
	if err != nil {
		return err
	}
	t.leaveAll(nil, root, "methodConfig", "retryThrottling")
	mcs := root.child("methodConfig", lowerCamel)
	if mcs == nil {
		if throttle.n != nil {
			p := t.policy("retryThrottling", root)
			throttle.apply(t, p)
		}
		return nil
	}
	if err := list(mcs); err != nil {
		return err
	}
	for _, mc := range mcs.items {
		if err := t.grpcMethod(mc, throttle); err != nil {
			return err
		}
	}
	return nil
}

// grpcThrottleKeys is a channel's retryThrottling, read once and set on
// each of its method configs' policies.
type grpcThrottleKeys struct {
	n, maxTokens, ratio *node
	max, r              float64
	root                *node
}

func (t *translation) grpcThrottle(root *node) (grpcThrottleKeys, error) {
	th := grpcThrottleKeys{root: root, n: root.child("retryThrottling", lowerCamel)}
	if th.n == nil {
		return th, nil
	}
	if err := table(th.n, "retryThrottling", lowerCamel, grpcThrottle); err != nil {
		return th, err
	}
	th.maxTokens, th.ratio = th.n.child("maxTokens", lowerCamel), th.n.child("tokenRatio", lowerCamel)
	for _, f := range []struct {
		n    *node
		name string
		v    *float64
	}{{th.maxTokens, "maxTokens", &th.max}, {th.ratio, "tokenRatio", &th.r}} {
		if f.n == nil {
			return th, bad(th.n, "%s is required (gRFC A6), a number above 0", f.name)
		}
		v, err := number(f.n)
		if err != nil {
			return th, err
		}
		switch {
		case v <= 0:
			return th, bad(f.n, "must be above 0 (gRFC A6), got %v", v)
		case f.name == "maxTokens" && v > 1000:
			return th, bad(f.n, "must be at most 1000 (gRFC A6), got %v", v)
		case f.name == "tokenRatio" && v < 0.001:
			return th, bad(f.n, "must be at least 0.001: gRPC keeps three decimals of it (gRFC A6), got %v", v)
		}
		*f.v = v
	}
	return th, nil
}

// apply sets the throttle's keys, or no budget when there is none.
func (th grpcThrottleKeys) apply(t *translation, p *Policy) {
	if th.n == nil {
		t.set(p, "budget.kind", "none", "no retryThrottling: gRPC does not throttle retries", unsetIn(th.root, "retryThrottling"))
		return
	}
	t.set(p, "budget.kind", "grpc", "gRPC's retry throttle (gRFC A6): a failed try takes a token, a success adds tokenRatio; retries and hedges pass while more than maxTokens / 2 tokens remain", at(th.n))
	t.set(p, "budget.max_tokens", th.max, "the tokens it starts with and holds at most", at(th.maxTokens))
	says := "the tokens a success adds"
	if s := strconv.FormatFloat(th.r, 'f', -1, 64); strings.Contains(s, ".") && len(s)-strings.Index(s, ".")-1 > 3 {
		says += "; gRPC keeps three decimals of it"
	}
	t.set(p, "budget.token_ratio", th.r, says, at(th.ratio))
	t.set(p, "budget.scope", "client", "gRPC keeps a throttle per server name in each client channel: one per client (with clients = N, each of the N callers has its own)", at(th.n))
}

// grpcMethod translates one method config into a policy.
func (t *translation) grpcMethod(mc *node, th grpcThrottleKeys) error {
	if err := table(mc, "a methodConfig entry", lowerCamel, grpcMethod); err != nil {
		return err
	}
	name, err := t.grpcNames(mc)
	if err != nil {
		return err
	}
	if name == "" {
		for i := range mc.items {
			t.leave(nil, mc.items[i], "a methodConfig entry without names applies to no method: gRPC skips it")
		}
		return nil
	}
	retry, hedge := mc.child("retryPolicy", lowerCamel), mc.child("hedgingPolicy", lowerCamel)
	if retry != nil && hedge != nil {
		return bad(hedge, "a methodConfig sets retryPolicy or hedgingPolicy, not both (gRFC A6)")
	}
	p := t.policy(name, mc)
	t.leave(p, mc.child("name", lowerCamel), t.why(mc.child("name", lowerCamel)))
	switch {
	case retry != nil:
		err = t.grpcRetry(p, retry)
	case hedge != nil:
		err = t.grpcHedge(p, hedge)
	default:
		t.set(p, "layer.0.attempts", 1, "neither retryPolicy nor hedgingPolicy: gRPC makes one attempt", at(mc))
	}
	if err != nil {
		return err
	}
	if err := t.grpcTimeout(p, mc); err != nil {
		return err
	}
	th.apply(t, p)
	t.leaveAll(p, mc, "name", "timeout", "retryPolicy", "hedgingPolicy")
	return nil
}

// grpcNames names a method config's policy by its methods: "pkg.Service/Method",
// "pkg.Service" for all its methods, "every method" for the default entry;
// "" when it has none.
func (t *translation) grpcNames(mc *node) (string, error) {
	names := mc.child("name", lowerCamel)
	if names == nil {
		return "", nil
	}
	if err := list(names); err != nil {
		return "", err
	}
	var parts []string
	for _, nm := range names.items {
		if err := table(nm, "a method name", lowerCamel, grpcName); err != nil {
			return "", err
		}
		var service, method string
		for _, f := range []struct {
			key string
			v   *string
		}{{"service", &service}, {"method", &method}} {
			if c := nm.child(f.key, lowerCamel); c != nil && c.tag != "!!null" {
				s, err := text(c)
				if err != nil {
					return "", err
				}
				*f.v = s
			}
		}
		switch {
		case service == "" && method != "":
			return "", bad(nm, "a name with a method names its service too (service_config.proto)")
		case service == "":
			parts = append(parts, "every method")
		case method == "":
			parts = append(parts, service)
		default:
			parts = append(parts, service+"/"+method)
		}
	}
	return strings.Join(parts, ", "), nil
}

// grpcRetry translates a retryPolicy.
func (t *translation) grpcRetry(p *Policy, rp *node) error {
	if err := table(rp, "retryPolicy", lowerCamel, grpcRetry); err != nil {
		return err
	}
	for _, f := range grpcRetry {
		if rp.child(f, lowerCamel) == nil {
			return bad(rp, "%s is required (gRFC A6)", f)
		}
	}
	ma := rp.child("maxAttempts", lowerCamel)
	attempts, err := integer(ma)
	if err != nil {
		return err
	}
	if attempts < 2 {
		return bad(ma, "must be 2 or more (gRFC A6; gRPC takes a value above 5 as 5), got %d", attempts)
	}
	says := fmt.Sprintf("tries per call, the first included: one try and up to %d retries", min(attempts, grpcMaxAttempts)-1)
	if attempts > grpcMaxAttempts {
		says = fmt.Sprintf("gRPC takes maxAttempts above %d as %d (gRFC A6, the client's default cap): one try and up to %d retries", grpcMaxAttempts, grpcMaxAttempts, grpcMaxAttempts-1)
	}
	t.set(p, "layer.0.attempts", min(attempts, grpcMaxAttempts), says, at(ma))
	t.set(p, "layer.0.backoff.kind", "exponential", "gRPC's backoff grows by backoffMultiplier per retry up to maxBackoff", at(rp))
	t.set(p, "layer.0.backoff.jitter", "full", "gRPC waits random(0, min(initialBackoff × backoffMultiplier^(n−1), maxBackoff)) before the n-th retry (gRFC A6): full jitter", at(rp))
	for _, f := range []struct{ field, key, says string }{
		{"initialBackoff", "layer.0.backoff.base", "the first retry waits random(0, initialBackoff)"},
		{"maxBackoff", "layer.0.backoff.cap", "the longest wait, before the jitter is drawn"},
	} {
		n := rp.child(f.field, lowerCamel)
		d, err := protoDuration(n)
		if err != nil {
			return err
		}
		if d <= 0 {
			return bad(n, "must be more than 0s (gRFC A6)")
		}
		t.set(p, f.key, d, f.says, at(n))
	}
	bm := rp.child("backoffMultiplier", lowerCamel)
	factor, err := number(bm)
	if err != nil {
		return err
	}
	if factor <= 0 {
		return bad(bm, "must be above 0 (gRFC A6), got %v", factor)
	}
	t.set(p, "layer.0.backoff.factor", factor, "the wait's growth per retry", at(bm))
	codes, err := grpcCodeList(rp.child("retryableStatusCodes", lowerCamel), true)
	if err != nil {
		return err
	}
	t.leave(p, rp.child("retryableStatusCodes", lowerCamel), grpcCodesWhy(codes, "retries"))
	return nil
}

// grpcCodeList reads a list of status codes, names or numbers.
func grpcCodeList(n *node, required bool) ([]string, error) {
	if err := list(n); err != nil {
		return nil, err
	}
	if required && len(n.items) == 0 {
		return nil, bad(n, "must list at least one status code (gRFC A6)")
	}
	var out []string
	for _, c := range n.items {
		if c.kind == scalarNode && c.tag == "!!int" {
			if i, err := strconv.Atoi(c.value); err == nil && i >= 0 && i < len(grpcCodes) {
				out = append(out, grpcCodes[i])
				continue
			}
		}
		if c.kind == scalarNode && c.tag == "!!str" && slices.Contains(grpcCodes, c.value) {
			out = append(out, c.value)
			continue
		}
		return nil, bad(c, "must be a gRPC status code, a name (%s) or its number from 0 to 16, got %s", strings.Join(grpcCodes, ", "), describe(c))
	}
	return out, nil
}

// grpcCodesWhy says which of the failures stormlab models the codes let
// gRPC retry (or, for hedging, go on).
func grpcCodesWhy(codes []string, verb string) string {
	var overload []string
	for _, c := range codes {
		if c == "UNAVAILABLE" || c == "RESOURCE_EXHAUSTED" {
			overload = append(overload, c)
		}
	}
	list := strings.Join(codes, ", ")
	if len(overload) > 0 {
		return fmt.Sprintf("gRPC %s on %s, which include the answer of an overloaded or failed server (%s), the failure stormlab's dependency gives; stormlab retries every failed try, so answers with the other codes are not told apart", verb, list, strings.Join(overload, ", "))
	}
	return fmt.Sprintf("gRPC %s only on %s, none of them the answer of an overloaded or failed server (UNAVAILABLE, RESOURCE_EXHAUSTED), the failure stormlab's dependency gives; stormlab retries every failed try, so the keys retry more than this policy does", verb, list)
}

// grpcHedge translates a hedgingPolicy.
func (t *translation) grpcHedge(p *Policy, hp *node) error {
	if err := table(hp, "hedgingPolicy", lowerCamel, grpcHedge); err != nil {
		return err
	}
	ma := hp.child("maxAttempts", lowerCamel)
	if ma == nil {
		return bad(hp, "maxAttempts is required (gRFC A6)")
	}
	attempts, err := integer(ma)
	if err != nil {
		return err
	}
	if attempts < 2 {
		return bad(ma, "must be 2 or more (gRFC A6; gRPC takes a value above 5 as 5), got %d", attempts)
	}
	t.set(p, "layer.0.attempts", 1, "a hedged call is never retried: when every copy fails, the call fails (gRFC A6)", at(hp))
	var delay model.Duration
	hd := hp.child("hedgingDelay", lowerCamel)
	if hd != nil {
		if delay, err = protoDuration(hd); err != nil {
			return err
		}
	}
	if delay == 0 {
		why := "hedgingDelay is 0s: gRPC sends every copy at once, which stormlab does not model (its hedge waits for a delay); the keys send no hedge"
		if hd == nil {
			t.leaveUnset(p, hp, "hedgingDelay", "unset, so 0s: gRPC sends every copy at once, which stormlab does not model (its hedge waits for a delay); the keys send no hedge")
		} else {
			t.leave(p, hd, why)
		}
		t.leave(p, ma, "the copies gRPC sends at once are not modelled")
	} else {
		t.set(p, "layer.0.hedge.delay", delay, "gRPC sends a hedge when a call has had no answer for hedgingDelay (stormlab hedges at the bottom layer of the chain)", at(hd))
		says := "one hedge per call, with no cap on the hedges' share of the tries (gRPC has none but its throttle)"
		if capped := min(attempts, grpcMaxAttempts); capped > 2 {
			says = fmt.Sprintf("gRPC sends up to %d hedges per call, one each hedgingDelay; stormlab sends one, so the keys hedge less than gRPC; no cap on the hedges' share (gRPC has none but its throttle)", capped-1)
		}
		t.set(p, "layer.0.hedge.max_share", 1.0, says, at(ma))
	}
	if nf := hp.child("nonFatalStatusCodes", lowerCamel); nf != nil {
		codes, err := grpcCodeList(nf, false)
		if err != nil {
			return err
		}
		t.leave(p, nf, "after an answer with one of "+strings.Join(codes, ", ")+" gRPC sends the next hedge at once, and after any other it fails the call; stormlab's hedge waits for its delay")
	}
	return nil
}

// grpcTimeout sets the call's deadline.
func (t *translation) grpcTimeout(p *Policy, mc *node) error {
	tn := mc.child("timeout", lowerCamel)
	if tn == nil {
		t.set(p, "layer.0.timeout", model.Duration(0), "timeout is unset: a call has no deadline unless the application sets one, and a try waits for its answer (0 = waits forever)", unsetIn(mc, "timeout"))
		return nil
	}
	d, err := protoDuration(tn)
	if err != nil {
		return err
	}
	if d <= 0 {
		return bad(tn, "must be more than 0s: a call whose deadline has passed fails at once")
	}
	t.set(p, "deadline", d, "the call's deadline, its retries and backoff included (gRFC A6), the application's own if shorter", at(tn))
	t.set(p, "layer.0.timeout", d, "gRPC has no per-try timeout: a try waits until the deadline", at(tn))
	return nil
}
