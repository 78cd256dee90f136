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
		return nil
	}
}

// measureFiles reads the archives and measures each game for the player who
// is not opponent, its siege too when safe is not nil; player names the
// players measured ("a, b" when they differ).
func measureFiles(e env, names []string, opponent string, at int, safe material.SafeMoves) ([]material.Game, string, error) {
	var games []material.Game
	var players []string
	for _, name := range names {
		in, err := openInput(name, e.stdin)
		if err != nil {
			return nil, "", err
		}
		recs, err := engine.ReadArchive(in, in.name)
		in.Close()
		if err != nil {
			return nil, "", err
		}
		for _, rec := range recs {
			if rec.Gold != opponent && rec.Silver != opponent {
				return nil, "", fmt.Errorf("%s: %s: no player %q (gold %q, silver %q)", in.name, rec.Label(), opponent, rec.Gold, rec.Silver)
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
				return nil, "", fmt.Errorf("%s: %w", in.name, err)
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
