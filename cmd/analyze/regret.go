package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/judge"
	"github.com/arimaalab/arimaalab/match"
	"github.com/arimaalab/arimaalab/progress"
)

// regretVerb judges the moves of one or two players with a reference AEI
// engine (package judge).
func regretVerb(fs *flag.FlagSet) func(env, []string) error {
	jf := defineJudgeFlags(fs)
	a := fs.String("a", "", "the player judged, a `PLAYER` specification as eval takes: gen0,visits=1000, FILE.json,scan=off, random, aei=COMMAND (required)")
	b := fs.String("b", "", "a second `PLAYER`, judged on the same positions and compared with -a")
	each := fs.String("each", "", "`ITEMS` every player takes unless its own say otherwise, such as visits=1000")
	mover := fs.String("mover", "", "archives: only the positions where the player of this `NAME` (wusername or busername) was to move")
	n := fs.Int("n", 100, "judge `N` positions drawn from all those of the files (0: all)")
	seed := fs.Uint64("seed", 1, "`SEED` of the draw of the positions and of the players' searches")
	blunder := fs.Float64("blunder", judge.DefaultBlunder, "a move of regret `RABBITS` or more is a blunder")
	worst := fs.Int("worst", judge.DefaultWorst, "list each player's `K` worst moves (0: none)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object (with every move)")
	force := fs.Bool("progress", false, "show the progress bar even when stderr is not a terminal")
	turns := fs.String("turns", "", "archives: only the positions of game turns `FIRST-LAST` (such as 2-17; 10- for turn 10 on), before the draw of -n")
	decided := fs.Float64("decided", 0, "leave out the positions the judge scores `RABBITS` or more from 0 before the move, for either side:\n"+
		"games already won or lost, whose swings rule the mean (0: keep them all)")
	base := fs.String("base", "", "compare the first player, position by position, with the first player of the earlier report `FILE` (analyze regret -json) of the same judge and positions")
	return func(e env, args []string) error {
		switch {
		case len(args) == 0:
			return usageError("want archive or position files")
		case *a == "":
			return usageError("-a PLAYER is required")
		case *n < 0:
			return usageError("-n must not be negative")
		case *worst < 0:
			return usageError("-worst must not be negative")
		case *decided < 0:
			return usageError("-decided must not be negative")
		}
		if err := jf.check(); err != nil {
			return err
		}
		specs, err := regretSpecs(*a, *b, *each)
		if err != nil {
			return err
		}
		var baseRep *judge.Report
		if *base != "" {
			if baseRep, err = readReport(*base); err != nil {
				return err
			}
		}
		var all []judge.Position
		for _, name := range args {
			ps, err := regretPositions(name, *mover, e.stdin)
			if err != nil {
				return err
			}
			all = append(all, ps...)
		}
		if all, err = keepTurns(all, *turns); err != nil {
			return err
		}
		if *turns != "" && len(all) == 0 {
			return fmt.Errorf("no positions of turns %s in %s", *turns, strings.Join(args, ", "))
		}
		if len(all) == 0 {
			if *mover != "" {
				return fmt.Errorf("no positions where %q was to move in %s", *mover, strings.Join(args, ", "))
			}
			return fmt.Errorf("no positions in %s", strings.Join(args, ", "))
		}
		positions := judge.Sample(all, *seed, *n)

		ctx := context.Background()
		logger := slog.New(slog.NewTextHandler(e.stderr, nil))
		aeiOpt := aei.Options{Stderr: io.Discard, Logger: logger}
		var players []judge.Player
		defer func() {
			for _, p := range players {
				p.Close()
			}
		}()
		for _, s := range specs {
			p, err := judge.NewPlayer(ctx, s, aeiOpt)
			if err != nil {
				return err
			}
			players = append(players, p)
		}
		j, err := judge.Start(ctx, jf.judgeOptions(aeiOpt))
		if err != nil {
			return fmt.Errorf("-engine: %w", err)
		}
		defer j.Close()
		if baseRep != nil && baseRep.Judge != j.Describe() {
			return fmt.Errorf("-base %s: judged by %q, this run by %q: the scores are not comparable", *base, baseRep.Judge, j.Describe())
		}

		worstK := *worst
		if worstK == 0 {
			worstK = -1 // none (0 is the default for judge.Config)
		}
		bar := progress.New(e.stderr, int64(len(positions)), "judging", *force)
		rep, err := judge.Run(ctx, j, j.Describe(), players, positions, judge.Config{
			Seed: *seed, Blunder: *blunder, Worst: worstK, Decided: *decided,
			Progress: func(done, _ int) { bar.Set(int64(done)) },
		})
		bar.Finish()
		if err != nil {
			return err
		}
		if baseRep != nil {
			if rep.Base, err = judge.PairWithBase(rep, baseRep, *base); err != nil {
				return err
			}
		}
		return writeReport(e.stdout, *asJSON, rep)
	}
}

// regretSpecs parses the players' specifications, naming two players of the
// same name (gen0 and gen0,scan=off) by their specifications, as eval does.
func regretSpecs(a, b, each string) ([]match.Spec, error) {
	sa, err := match.ParseSpec(a, each)
	if err != nil {
		return nil, usageError("-a: " + err.Error())
	}
	if b == "" {
		return []match.Spec{sa}, nil
	}
	sb, err := match.ParseSpec(b, each)
	if err != nil {
		return nil, usageError("-b: " + err.Error())
	}
	if sa.Name == sb.Name {
		sa.Name, sb.Name = a, b
		if a == b {
			sa.Name, sb.Name = a+" (A)", b+" (B)"
		}
	}
	return []match.Spec{sa, sb}, nil
}

// regretPositions reads the positions of a file: an archive (every move's
// position, of mover only when set) or a position file, told apart by their
// first line.
func regretPositions(name, mover string, stdin io.Reader) ([]judge.Position, error) {
	in, err := openInput(name, stdin)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.name, err)
	}
	if judge.IsPositionFile(data) {
		if mover != "" {
			return nil, usageError(fmt.Sprintf("-mover goes with archives; %s is a position file", in.name))
		}
		return judge.ReadPositions(bytes.NewReader(data), in.name)
	}
	return judge.ArchivePositions(bytes.NewReader(data), in.name, mover)
}

// readJudgePositions reads the positions of the archive and position files
// names (regretPositions), in order; a file named twice is an error.
func readJudgePositions(names []string, stdin io.Reader) ([]judge.Position, error) {
	var all []judge.Position
	for i, name := range names {
		if slices.Contains(names[:i], name) {
			return nil, usageError(name + " is named twice")
		}
	}
	for _, name := range names {
		ps, err := regretPositions(name, "", stdin)
		if err != nil {
			return nil, err
		}
		all = append(all, ps...)
	}
	return all, nil
}

// parseTurnRange parses -turns: "FIRST-LAST", or "FIRST-" for no end; the
// empty string is every turn (2 on).
func parseTurnRange(s string) (first, last int, err error) {
	if s == "" {
		return 2, 0, nil
	}
	lo, hi, ok := strings.Cut(s, "-")
	bad := usageError(fmt.Sprintf("-turns %q: want FIRST-LAST, such as 2-17, or FIRST- (turns from 2)", s))
	if !ok {
		return 0, 0, bad
	}
	if first, err = strconv.Atoi(lo); err != nil || first < 2 {
		return 0, 0, bad
	}
	if hi == "" {
		return first, 0, nil
	}
	if last, err = strconv.Atoi(hi); err != nil || last < first {
		return 0, 0, bad
	}
	return first, last, nil
}

// keepTurns returns the positions of all of the game turns of -turns spec
// (all of them when spec is empty); a position of a position file, which has
// no turn, is a usage error naming its file.
func keepTurns(all []judge.Position, spec string) ([]judge.Position, error) {
	if spec == "" {
		return all, nil
	}
	first, last, err := parseTurnRange(spec)
	if err != nil {
		return nil, err
	}
	for _, p := range all {
		if p.Game == nil {
			file := p.Where[:max(0, strings.LastIndex(p.Where, ":"))]
			return nil, usageError(fmt.Sprintf("-turns goes with archives; %s is a position file", file))
		}
	}
	return judge.InTurns(all, first, last), nil
}

// readReport reads the regret report of -base.
func readReport(name string) (*judge.Report, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("-base: %w", err)
	}
	defer f.Close()
	return judge.ReadReport(f, name)
}
