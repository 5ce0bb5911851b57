package importer

import (
	"fmt"
)

// envoyCluster is a Cluster's retry limit, read from its DEFAULT
// priority thresholds.
type envoyCluster struct {
	n, nameNode     *node
	name            string
	thresholds      *node // the DEFAULT entry, or nil
	budget          *node // its retry_budget, or nil
	percent, minRC  *node
	maxRetries      *node
	pct             float64
	minConc, maxRet int64
	used            bool
}

func (t *translation) envoyCluster(d *node) (*envoyCluster, error) {
	t.anchor(d, "Cluster")
	c := &envoyCluster{n: d, pct: 20, minConc: 3, maxRet: envoyMaxRetries}
	c.nameNode = d.child("name", lowerSnake)
	if c.nameNode == nil {
		return nil, bad(d, "name is required: routes send to a cluster by its name")
	}
	s, err := text(c.nameNode)
	if err != nil {
		return nil, err
	}
	c.name = s
	cb := d.child("circuit_breakers", lowerSnake)
	if cb == nil {
		return c, nil
	}
	t.anchor(cb, "CircuitBreakers")
	if err := table(cb, "circuit_breakers", lowerSnake, envoyBreakers); err != nil {
		return nil, err
	}
	t.leaveAll(nil, cb, "thresholds")
	th := cb.child("thresholds", lowerSnake)
	if th == nil {
		return c, nil
	}
	if err := list(th); err != nil {
		return nil, err
	}
	for _, e := range th.items {
		if err := table(e, "a circuit_breakers.thresholds entry", lowerSnake, envoyThreshold); err != nil {
			return nil, err
		}
		t.anchor(e, "Thresholds")
		prio := "DEFAULT"
		if pn := e.child("priority", lowerSnake); pn != nil {
			s, err := text(pn)
			if err != nil || s != "DEFAULT" && s != "HIGH" {
				return nil, bad(pn, "must be DEFAULT or HIGH (Envoy's RoutingPriority), got %s", describe(pn))
			}
			prio = s
		}
		if prio == "HIGH" {
			for i := range e.items {
				t.leave(nil, e.items[i], "the HIGH priority's limits: routes send at the DEFAULT priority unless they say otherwise, and stormlab has one")
			}
			continue
		}
		if c.thresholds != nil {
			return nil, bad(e, "a second DEFAULT entry (the first at line %d)", c.thresholds.line)
		}
		c.thresholds = e
		if b := e.child("retry_budget", lowerSnake); b != nil {
			if err := table(b, "retry_budget", lowerSnake, envoyBudget); err != nil {
				return nil, err
			}
			c.budget = b
			if pn := b.child("budget_percent", lowerSnake); pn != nil {
				v := pn
				if pn.kind == mapNode {
					if err := table(pn, "budget_percent (a Percent)", lowerSnake, []string{"value"}); err != nil {
						return nil, err
					}
					v = pn.child("value", lowerSnake)
				}
				if v == nil {
					return nil, bad(pn, "must be a Percent: { value: 20.0 }")
				}
				t.anchor(v, "Thresholds.retry_budget.budget_percent")
				f, err := number(v)
				if err != nil {
					return nil, err
				}
				if f < 0 || f > 100 {
					return nil, bad(v, "must be a percentage from 0 to 100, got %v", f)
				}
				c.pct, c.percent = f, v
			}
			if mn := b.child("min_retry_concurrency", lowerSnake); mn != nil {
				v, err := whole(mn, 0, 1000000, "")
				if err != nil {
					return nil, err
				}
				c.minConc, c.minRC = v, mn
			}
		}
		if mr := e.child("max_retries", lowerSnake); mr != nil {
			v, err := whole(mr, 0, 1000000, "")
			if err != nil {
				return nil, err
			}
			c.maxRet, c.maxRetries = v, mr
		}
	}
	return c, nil
}

// apply sets the cluster's retry limit on p; via is the route's field
// naming the cluster, if any.
func (c *envoyCluster) apply(t *translation, p *Policy, via ...src) {
	c.used = true
	via = append(via, at(c.nameNode))
	if c.budget != nil {
		t.set(p, "budget.kind", "envoy", "Envoy's retry budget: retries in flight ≤ budget_percent of the requests in flight, at least min_retry_concurrency (stormlab counts tries in flight)", append([]src{at(c.budget)}, via...)...)
		t.set(p, "budget.scope", "client", "Envoy keeps the budget per cluster in each proxy: one per client", at(c.budget))
		pct := at(c.budget)
		if c.percent != nil {
			pct = at(c.percent)
		} else {
			pct = unsetIn(c.budget, "budget_percent")
		}
		t.set(p, "budget.budget_percent", c.pct, "the share of requests in flight that may be retries; 20 unset", pct)
		mrc := unsetIn(c.budget, "min_retry_concurrency")
		if c.minRC != nil {
			mrc = at(c.minRC)
		}
		t.set(p, "budget.min_retry_concurrency", c.minConc, "retries in flight allowed whatever the share; 3 unset", mrc)
		if c.maxRetries != nil {
			t.leave(p, c.maxRetries, "ignored by Envoy: the retry_budget replaces max_retries")
		}
		for i, k := range c.thresholds.keys {
			if kk := lowerSnake(k); kk != "retry_budget" && kk != "max_retries" {
				t.leave(p, c.thresholds.items[i], t.why(c.thresholds.items[i]))
			}
		}
		return
	}
	from := unsetIn(c.n, "circuit_breakers")
	says := fmt.Sprintf("%s; the cluster sets no thresholds, so Envoy's default of 3 applies", envoyDefaultBudget)
	if c.thresholds != nil {
		from = unsetIn(c.thresholds, "max_retries")
		says = envoyDefaultBudget + "; 3 unset"
		for i, k := range c.thresholds.keys {
			if lowerSnake(k) != "max_retries" {
				t.leave(p, c.thresholds.items[i], t.why(c.thresholds.items[i]))
			}
		}
	}
	if c.maxRetries != nil {
		from, says = at(c.maxRetries), envoyDefaultBudget
	}
	c.maxRetriesKeys(t, p, says, append([]src{from}, via...)...)
}

// maxRetriesKeys sets Envoy's max_retries as stormlab's envoy budget.
// from are the fields it follows from, the limit's first.
func (c *envoyCluster) maxRetriesKeys(t *translation, p *Policy, says string, from ...src) {
	t.set(p, "budget.kind", "envoy", says+": stormlab's envoy budget with no share, only the floor", from...)
	t.set(p, "budget.budget_percent", 0.0, "no share of the requests: max_retries is a fixed limit", from[0])
	t.set(p, "budget.min_retry_concurrency", c.maxRet, "at most this many retries in flight at once", from[0])
	t.set(p, "budget.scope", "client", "Envoy keeps the limit per cluster in each proxy: one per client", from[0])
}

// envoyClusterKeys sets the budget of the cluster a route sends to.
func (t *translation) envoyClusterKeys(p *Policy, action *node, clusters map[string]*envoyCluster) error {
	cn := action.child("cluster", lowerSnake)
	if cn == nil {
		def := &envoyCluster{maxRet: envoyMaxRetries}
		def.maxRetriesKeys(t, p, "the route names no single cluster (weighted_clusters, cluster_header): Envoy's default thresholds assumed, max_retries 3", unsetIn(action, "cluster"))
		return nil
	}
	name, err := text(cn)
	if err != nil {
		return err
	}
	if c, ok := clusters[name]; ok {
		c.apply(t, p, at(cn))
		return nil
	}
	def := &envoyCluster{maxRet: envoyMaxRetries}
	def.maxRetriesKeys(t, p, fmt.Sprintf("cluster %q is not among the files: Envoy's default thresholds, max_retries 3", name), at(cn))
	return nil
}
