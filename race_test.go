//go:build race

package relurl

const raceEnabled = true
