package serve

// aroundResult is the diagram as the page draws it.
type aroundResult struct {
	Loads []float64 `json:"loads"` // requests/s, rising
	Blips []float64 `json:"blips"` // the fault's lengths, seconds, rising
	Fault string    `json:"fault"` // the fault swept, in words: "outage", "slowdown ×4"
	// Recovered[i][j] is whether the run at Loads[i] with the fault
	// lasting Blips[j] was healthy again for good; RecoveryS its seconds
	// from the fault's end to healthy for good (nil when never).
	Recovered [][]bool     `json:"recovered"`
	RecoveryS [][]*float64 `json:"recovery_s"`
	Load      float64      `json:"load"` // the point
	Blip      float64      `json:"blip"`
	Boundary  []*float64   `json:"boundary"` // per load, the shortest length of the grid that tips; nil when none does
	Critical  *float64     `json:"critical"` // the search's estimate at the point's load
	Interval  [2]*float64  `json:"interval"` // and the points beyond doubt either side
	Status    string       `json:"status"`
	Sentence  string       `json:"sentence"`
	Cells     int          `json:"cells"`
	Seconds   float64      `json:"seconds"`  // wall time it took
	Scenario  string       `json:"scenario"` // how the diagram was made
}
