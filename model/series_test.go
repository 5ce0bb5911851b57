package model

import "testing"

// TestRecorder: ticks of 250 ms binned into seconds; counts summed,
// capacity averaged over the bin's ticks, idle ticks included; queue and in
// flight as at the bin's end; a bin is unhealthy when any tick was.
func TestRecorder(t *testing.T) {
	p := &Plan{Clock: Clock{TickS: 0.25, Ticks: 10}}
	r := newRecorder(p)
	r.add(0, &tickCounts{requests: 2, calls: 3, ok: 1}, 100, false, 5, 1)
	r.add(1, &tickCounts{requests: 1}, 100, true, 6, 2)
	r.idle(2, 6, false, func(x, y int64) float64 { return 40 * float64(y-x) }, 7, 3)
	r.add(6, &tickCounts{failures: 4}, 0, false, 8, 4)
	r.idle(7, 10, false, func(x, y int64) float64 { return 40 * float64(y-x) }, 9, 5)
	s := r.done(9, 5)
	if s.Step != 1 || len(s.Rows) != 3 {
		t.Fatalf("step %v, %d rows, want 1 s and 3 rows (the last one half a second)", s.Step, len(s.Rows))
	}
	a, b, c := s.Rows[0], s.Rows[1], s.Rows[2]
	if a.Requests != 3 || a.Calls != 3 || a.Successes != 1 || a.Capacity != 70 || !a.Unhealthy || a.Queue != 7 || a.InFlight != 3 {
		t.Errorf("first second: %+v", a)
	}
	if b.T != 1 || b.Failures != 4 || b.Capacity != 30 || b.Unhealthy || b.Queue != 9 || b.InFlight != 5 {
		t.Errorf("second second: %+v, want capacity (40+40+0+40)/4 = 30", b)
	}
	if c.T != 2 || c.Capacity != 40 || c.Queue != 9 || c.InFlight != 5 {
		t.Errorf("last half second: %+v, want capacity 40", c)
	}
}
