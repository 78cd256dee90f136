// Command eval plays matches between Arimaa players and measures them: a match
// of two players with Elo, normalized Elo, LOS, pentanomial counts and an
// optional SPRT, or a pool of generations (round robin or gauntlet) with a
// rating table and a chart.
//
// Usage:
//
//	eval -a PLAYER -b PLAYER [-games N] [-concurrency C] [-seed S] [-max-turns T]
//	     [-out DIR [-resume]] [-sprt elo0,elo1,alpha,beta [-sprt-model logistic|normalized]]
//	eval -pool PLAYER... [-games-per-pair N] [-gauntlet PLAYER] [-anchor NAME]
//	     [-rating-model bt|davidson] [-prior D] [-bootstrap B] [-out DIR [-resume]] ...
//
// A PLAYER is a specification such as "gen0,visits=200", "gen-3.json,visits=400",
// "random" or "aei=./bot,time=1s" (see docs/eval.md); -each gives items every
// player takes unless its own say otherwise. Games come in pairs, the same
// setups with colours swapped. With -out every game is saved in the arimaa.com
// archive format and each result appended as it comes, so that after an
// interruption the same command with -resume continues the match. SIGINT and
// SIGTERM stop cleanly (exit status 130).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/match"
	"github.com/arimaalab/arimaalab/material"
	"github.com/arimaalab/arimaalab/progress"
	"github.com/arimaalab/arimaalab/rating"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is a mistake in the command line (exit status 2).
type usageError string

func (e usageError) Error() string { return string(e) }

const usage = `usage:
  eval -a PLAYER -b PLAYER [-games N] [-concurrency C] [-seed S] [-max-turns T]
       [-out DIR [-resume]] [-sprt elo0,elo1,alpha,beta [-sprt-model logistic|normalized]]
  eval -pool PLAYER... [-games-per-pair N] [-gauntlet PLAYER] [-anchor NAME]
       [-rating-model bt|davidson] [-prior D] [-bootstrap B] [-out DIR [-resume]]

PLAYER: random | gen0 | FILE.json | weights=FILE | aei=COMMAND, then ,KEY=VALUE items:
  search: visits=N time=D threads=T cpuct=X fpu=X priors=heuristic|uniform
          leaf=tactical|static scan=auto|on|deep|step|off step-moves=N|all
          step-leaf=static|tactical step-widen=N|off minimax=X max-nodes=N
          temp=T temp-turns=N
  aei:    time=D option.NAME=VALUE
  all:    name=NAME
e.g. eval -a gen0,visits=200 -b random -games 10

flags:`

// run executes the command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	a := fs.String("a", "", "first player of a match (its view: Elo > 0 means A is stronger)")
	b := fs.String("b", "", "second player of a match")
	pool := fs.Bool("pool", false, "play a pool: the arguments are its players (weights files or specifications)")
	each := fs.String("each", "", "items every player takes unless its own say otherwise, such as visits=200")
	games := fs.Int("games", 100, "games of a match (rounded up to pairs); the most with -sprt")
	perPair := fs.Int("games-per-pair", 20, "games of each pairing of a pool (rounded up to pairs)")
	gauntlet := fs.String("gauntlet", "", "pool: this player plays every other, and they do not play each other")
	anchor := fs.String("anchor", "", "pool: the player rated 0 (default: the first of generation 0, else the first)")
	ratingModel := fs.String("rating-model", "bt", "pool: bt (Bradley-Terry, draws as half wins) or davidson")
	prior := fs.Float64("prior", 1, "pool: virtual draws added to each pairing (0: plain maximum likelihood)")
	bootstrap := fs.Int("bootstrap", 0, "pool: 95% intervals from this many bootstrap fits (0: from the Fisher information)")
	concurrency := fs.Int("concurrency", 0, "games at once (default: one per core, divided by the players' threads)")
	seed := fs.Uint64("seed", 1, "seed of the setups and the players: game i is the same whenever it is played")
	maxTurns := fs.Int("max-turns", match.DefaultMaxTurns, "a game still running after this many turns is a draw")
	randomSetups := fs.Float64("random-setups", match.DefaultSetups().RandomShare, "share of random setups (the rest: standard setups with swaps)")
	swaps := fs.Int("setup-swaps", match.DefaultSetups().Swaps, "random swaps of two pieces in a standard setup")
	out := fs.String("out", "", "directory of the results, games, summary (and pool ratings, chart)")
	resume := fs.Bool("resume", false, "continue the match or pool in -out without replaying its finished games")
	sprt := fs.String("sprt", "", "stop a match early: elo0,elo1,alpha,beta such as 0,10,0.05,0.05")
	sprtModel := fs.String("sprt-model", "logistic", "SPRT hypotheses in logistic or normalized Elo")
	showProgress := fs.Bool("progress", false, "show the progress bar even when stderr is not a terminal")
	verbose := fs.Bool("v", false, "log a line per game on stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	rest, err := parseFlags(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	setups := match.SetupConfig{RandomShare: *randomSetups, Swaps: *swaps}

	var runErr error
	if *pool {
		runErr = runPool(ctx, poolArgs{
			specs: rest, each: *each, gauntlet: *gauntlet, games: *perPair, anchor: *anchor,
			fit: rating.FitOptions{Model: rating.RatingModel(*ratingModel), Prior: *prior, Bootstrap: *bootstrap, Seed: *seed},
			opt: match.Options{Concurrency: *concurrency, Seed: *seed, MaxTurns: *maxTurns, Setups: setups, Out: *out, Resume: *resume, Log: log},
		}, stdout, stderr, *showProgress)
	} else {
		if len(rest) > 0 {
			runErr = usageError(fmt.Sprintf("unexpected arguments %q (a pool needs -pool)", rest))
		} else {
			opt := match.Options{Games: *games, Concurrency: *concurrency, Seed: *seed, MaxTurns: *maxTurns, Setups: setups, Out: *out, Resume: *resume, Log: log}
			runErr = runMatch(ctx, *a, *b, *each, *sprt, rating.SPRTModel(*sprtModel), opt, stdout, stderr, *showProgress)
		}
	}
	var ue usageError
	switch {
	case runErr == nil:
		return 0
	case errors.As(runErr, &ue):
		fmt.Fprintf(stderr, "eval: %v\n", runErr)
		return 2
	case ctx.Err() != nil:
		if *out != "" {
			fmt.Fprintln(stderr, "eval: interrupted; the finished games are saved: rerun the same command with -resume to continue")
		} else {
			fmt.Fprintln(stderr, "eval: interrupted")
		}
		return 130
	}
	fmt.Fprintf(stderr, "eval: %v\n", runErr)
	return 1
}

// openPlayer parses a specification and makes its player.
func openPlayer(spec, each string) (match.Player, error) {
	s, err := match.ParseSpec(spec, each)
	if err != nil {
		return nil, usageError(err.Error())
	}
	return match.NewPlayer(s)
}

func runMatch(ctx context.Context, specA, specB, each, sprt string, model rating.SPRTModel, opt match.Options, stdout, stderr io.Writer, force bool) error {
	if specA == "" || specB == "" {
		return usageError("a match needs -a PLAYER and -b PLAYER (or -pool)")
	}
	if sprt != "" {
		t, err := rating.ParseSPRT(sprt, model)
		if err != nil {
			return usageError(err.Error())
		}
		opt.SPRT = &t
	}
	sa, err := match.ParseSpec(specA, each)
	if err != nil {
		return usageError(err.Error())
	}
	sb, err := match.ParseSpec(specB, each)
	if err != nil {
		return usageError(err.Error())
	}
	if sa.Name == sb.Name { // such as gen0 against gen0: name them by their specifications
		sa.Name, sb.Name = specA, specB
		if specA == specB {
			sa.Name, sb.Name = specA+" (A)", specB+" (B)"
		}
	}
	a, err := match.NewPlayer(sa)
	if err != nil {
		return err
	}
	defer a.Close()
	b, err := match.NewPlayer(sb)
	if err != nil {
		return err
	}
	defer b.Close()
	games := opt.Games + opt.Games%2
	bar := progress.New(stderr, int64(games), a.Name()+" vs "+b.Name(), force)
	opt.Progress = func(r *match.Result) {
		bar.Describe(r.Line())
		bar.Set(int64(r.Stats.Games()))
	}
	res, err := match.Run(ctx, a, b, opt)
	bar.Finish()
	// The results, unless the match failed (an interrupted one shows what it
	// played); a match that never started (an -out in use, say) shows none.
	if res != nil && res.Stats.Games() > 0 && (err == nil || ctx.Err() != nil) {
		if werr := res.WriteSummary(stdout); werr != nil && err == nil {
			err = werr
		}
		if res.SPRT != nil && res.Verdict != rating.Continue {
			fmt.Fprintf(stdout, "SPRT: %s after %d games\n", res.Verdict, res.Stats.Games())
		}
		// Players of one name cannot be told apart in the games' records.
		if opt.Out != "" && a.Name() != b.Name() {
			if werr := writeMaterial(stdout, filepath.Join(opt.Out, match.GamesFile), a.Name(), b.Name()); werr != nil && err == nil {
				err = werr
			}
		}
	}
	return err
}

// materialTurn is the turn to which writeMaterial counts the net material.
const materialTurn = 15

// writeMaterial writes, for each player of the games in file, the turn of
// its first piece lost and its pieces lost per 10 turns, means with their 95%
// intervals (package material): while one player wins every game, the score
// says nothing more, and these still measure how long the loser holds.
func writeMaterial(w io.Writer, file string, players ...string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	recs, err := engine.ReadArchive(f, file)
	f.Close()
	if err != nil {
		return err
	}
	for _, p := range players {
		var first, rate []float64
		for _, rec := range recs {
			m, err := material.Measure(rec, p, materialTurn)
			if err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
			first, rate = append(first, float64(m.FirstLoss)), append(rate, m.LostRate())
		}
		fmt.Fprintf(w, "Material of %s: first piece lost at turn %s, pieces lost per 10 turns %s\n", p, material.Summarize(first), material.Summarize(rate))
	}
	return nil
}

type poolArgs struct {
	specs    []string
	each     string
	gauntlet string
	games    int
	anchor   string
	fit      rating.FitOptions
	opt      match.Options
}

func runPool(ctx context.Context, pa poolArgs, stdout, stderr io.Writer, force bool) error {
	if len(pa.specs) == 0 {
		return usageError("-pool needs players: weights files or specifications")
	}
	var players []match.Player
	defer func() {
		for _, p := range players {
			p.Close()
		}
	}()
	for _, s := range pa.specs {
		p, err := openPlayer(s, pa.each)
		if err != nil {
			return err
		}
		players = append(players, p)
	}
	var g match.Player
	if pa.gauntlet != "" {
		var err error
		if g, err = openPlayer(pa.gauntlet, pa.each); err != nil {
			return err
		}
		defer g.Close()
	}
	o := pa.opt
	var bar *progress.Bar
	res, err := match.RunPool(ctx, players, match.PoolOptions{
		GamesPerPair: pa.games, Gauntlet: g, Anchor: pa.anchor, Fit: pa.fit,
		Concurrency: o.Concurrency, Seed: o.Seed, MaxTurns: o.MaxTurns, Setups: o.Setups, Out: o.Out, Resume: o.Resume, Log: o.Log,
		Progress: func(done, total int, last match.GameResult) {
			if bar == nil {
				bar = progress.New(stderr, int64(total), "pool", force)
			}
			bar.Describe(fmt.Sprintf("pool: %s vs %s", last.A, last.B))
			bar.Set(int64(done))
		},
	})
	bar.Finish()
	if res != nil && res.Ratings != nil {
		fmt.Fprint(stdout, res.Markdown())
		if o.Out != "" {
			fmt.Fprintf(stdout, "\nwritten: %s/ratings.md, ratings.json, ratings.png, %s, %s\n", o.Out, match.ResultsFile, match.GamesFile)
		}
	}
	return err
}
