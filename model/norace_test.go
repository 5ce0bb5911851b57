//go:build !race

package model

// raceDetector reports whether the tests run under the race detector.
const raceDetector = false
