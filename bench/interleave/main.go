// Command interleave times shell commands in interleaved rounds, so that a
// change in the machine's load falls on every side alike: in each round it
// runs each command once, in order, and at the end prints each command's
// median wall time, its ratio to the first command's (the yardstick), the
// smallest such ratio over the rounds, and the load average before and
// after.
//
//	interleave [-rounds N] [-warmup N] NAME=COMMAND...
//
// Each COMMAND runs under sh -c with its output discarded; a command that
// fails stops the run.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 10, "timed rounds")
	warmup := flag.Int("warmup", 1, "untimed rounds first")
	flag.Parse()
	type side struct {
		name, cmd string
		times     []time.Duration
	}
	var sides []*side
	for _, a := range flag.Args() {
		name, cmd, ok := strings.Cut(a, "=")
		if !ok {
			fmt.Fprintln(os.Stderr, "usage: interleave [-rounds N] [-warmup N] NAME=COMMAND...")
			os.Exit(2)
		}
		sides = append(sides, &side{name: name, cmd: cmd})
	}
	if len(sides) == 0 {
		os.Exit(2)
	}
	loadBefore := load()
	for r := range *warmup + *rounds {
		for _, s := range sides {
			c := exec.Command("sh", "-c", s.cmd)
			start := time.Now()
			if err := c.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "interleave: %s: %v\n", s.name, err)
				os.Exit(1)
			}
			if r >= *warmup {
				s.times = append(s.times, time.Since(start))
			}
		}
	}
	median := func(t []time.Duration) time.Duration {
		t = slices.Clone(t)
		slices.Sort(t)
		return t[len(t)/2]
	}
	yard := sides[0]
	fmt.Printf("%d rounds, interleaved; load average before %s, after %s\n", *rounds, loadBefore, load())
	fmt.Printf("%-28s %10s %10s %12s\n", "", "median", "speedup", "min speedup")
	for _, s := range sides {
		minRatio := 0.0
		for i := range s.times {
			r := float64(yard.times[i]) / float64(s.times[i])
			if i == 0 || r < minRatio {
				minRatio = r
			}
		}
		fmt.Printf("%-28s %8.1fms %9.2fx %11.2fx\n", s.name, float64(median(s.times).Microseconds())/1000,
			float64(median(yard.times))/float64(median(s.times)), minRatio)
	}
}

// load is the 1-minute load average.
func load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(b))[0]
}
