// Command aei runs the project's bot, the Monte Carlo tree search with the
// linear evaluation, as an engine of the Arimaa Engine Interface (AEI,
// protocol-version 1) on standard input and output, for AEI controllers such as
// the AEI tools' roundrobin and gameroom, or analyze best -engine. It logs
// warnings to standard error.
//
// Usage:
//
//	aei [-weights FILE] [-config FILE] [-seed S]
//
// -weights names the evaluation weights (default: the embedded generation-0
// weights); -config a YAML file of search settings, the keys of mcts.Config
// (visits, time, threads, cpuct, fpu_reduction, priors, max_nodes, ...;
// unknown keys are errors); -seed seeds the setups (default: drawn from the
// clock). Besides the standard AEI options the engine takes weights (a weights
// file), threads and visits. See docs/aei.md.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/weights"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the command line args (without the program name) and returns the
// exit status: 0 after quit or the end of the input, 1 on errors, 2 for a wrong
// command line.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("aei", flag.ContinueOnError)
	fs.SetOutput(stderr)
	weightsPath := fs.String("weights", "", "evaluation weights `FILE` (default: the embedded generation-0 weights)")
	configPath := fs.String("config", "", "YAML `FILE` of search settings (the keys of mcts.Config)")
	seed := fs.Uint64("seed", 0, "`S` seeds the setups (default: drawn from the clock)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: aei [-weights FILE] [-config FILE] [-seed S]\n\nServe the Arimaa Engine Interface on stdin and stdout.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "aei: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return 2
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		fmt.Fprintf(stderr, "aei: -config: %v\n", err)
		return 1
	}
	var w *weights.Weights
	if *weightsPath != "" {
		if w, err = weights.Load(*weightsPath); err != nil {
			fmt.Fprintf(stderr, "aei: -weights: %v\n", err)
			return 1
		}
	}
	s := *seed
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		s = uint64(time.Now().UnixNano())
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	eng, err := aei.NewEngine(aei.Config{Search: cfg, Weights: w, Seed: s, Logger: logger})
	if err != nil {
		fmt.Fprintln(stderr, err) // "aei: ..."
		return 1
	}
	if err := eng.Run(ctx, stdin, stdout); err != nil && !errors.Is(err, context.Canceled) {
		logger.Error("aei: " + err.Error())
		return 1
	}
	return 0
}

// loadConfig reads the search settings of the YAML file path (none for "");
// unknown keys are errors.
func loadConfig(path string) (mcts.Config, error) {
	var cfg mcts.Config
	if path == "" {
		return cfg, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return cfg, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) { // an empty file is fine
		// One line: yaml lists its errors on lines of their own.
		return cfg, fmt.Errorf("%s: %s", path, strings.Join(strings.Fields(err.Error()), " "))
	}
	return cfg, nil
}
