package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/engine"
	playgame "github.com/arimaalab/arimaalab/play"
	"github.com/arimaalab/arimaalab/setup"
)

// playVisits is the bot's default number of simulations a move.
const playVisits = 20000

// playVerb lets a person play the bot in the terminal.
func playVerb(fs *flag.FlagSet) func(env, []string) error {
	color := fs.String("color", "gold", "your `COLOUR`: gold (moves first) or silver")
	personSetup := fs.String("setup", "", "your setup in notation (such as 'Ra1 Rb1 ... Ee2 ...'), or standard (default: asked for)")
	botSetup := fs.String("bot-setup", "random", "the bot's setup: `KIND` random (drawn from -seed: a random arrangement or a perturbed standard setup) or standard")
	save := fs.String("save", "", "write the game to `FILE` in the archive format at the end (for analyze show or replay)")
	sf := defineSearchFlags(fs, playVisits, true)
	return func(e env, args []string) error {
		if len(args) != 0 {
			return usageError("no arguments, only flags")
		}
		var person engine.Color
		switch strings.ToLower(*color) {
		case "gold", "g", "w", "white":
			person = engine.Gold
		case "silver", "s", "b", "black":
			person = engine.Silver
		default:
			return usageError(fmt.Sprintf("-color %q: want gold or silver", *color))
		}
		cfg, err := sf.config(fs)
		if err != nil {
			return err
		}
		var bot []engine.Placement
		switch *botSetup {
		case "random":
			rng := rand.New(rand.NewPCG(cfg.Seed, 0x5e7))
			bot = setup.Draw(rng, person.Other(), 0.5, 3)
		case "standard":
			bot = setup.Standard(person.Other())
		default:
			return usageError(fmt.Sprintf("-bot-setup %q: want random or standard", *botSetup))
		}
		s, w, err := sf.searcher(cfg)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("arimaalab-gen%d", w.Generation)
		fmt.Fprintf(e.stdout, "Bot: %s, weights %s, %s.\n", name, describeWeights(w), describeBudget(cfg.Visits, cfg.Time, cfg.Threads))
		g, o, err := playgame.Play(context.Background(), e.stdin, e.stdout, playgame.NewSearchBot(name, s),
			playgame.Options{Person: person, Setup: *personSetup, BotSetup: bot})
		if *save != "" && g != nil && len(g.Moves()) > 0 {
			if serr := saveGame(*save, g, o, person, name); serr != nil && err == nil {
				err = serr
			}
		}
		return err
	}
}

// describeBudget says how long the bot searches, such as "20000 simulations
// a move, 1 thread".
func describeBudget(visits int, d time.Duration, threads int) string {
	var parts []string
	if visits > 0 {
		parts = append(parts, fmt.Sprintf("%d simulations", visits))
	}
	if d > 0 {
		parts = append(parts, "at most "+d.String())
	}
	th := "threads"
	if threads == 1 {
		th = "thread"
	}
	return fmt.Sprintf("%s a move, %d %s", strings.Join(parts, " or "), threads, th)
}

// saveGame writes the game as an archive record to path (a temporary file
// renamed when complete).
func saveGame(path string, g *engine.Game, o engine.Outcome, person engine.Color, bot string) error {
	rec := g.Record("1")
	players := [2]string{"you", "you"}
	players[person.Other()] = bot
	rec.Gold, rec.Silver = players[0], players[1]
	if o.Reason == engine.Resignation {
		rec.Result, rec.Termination = o.Winner, o.Reason
	}
	rec.SetField("event", "arimaalab analyze play")
	var buf bytes.Buffer
	if err := engine.WriteArchive(&buf, []engine.Record{rec}); err != nil {
		return fmt.Errorf("-save: %w", err)
	}
	if err := writeFileAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("-save: %w", err)
	}
	return nil
}
