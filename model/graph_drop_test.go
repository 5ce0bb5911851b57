package model

import (
	"testing"
	"time"
)

// dropServer is a service named name whose server serves 100 calls a
// second oldest first, discarding the calls whose caller gave up when
// drop says: a capacity server, or with pool a pool of 10 workers
// holding a call 100 ms.
func dropServer(name string, drop, pool bool) GraphService {
	s := backend(name, 0)
	d := &s.Server
	d.Capacity, d.Queue, d.DropExpired = 100, "fifo", drop
	if pool {
		d.Capacity, d.Workers, d.Latency, d.Service = 0, 10, ms(100), Service{Kind: "constant"}
	}
	return s
}

// dropGraph is 70 requests a second for 5 minutes of 100 ms ticks to a
// gateway without a server that calls the services in parallel, needing
// all, each call with one try and a 1 s timeout, every server out for
// 10 s from second 30.
func dropGraph(services ...GraphService) Scenario {
	gw := service("gateway", "parallel", "all")
	edges := []Layer{edge("", "gateway", 1)}
	for _, s := range services {
		edges = append(edges, edge("gateway", s.Name, 1))
	}
	sc := graphScenario(70, 300*time.Second, append([]GraphService{gw}, services...), edges)
	sc.Tick = ms(100)
	for _, s := range services {
		sc.Fault = append(sc.Fault, Fault{Kind: "outage", Start: Duration(30 * time.Second), Length: Duration(10 * time.Second), Factor: 1, Service: s.Name})
	}
	return sc
}

// TestGraphDropExpired: servers that differ in drop_expired each follow
// their own. Behind one gateway, after a 10 s outage, the server that
// keeps the calls whose callers gave up serves them (wasted work), and
// the one that drops them serves none: each does what it does alone, as
// the one server of a path (a chain) with its setting, its calls and
// served calls equal, and the graph's wasted work that of the keeping
// one alone, whichever of the two comes first in the file. The run is
// deterministic (constant arrivals, no failures), so equal means equal. A
// pool that drops them still serves those its workers hold when their
// callers give up, a few.
func TestGraphDropExpired(t *testing.T) {
	for _, pool := range []bool{false, true} {
		alone := map[bool]Result{}
		for _, drop := range []bool{false, true} {
			r, _ := runGraph(t, dropGraph(dropServer("s", drop, pool)), 1)
			alone[drop] = r
		}
		if w := alone[true].WastedServed; w != 0 && !pool || w > alone[false].WastedServed/10 || alone[false].WastedServed == 0 {
			t.Fatalf("pool %v: alone, the dropping server served %v calls for nobody and the keeping one %v; want none (a pool: the few on a worker when their callers gave up) and some", pool, alone[true].WastedServed, alone[false].WastedServed)
		}
		for _, first := range []bool{false, true} {
			sc := dropGraph(dropServer("x", first, pool), dropServer("y", !first, pool))
			r, col := runGraph(t, sc, 1)
			checkRecycling(t, 0, sc, 1) // and its waiting rooms' counts checked every tick
			for name, drop := range map[string]bool{"x": first, "y": !first} {
				if got, want := col(name+".calls"), alone[drop].Calls; got != want {
					t.Errorf("pool %v, x drops %v: %s (drop_expired %v) got %v calls, alone %v", pool, first, name, drop, got, want)
				}
			}
			if want := alone[true].Served + alone[false].Served; r.Served != want {
				t.Errorf("pool %v, x drops %v: the servers served %v calls, alone %v together", pool, first, r.Served, want)
			}
			if want := alone[false].WastedServed + alone[true].WastedServed; r.WastedServed != want {
				t.Errorf("pool %v, x drops %v: %v calls served for nobody, want each server's alone, %v + %v", pool, first, r.WastedServed, alone[false].WastedServed, alone[true].WastedServed)
			}
		}
		t.Logf("pool %v: alone, the keeping server serves %v calls, %v for nobody; the dropping one %v, %v for nobody", pool, alone[false].Served, alone[false].WastedServed, alone[true].Served, alone[true].WastedServed)
	}
}

// TestGraphDropExpiredChange: a change may start one server of a graph
// dropping expired calls. Both servers keep them until second 35, in the
// middle of their outage, when y starts dropping them: the calls abandoned
// before then, which it has not served (it serves none in an outage), go
// at once, and those abandoned later as they are. Neither server serving
// a call between the outage's start and the change, the run serves what x
// keeping them and y dropping them serve from the start.
func TestGraphDropExpiredChange(t *testing.T) {
	for _, pool := range []bool{false, true} {
		sc := dropGraph(dropServer("x", false, pool), dropServer("y", false, pool))
		sc = then(sc, 35*time.Second, map[string]any{"graph.service.2.server.drop_expired": true}, func(s *Scenario) {
			s.Graph.Service = append([]GraphService(nil), s.Graph.Service...)
			s.Graph.Service[2].Server.DropExpired = true
		})
		want, wcol := runGraph(t, dropGraph(dropServer("x", false, pool), dropServer("y", true, pool)), 1)
		got, col := runGraph(t, sc, 1)
		if got.Served != want.Served || got.WastedServed != want.WastedServed || col("y.calls") != wcol("y.calls") {
			t.Errorf("pool %v: y dropping from second 35: %v served, %v for nobody, %v calls to y; from the start: %v, %v, %v", pool, got.Served, got.WastedServed, col("y.calls"), want.Served, want.WastedServed, wcol("y.calls"))
		}
		checkRecycling(t, 0, sc, 1)
	}
}
