package serve

import "time"

// speed is how fast a run's rows reach its page.
type speed string

const (
	realTime speed = "1"   // a second of the run a second
	tenTimes speed = "10"  // ten seconds of the run a second
	fastest  speed = "max" // as fast as the page takes them
)

// At full speed rows go out in batches of maxBatch, one batch a frame.
const (
	maxBatch = 20
	frame    = 16 * time.Millisecond
)

// interval is the wall time between two rows at speed s, or between two
// batches of rows at full speed, one a frame.
func (s speed) interval(step float64, frame time.Duration) time.Duration {
	switch s {
	case tenTimes:
		return time.Duration(step * float64(time.Second) / 10)
	case fastest:
		return frame
	}
	return time.Duration(step * float64(time.Second))
}
