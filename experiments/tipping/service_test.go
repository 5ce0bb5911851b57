package tipping_test

import (
	"math"
	"testing"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/tipping"
)

// twoEntryPoints is a graph whose users come in through web, half of them,
// which calls a cache of 60 calls a second behind a FIFO queue, three
// tries of 1 s each, and through mobile, the other half, which calls an
// auth service of ample capacity. An outage of the cache leaves a backlog
// the cache drains at 10 calls a second above web's 50, until the calls
// wait longer than their timeout: from then on every try times out and is
// retried, 150 calls a second, and web never comes back. Mobile's users
// never see the cache.
const twoEntryPoints = `engine = "stochastic"
seed = 3
[scenario]
tick = "10ms"
duration = "2m"
load = 100
arrivals = "poisson"
fault = [{ kind = "outage", start = "20s", length = "10s", service = "cache" }]
[[scenario.graph.service]]
name = "web"
[[scenario.graph.service]]
name = "mobile"
[[scenario.graph.service]]
name = "cache"
server = { capacity = 60, queue = "fifo" }
[[scenario.graph.service]]
name = "auth"
server = { capacity = 1e6, queue = "none" }
[[scenario.graph.edge]]
to = "web"
share = 0.5
timeout = "10s"
[[scenario.graph.edge]]
to = "mobile"
share = 0.5
timeout = "10s"
[[scenario.graph.edge]]
from = "web"
to = "cache"
attempts = 3
timeout = "1s"
[[scenario.graph.edge]]
from = "mobile"
to = "auth"
[grid]
"graph.service.2.server.capacity" = [60]
[[tipping]]
key = "blip"
from = "0s"
to = "20s"
service = "web"
name = "web"
[[tipping]]
key = "blip"
from = "0s"
to = "20s"
service = "mobile"
name = "mobile"
[[tipping]]
key = "graph.service.2.server.capacity"
from = 200
to = 20
tolerance = 1
service = "web"
name = "cache-capacity"
`

// TestTippingPerEntryPoint: a search judged at a service judges each point
// by that service's verdict. Web's users tip at an outage of the cache of
// about a second (0.925 s with this seed: the calls it leaves waiting are
// timed out and retried while new ones come at 50 a second, against the
// 60 it serves); mobile's never do, whatever the outage: its search finds
// none in range. A search may move any numeric key of the graph, here the
// cache's capacity.
func TestTippingPerEntryPoint(t *testing.T) {
	e, err := experiments.Parse("two.toml", []byte(twoEntryPoints), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := search(t, e, 2)
	web, mobile := o.Searches[0][0], o.Searches[1][0]
	if web.Status != tipping.Found || !(web.Critical > 0.5 && web.Critical < 5) {
		t.Errorf("web: %s, tips at %v s; want found, about a second", web.Status, web.Critical)
	}
	if mobile.Status != tipping.Nothing || mobile.Region != tipping.Stable || !math.IsNaN(mobile.Critical) {
		t.Errorf("mobile: %s (%s), tips at %v; want none in range, stable", mobile.Status, mobile.Region, mobile.Critical)
	}
	// A search over a graph's key: the cache's capacity below which web's
	// users do not come back from the 10 s outage. A cache that cannot
	// serve the 150 calls a second of three tries of every call cannot
	// work off its backlog once every call times out (166.5 with this
	// seed, the backlog's waits above 1 s for a while past 150).
	if c := o.Searches[2][0]; c.Status != tipping.Found || !(c.Critical > 150 && c.Critical < 200) {
		t.Errorf("the cache's capacity: %s, tips at %v; want found, between 150 and 200", c.Status, c.Critical)
	}
}
