package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/judge"
)

// judgeFlags are the flags of the verbs that ask a reference AEI engine (the
// judge) to score positions: regret and label.
type judgeFlags struct {
	command *string
	options *[][2]string
	unit    *float64
	clamp   *float64
	timeout *time.Duration
}

// defineJudgeFlags defines -engine, -option, -unit, -clamp and -timeout on fs.
func defineJudgeFlags(fs *flag.FlagSet) judgeFlags {
	return judgeFlags{
		command: fs.String("engine", "", "the judge: the AEI engine that `COMMAND` starts, such as '../shared/opponents/sharp aei' (required)"),
		options: optionFlag(fs, "the judge"),
		unit: fs.Float64("unit", 0, "the judge's `UNITS` per rabbit (0: 100 for an info score, the protocol's centi-rabbits;\n"+
			"1000 for the Eval of Sharp's log line \"Depth D Eval V\", in milli-rabbits)"),
		clamp:   fs.Float64("clamp", judge.DefaultClamp, "bound the judge's scores to +-`RABBITS` (a win or loss counts as this much)"),
		timeout: fs.Duration("timeout", time.Minute, "the judge's deadline for each position, a `DURATION`"),
	}
}

// check returns a usage error for a missing engine or a value out of range.
func (f judgeFlags) check() error {
	switch {
	case *f.command == "":
		return usageError("-engine is required (the judge, such as '../shared/opponents/sharp aei')")
	case *f.unit < 0:
		return usageError("-unit must not be negative")
	case *f.clamp <= 0:
		return usageError("-clamp must be positive")
	case *f.timeout <= 0:
		return usageError("-timeout must be positive")
	}
	return nil
}

// judgeOptions returns the settings of judge.Start that the flags give,
// with a the controller's options.
func (f judgeFlags) judgeOptions(a aei.Options) judge.Options {
	return judge.Options{
		Command: *f.command, Options: *f.options, Unit: *f.unit, Clamp: *f.clamp,
		MoveTimeout: *f.timeout, AEI: a,
	}
}

// optionFlag defines -option NAME=VALUE, repeatable, on fs: the setoption
// commands sent to an engine (whose), in order.
func optionFlag(fs *flag.FlagSet, whose string) *[][2]string {
	var opts [][2]string
	fs.Func("option", "send `NAME=VALUE` to "+whose+" as setoption name NAME value VALUE (repeatable);\n"+
		"Sharp: -option depth=4 -option ignoretc=true -option hash=16 (its default hash makes each position take seconds)", func(s string) error {
		name, value, ok := strings.Cut(s, "=")
		if !ok || name == "" {
			return fmt.Errorf("%q is not NAME=VALUE", s)
		}
		opts = append(opts, [2]string{name, value})
		return nil
	})
	return &opts
}

// startJudges starts n copies of the judge the flags name, its errors
// logged to stderr, and returns them, as engines and as judges, with the
// function that closes them all (those started before an error are closed
// already).
func (f judgeFlags) startJudges(ctx context.Context, n int, stderr io.Writer) ([]*judge.Engine, []judge.Judge, func(), error) {
	opt := f.judgeOptions(aei.Options{Stderr: io.Discard, Logger: slog.New(slog.NewTextHandler(stderr, nil))})
	var engines []*judge.Engine
	closeAll := func() {
		for _, j := range engines {
			j.Close()
		}
	}
	for range n {
		j, err := judge.Start(ctx, opt)
		if err != nil {
			closeAll()
			return nil, nil, func() {}, fmt.Errorf("-engine: %w", err)
		}
		engines = append(engines, j)
	}
	judges := make([]judge.Judge, len(engines))
	for i, j := range engines {
		judges[i] = j
	}
	return engines, judges, closeAll, nil
}

// textReport is a report that prints itself for people.
type textReport interface {
	WriteText(w io.Writer) error
}

// writeReport prints r to w: as one indented JSON object when asJSON,
// otherwise as its text.
func writeReport(w io.Writer, asJSON bool, r textReport) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return r.WriteText(w)
}
