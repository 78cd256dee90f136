package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/material"
	"github.com/arimaalab/arimaalab/mcts"
)

// materialVerb measures how long the players of recorded games keep their
// pieces against an opponent (see package material).
func materialVerb(fs *flag.FlagSet) func(env, []string) error {
	opponent := fs.String("opponent", "", "the opponent's user name (required): each game is measured for the other player")
	at := fs.Int("at", 15, "count the net material up to turn `T`")
	siege := fs.Bool("siege", false, "also count, in each game lost to the opponent's goal, the player's last turns under a goal siege (at most one move in ten keeping the opponent from its goal): a goal search over every move of those turns, under a second a game")
	sprt := fs.String("sprt", "", "with -base, a sequential test of one paired difference, `MEASURE:D0,D1[,ALPHA,BETA]` (such as net:0,1): H0 a mean difference of D0 against H1 one of D1 (alpha and beta 0.05), the pairs taken in order as the games came; MEASURE is first-loss, net, lost, taken, turns, short or siege")
	var base []string
	fs.Func("base", "archive `FILE` (repeatable) of the same games played by another player: print the differences game by game, FILE... minus base", func(s string) error {
		base = append(base, s)
		return nil
	})
	return func(e env, args []string) error {
		if len(args) == 0 {
			return usageError("want at least one archive FILE")
		}
		if *opponent == "" {
			return usageError("-opponent is required")
		}
		if *at < 2 {
			return usageError(fmt.Sprintf("-at %d: want a turn of 2 or more", *at))
		}
		test, measure, err := parseSPRT(*sprt)
		if err != nil {
			return err
		}
		if *sprt != "" && len(base) == 0 {
			return usageError("-sprt needs -base")
		}
		var safe material.SafeMoves
		if *siege {
			check := mcts.NewGoalCheck()
			safe = func(p *engine.Position) (int, int) { return check.Safe(p, nil) }
		}
		games, player, err := measureFiles(e, args, *opponent, *at, safe)
		if err != nil {
			return err
		}
		printMaterial(e.stdout, player, games, *at)
		if len(base) == 0 {
			return nil
		}
		baseGames, basePlayer, err := measureFiles(e, base, *opponent, *at, safe)
		if err != nil {
			return err
		}
		rows, sums, err := material.Paired(games, baseGames, *at)
		if err != nil {
			return fmt.Errorf("%s against -base %s: %w", strings.Join(args, " "), strings.Join(base, " "), err)
		}
		fmt.Fprintln(e.stdout)
		printMaterial(e.stdout, basePlayer, baseGames, *at)
		fmt.Fprintf(e.stdout, "\n%s minus %s, game by game over %d games (the mean, its 95 %% interval, the least true difference these games see four times in five)\n", player, basePlayer, len(games))
		printRows(e.stdout, rows, sums, true)
		if *sprt == "" {
			return nil
		}
		d, err := material.Differences(games, baseGames, measure)
		if err != nil {
			return fmt.Errorf("-sprt %s: %w", *sprt, err)
		}
		printSequential(e.stdout, test, rows[measure], d)
		return nil
	}
}

// parseSPRT reads -sprt's MEASURE:D0,D1[,ALPHA,BETA]; an empty text is no test.
func parseSPRT(text string) (material.Sequential, int, error) {
	if text == "" {
		return material.Sequential{}, -1, nil
	}
	name, hyp, ok := strings.Cut(text, ":")
	if !ok {
		return material.Sequential{}, -1, usageError(fmt.Sprintf("-sprt %q: want MEASURE:D0,D1[,ALPHA,BETA]", text))
	}
	k := material.MeasureIndex(name)
	if k < 0 {
		return material.Sequential{}, -1, usageError(fmt.Sprintf("-sprt %q: unknown measure %q: want first-loss, net, lost, taken, turns, short or siege", text, name))
	}
	t, err := material.ParseSequential(hyp)
	if err != nil {
		return material.Sequential{}, -1, usageError(fmt.Sprintf("-sprt: %v", err))
	}
	return t, k, nil
}

// printSequential writes where the sequential test t of the differences d
// of the measure named name stands.
func printSequential(w io.Writer, t material.Sequential, name string, d []float64) {
	lo, hi := t.Bounds()
	fmt.Fprintf(w, "\nsequential test of %s: H0 %+.2f against H1 %+.2f (alpha %g, beta %g; bounds %+.2f and %+.2f; no verdict before pair %d)\n",
		name, t.D0, t.D1, t.Alpha, t.Beta, lo, hi, t.Least())
	out := t.Run(d)
	switch out.Verdict {
	case "":
		fmt.Fprintf(w, "  no verdict after %d pairs: LLR %+.2f, go on\n", out.Pairs, out.LLR)
	default:
		fmt.Fprintf(w, "  %s accepted at pair %d of %d: LLR %+.2f\n", out.Verdict, out.Pairs, len(d), out.LLR)
	}
}

// measureFiles reads the archives and measures each game for the player who
// is not opponent, its siege too when safe is not nil; player names the
// players measured ("a, b" when they differ).
func measureFiles(e env, names []string, opponent string, at int, safe material.SafeMoves) ([]material.Game, string, error) {
	var games []material.Game
	var players []string
	for _, name := range names {
		recs, label, err := readArchive(name, e.stdin)
		if err != nil {
			return nil, "", err
		}
		for _, rec := range recs {
			if rec.Gold != opponent && rec.Silver != opponent {
				return nil, "", fmt.Errorf("%s: %s: no player %q (gold %q, silver %q)", label, rec.Label(), opponent, rec.Gold, rec.Silver)
			}
			p := rec.Gold
			if p == opponent {
				p = rec.Silver
			}
			var g material.Game
			if safe != nil {
				g, err = material.MeasureSiege(rec, p, at, safe)
			} else {
				g, err = material.Measure(rec, p, at)
			}
			if err != nil {
				return nil, "", fmt.Errorf("%s: %w", label, err)
			}
			games = append(games, g)
			if len(players) == 0 || players[len(players)-1] != p {
				players = append(players, p)
			}
		}
	}
	seen := map[string]bool{}
	var distinct []string
	for _, p := range players {
		if !seen[p] {
			seen[p], distinct = true, append(distinct, p)
		}
	}
	return games, strings.Join(distinct, ", "), nil
}

// printMaterial writes the games' count, wins and measures.
func printMaterial(w io.Writer, player string, games []material.Game, at int) {
	wins := 0
	for _, g := range games {
		if g.Won {
			wins++
		}
	}
	fmt.Fprintf(w, "%s: %d games, %d won\n", player, len(games), wins)
	rows, sums := material.Table(games, at)
	printRows(w, rows, sums, false)
}

// printRows writes one line a measure: its name, then its mean and 95 %
// interval; when signed (differences), with their signs and the least
// difference the games detect (material.Summary.Detectable).
func printRows(w io.Writer, rows []string, sums []material.Summary, signed bool) {
	for i, r := range rows {
		if signed {
			fmt.Fprintf(w, "  %-36s %-26s %.2f\n", r, sums[i].Signed(), sums[i].Detectable())
			continue
		}
		fmt.Fprintf(w, "  %-36s %s\n", r, sums[i].String())
	}
}
