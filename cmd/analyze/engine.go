package main

import (
	"context"
	"flag"
	"fmt"
	"io"
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
// (this project's engine knows them; others log a warning).
func bestEngine(e env, cmdline string, pos engine.Position, fs *flag.FlagSet, sf *searchFlags) error {
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

	ctx := context.Background()
	c, err := aei.StartCommand(ctx, cmdline, aei.Options{Stderr: e.stderr})
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
	if err := c.SetPosition(pos); err != nil {
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
	return printEngineBest(e.stdout, c.Ident(), pos, move, info, elapsed)
}

// printEngineBest writes an engine's answer for pos for people: who answered,
// the move, the time it took, then every info and log message it sent.
func printEngineBest(w io.Writer, id aei.Ident, pos engine.Position, move string, info aei.Info, elapsed time.Duration) error {
	var b strings.Builder
	name := id.Name
	if id.Version != "" {
		name += " " + id.Version
	}
	if id.Author != "" {
		name += " by " + id.Author
	}
	fmt.Fprintf(&b, "engine       %s\n", name)
	fmt.Fprintf(&b, "position     %s\n", pos.String())
	fmt.Fprintf(&b, "move         %s\n", move)
	fmt.Fprintf(&b, "time         %.3f s\n", elapsed.Seconds())
	for _, l := range info.Lines {
		fmt.Fprintf(&b, "info         %s\n", l)
	}
	for _, l := range info.Logs {
		fmt.Fprintf(&b, "log          %s\n", l)
	}
	for _, l := range info.Other {
		fmt.Fprintf(&b, "other        %s\n", l)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
