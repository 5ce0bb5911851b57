package model

import "testing"

// ringPlaces is the event places the calendar holds: its slots' lists and
// its pool.
func ringPlaces(c *calendar) int64 {
	n := c.pool.held
	for i := range c.ring {
		for ph := range c.ring[i].lists {
			n += int64(cap(c.ring[i].lists[ph]))
		}
	}
	return n
}

// TestCalendarMemoryFollowsLiveEvents: a burst that fills every slot of the
// ring in turn, 1,000 events a tick each due 10 ticks later, never holds
// more than a few times the events scheduled (about 10,000), where slots
// keeping their largest list would hold the whole ring's worth (a million);
// and once the burst is over the places go back to the collector.
func TestCalendarMemoryFollowsLiveEvents(t *testing.T) {
	c := newCalendar(1024)
	base := ringPlaces(&c)
	var most, live int64
	for now := int64(0); now < 3000; now++ {
		if now < 2048 {
			for range 1000 {
				c.add(now, now+10, phTimeout, event{n: 1})
			}
		}
		live = max(live, c.n)
		most = max(most, ringPlaces(&c)-base)
		c.clear(now)
	}
	if live != 11000 {
		t.Fatalf("%d events at the most, want 11,000", live)
	}
	if most > 4*live {
		t.Errorf("the calendar held %d event places for at most %d events", most, live)
	}
	if left := ringPlaces(&c) - base; left > 1<<13 {
		t.Errorf("%d event places held after the burst", left)
	}
}

// TestCalendarSteadyStateAllocatesNothing: a steady load of 100 events a
// tick reuses the buffers of the slots that ran, allocating nothing.
func TestCalendarSteadyStateAllocatesNothing(t *testing.T) {
	c := newCalendar(1024)
	now := int64(0)
	tick := func() {
		for range 100 {
			c.add(now, now+10, phTimeout, event{n: 1})
		}
		c.clear(now)
		now++
	}
	for range 3000 { // warm up: every slot has run
		tick()
	}
	if a := testing.AllocsPerRun(1000, tick); a != 0 {
		t.Errorf("%.2f allocations a tick in a steady state", a)
	}
}
