package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/arimaalab/arimaalab/judge"
	"github.com/arimaalab/arimaalab/progress"
)

// reachVerb scores, with a reference AEI engine, the positions that a
// player's recorded games reached at given turns, and compares them game by
// game with another player's games of the same setups (judge.Reach).
func reachVerb(fs *flag.FlagSet) func(env, []string) error {
	jf := defineJudgeFlags(fs)
	opponent := fs.String("opponent", "", "the opponent's user `NAME` (required): each game is measured for the other player")
	turnsFlag := fs.String("turns", "6,9,12", "score the position before the player's move at each of these `TURNS` (comma-separated, 2 or more)")
	var base []string
	fs.Func("base", "archive `FILE` (repeatable) of the same setups played by another player: compare game by game, FILE... minus base", func(s string) error {
		base = append(base, s)
		return nil
	})
	workers := fs.Int("workers", 1, "run `W` engines at once")
	cache := fs.String("cache", "", "keep the judge's scores in `FILE` (JSON lines): a run cut short goes on where it stopped, and a baseline's games are scored once")
	asJSON := fs.Bool("json", false, "print the report as one JSON object (with every game's scores)")
	force := fs.Bool("progress", false, "show the progress bar even when stderr is not a terminal")
	return func(e env, args []string) error {
		switch {
		case len(args) == 0:
			return usageError("want at least one archive FILE")
		case *opponent == "":
			return usageError("-opponent is required")
		case *workers < 1:
			return usageError("-workers must be at least 1")
		}
		if err := jf.check(); err != nil {
			return err
		}
		turns, err := parseTurns(*turnsFlag)
		if err != nil {
			return err
		}
		a, err := reachSide(e, args, *opponent, turns, *jf.clamp)
		if err != nil {
			return err
		}
		var b *judge.ReachSide
		if len(base) > 0 {
			if b, err = reachSide(e, base, *opponent, turns, *jf.clamp); err != nil {
				return err
			}
		}

		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		cfg := judge.ReachConfig{}
		if *cache != "" {
			c, err := judge.OpenCache(*cache)
			if err != nil {
				return err
			}
			defer c.Close()
			cfg.Cache = c
		}
		engines, judges, closeAll, err := jf.startJudges(ctx, *workers, e.stderr)
		if err != nil {
			return err
		}
		defer closeAll()
		// The key of the cache: the engine, its options and the units.
		cfg.Judge = fmt.Sprintf("%s (%s; unit %g, clamp %g)", engines[0].Describe(), *jf.command, *jf.unit, engines[0].Clamp())
		var bar *progress.Bar
		cfg.Progress = func(done, total int) {
			if bar == nil {
				bar = progress.New(e.stderr, int64(total), "judging", *force)
			}
			bar.Set(int64(done))
		}
		rep, err := judge.Reach(ctx, judges, a, b, cfg)
		if bar != nil {
			bar.Finish()
		}
		if err != nil {
			if ctx.Err() != nil && *cache != "" {
				err = errors.New("interrupted: the scores so far are in the cache, and the same command goes on")
			}
			return err
		}
		return writeReport(e.stdout, *asJSON, rep)
	}
}

// parseTurns reads a comma-separated list of turns, each 2 or more, sorted
// without repeats.
func parseTurns(s string) ([]int, error) {
	var turns []int
	for _, f := range strings.Split(s, ",") {
		t, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || t < 2 {
			return nil, usageError(fmt.Sprintf("-turns %q: %q is not a turn of 2 or more", s, f))
		}
		turns = append(turns, t)
	}
	slices.Sort(turns)
	return slices.Compact(turns), nil
}

// reachSide reads the games of the archives names, each seen by the player
// who is not opponent.
func reachSide(e env, names []string, opponent string, turns []int, clamp float64) (*judge.ReachSide, error) {
	s := &judge.ReachSide{Files: strings.Join(names, " ")}
	for _, name := range names {
		in, err := openInput(name, e.stdin)
		if err != nil {
			return nil, err
		}
		games, err := judge.ReachGames(in, in.name, opponent, turns, clamp)
		in.Close()
		if err != nil {
			return nil, err
		}
		s.Games = append(s.Games, games...)
	}
	if len(s.Games) == 0 {
		return nil, fmt.Errorf("no games in %s", s.Files)
	}
	return s, nil
}
