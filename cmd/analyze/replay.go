package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/arimaalab/arimaalab/progress"

	"github.com/arimaalab/arimaalab/engine"
)

// replayVerb replays game archive files and checks each game's recorded result.
func replayVerb(fs *flag.FlagSet) func(env, []string) error {
	return func(e env, args []string) error {
		if len(args) == 0 {
			return usageError("want at least one archive FILE")
		}
		type archive struct {
			name string
			recs []engine.Record
		}
		var archives []archive
		total := 0
		for _, name := range args {
			recs, label, err := readArchive(name, e.stdin)
			if err != nil {
				return err
			}
			archives = append(archives, archive{label, recs})
			total += len(recs)
		}

		bar := progress.New(e.stderr, int64(total), "replaying", false)
		out := newOutWriter(e.stdout, bar)
		var sum replaySummary
		for _, a := range archives {
			sum.replay(out, a.name, a.recs, bar)
		}
		bar.Finish()
		sum.print(out)
		if err := out.flush(); err != nil {
			return err
		}
		if sum.mismatches > 0 {
			return fmt.Errorf("%d of %d games do not replay to their recorded result", sum.mismatches, sum.games)
		}
		return nil
	}
}

// replaySummary counts the games replayed.
type replaySummary struct {
	games, turns, matches, mismatches int
	byTermination                     [engine.OtherTermination + 1]int
}

// replay replays the records of one archive on all cores, checks their
// results, and writes a line `file: game ID, turn T: reason` to w for each
// mismatch, in the order of the file.
func (s *replaySummary) replay(w io.Writer, name string, recs []engine.Record, bar *progress.Bar) {
	turns, errs := engine.VerifyAll(recs, func() { bar.Add(1) })
	for i, rec := range recs {
		s.games++
		s.turns += turns[i]
		if int(rec.Termination) < len(s.byTermination) {
			s.byTermination[rec.Termination]++
		}
		if errs[i] != nil {
			s.mismatches++
			fmt.Fprintf(w, "%s: %v\n", name, errs[i])
		} else {
			s.matches++
		}
	}
}

// print writes the summary.
func (s *replaySummary) print(w io.Writer) {
	fmt.Fprintf(w, "games          %d\n", s.games)
	fmt.Fprintf(w, "turns          %d (setups included)\n", s.turns)
	fmt.Fprintf(w, "matches        %d\n", s.matches)
	fmt.Fprintf(w, "mismatches     %d\n", s.mismatches)
	fmt.Fprintln(w, "by termination (as recorded)")
	for t, n := range s.byTermination {
		if n > 0 {
			fmt.Fprintf(w, "  %-14s %d\n", engine.Termination(t), n)
		}
	}
}
