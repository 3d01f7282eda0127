//go:build !race

package relurl

const raceEnabled = false
