// Command pipeline runs the arimaalab generation loop: self-play, training,
// evaluation and promotion of the next weights.
//
// Only the first stage exists so far: engine verification, which checks the
// move counts of the clueless32 positions against their expected counts and
// replays real archive games to their recorded results (all data embedded).
// The later stages are reported as not built yet.
//
// Usage:
//
//	pipeline
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args (without the program name) and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pipeline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: pipeline")
		fmt.Fprintln(stderr, "\nRuns the generation loop. Built so far: engine verification (move counts of")
		fmt.Fprintln(stderr, "the embedded clueless32 positions, replay of embedded archive games).")
		fmt.Fprintln(stderr, "Self-play, training and evaluation are not built yet.")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "pipeline: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	v, err := embeddedVerification()
	if err != nil {
		fmt.Fprintf(stderr, "pipeline: %v\n", err)
		return 1
	}
	if err := pipeline(v, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "pipeline: %v\n", err)
		return 1
	}
	return 0
}
