//go:build !race

package lab

// raceDetector reports whether the tests run under the race detector.
const raceDetector = false
