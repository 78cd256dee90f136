package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
)

// engineDeadline is the deadline of analyze best -engine without -time.
const engineDeadline = time.Minute

// bestEngine asks the AEI engine of the command line cmdline for its move in
// pos and prints it with what the engine reported. With -time the engine gets
// that time per move (tcmove, no reserve) and must answer by then; -visits,
// -threads and -weights, when given, are sent as the options of those names
// (this project's engine knows them; others log a warning), then the -option
// items.
//
// Every game starts with newgame. Silver to set up is told Gold's setup with
// makemove; Silver to move is given the mirror image of pos with Gold to move
// (see aei.MirrorPosition), and the engine's move is mirrored back: some engines,
// such as Sharp, ignore the side to move of setposition and always search for
// Gold.
func bestEngine(e env, cmdline string, pos engine.Position, fs *flag.FlagSet, sf *searchFlags, extra [][2]string) error {
	var opts [][2]string
	deadline := engineDeadline
	if *sf.time > 0 {
		deadline = *sf.time
		opts = append(opts, [2]string{"tcmove", strconv.FormatFloat(deadline.Seconds(), 'f', -1, 64)}, [2]string{"tcreserve", "0"})
	}
	if isSet(fs, "visits") {
		opts = append(opts, [2]string{"visits", strconv.Itoa(*sf.visits)})
	}
	if isSet(fs, "threads") {
		opts = append(opts, [2]string{"threads", strconv.Itoa(*sf.threads)})
	}
	if *sf.weights != "" {
		abs, err := filepath.Abs(*sf.weights)
		if err != nil {
			return fmt.Errorf("-weights: %w", err)
		}
		opts = append(opts, [2]string{"weights", abs})
	}
	opts = append(opts, extra...)

	setup := pos.Occ[pos.Side] == 0 && (pos.Side == engine.Silver || pos.Occ[engine.Silver] == 0)
	if !setup {
		end := pos
		if out := engine.EndOfTurn(&end, nil, nil); out.Over() {
			return fmt.Errorf("-position: the game is over: %s", out)
		}
	}
	asked := pos // the position the engine searches
	mirrored := pos.Side == engine.Silver && !setup
	if mirrored {
		var err error
		if asked, err = aei.MirrorPosition(pos); err != nil {
			return fmt.Errorf("-position: %w", err)
		}
	}

	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(e.stderr, nil))
	c, err := aei.StartCommand(ctx, cmdline, aei.Options{Stderr: e.stderr, Logger: logger})
	if err != nil {
		return fmt.Errorf("-engine: %w", err)
	}
	defer c.Close()
	for _, o := range opts {
		if err := c.SetOption(o[0], o[1]); err != nil {
			return fmt.Errorf("-engine: %w", err)
		}
	}
	if err := c.NewGame(); err != nil {
		return fmt.Errorf("-engine: %w", err)
	}
	if setup && pos.Side == engine.Silver && pos.Occ[engine.Gold] != 0 {
		// Gold's setup as the game's first move: Silver is then to set up.
		if err := c.MakeMove(goldSetup(pos)); err != nil {
			return fmt.Errorf("-position: Gold's pieces as a setup: %w", err)
		}
	} else if err := c.SetPosition(asked); err != nil {
		return fmt.Errorf("-engine: %w", err)
	}
	if err := c.IsReady(ctx); err != nil {
		return fmt.Errorf("-engine: %w", err)
	}
	start := time.Now()
	move, info, err := c.Go(ctx, start.Add(deadline))
	elapsed := time.Since(start)
	if err != nil {
		return fmt.Errorf("-engine: %w", err)
	}
	res := engineAnswer{id: c.Ident(), pos: pos, move: move, info: info, elapsed: elapsed}
	if mirrored {
		res.asked = &asked
		if res.move, err = aei.MirrorMove(move); err != nil {
			return fmt.Errorf("-engine: bestmove %q: %w", move, err)
		}
		turn := engine.NewTurn(pos)
		if err := turn.PlayMove(res.move); err != nil { // cannot fail: the rules are symmetric
			return fmt.Errorf("-engine: bestmove %q mirrored back to %q: %w", move, res.move, err)
		}
	}
	return printEngineBest(e.stdout, res)
}

// goldSetup writes Gold's pieces of p as a setup.
func goldSetup(p engine.Position) string {
	var pl []engine.Placement
	for sq := engine.Square(0); sq < 64; sq++ {
		if pc := p.At(sq); pc != engine.NoPiece && pc.Color() == engine.Gold {
			pl = append(pl, engine.Placement{Piece: pc, Square: sq})
		}
	}
	return engine.FormatSetup(pl)
}

// engineAnswer is an engine's answer for pos.
type engineAnswer struct {
	id      aei.Ident
	pos     engine.Position
	asked   *engine.Position // the mirror image of pos the engine searched, if it did
	move    string           // for pos
	info    aei.Info
	elapsed time.Duration
}

// printEngineBest writes an engine's answer for people: who answered, the
// move, the time it took, then every info and log message it sent. After a
// search of the mirror image the principal variation is mirrored back too.
func printEngineBest(w io.Writer, a engineAnswer) error {
	var b strings.Builder
	name := a.id.Name
	if a.id.Version != "" {
		name += " " + a.id.Version
	}
	if a.id.Author != "" {
		name += " by " + a.id.Author
	}
	fmt.Fprintf(&b, "engine       %s\n", name)
	fmt.Fprintf(&b, "position     %s\n", a.pos.String())
	if a.asked != nil {
		fmt.Fprintf(&b, "searched     %s (the mirror image: colours swapped, ranks reversed; its move and pv mirrored back)\n", a.asked.String())
	}
	fmt.Fprintf(&b, "move         %s\n", a.move)
	fmt.Fprintf(&b, "time         %.3f s\n", a.elapsed.Seconds())
	for _, l := range a.info.Lines {
		if typ, pv, _ := strings.Cut(l, " "); a.asked != nil && typ == "pv" {
			if m, err := aei.MirrorMove(pv); err == nil {
				l = "pv " + m
			}
		}
		fmt.Fprintf(&b, "info         %s\n", l)
	}
	for _, l := range a.info.Logs {
		fmt.Fprintf(&b, "log          %s\n", l)
	}
	for _, l := range a.info.Other {
		fmt.Fprintf(&b, "other        %s\n", l)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
