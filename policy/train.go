package policy

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/arimaalab/arimaalab/engine"
)

// TrainOptions are the settings of Train.
type TrainOptions struct {
	// Archives are game files in the arimaa.com archive format.
	Archives []string
	// Shards are self-play datasets (shard files, directories or globs):
	// their full searches' visit distributions (the policy column).
	Shards []string
	// Players are patterns (path.Match) of the player names whose moves
	// are learned; empty means every player.
	Players []string
	// Val is the share of the games held out to score the fit, in [0, 1).
	Val float64
	// Seed draws the games held out.
	Seed uint64
	// Fit holds the fit's settings.
	Fit FitOptions
}

// Report describes a fit: the data and the scores of the fitted and the
// uniform priors on the decisions fitted and held out.
type Report struct {
	// Games and Moves count the archive games and moves fitted (with the
	// self-play games and moves), HeldGames and HeldMoves those held out.
	Games, Moves, HeldGames, HeldMoves int
	// Rows and HeldRows count the self-play rows (positions) used.
	Rows, HeldRows int
	// Train and Held score the fitted model on the decisions fitted and held out.
	Train, Held Score
}

// WriteTo writes the report as a small table.
func (r *Report) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "games %d (moves %d) fitted, %d (moves %d) held out\n", r.Games, r.Moves, r.HeldGames, r.HeldMoves)
	if r.Rows+r.HeldRows > 0 {
		fmt.Fprintf(&b, "self-play positions %d fitted, %d held out (moves weighted by their share of the visits)\n", r.Rows, r.HeldRows)
	}
	b.WriteString("\n")
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rows\tdecisions\tlog-likelihood\tuniform\tchoice first\t")
	row := func(name string, s Score) {
		if s.Decisions == 0 {
			return
		}
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%.1f %%\t\n", name, s.Decisions, s.LogLik, s.UniformLogLik, 100*s.Top1)
	}
	row("fitted", r.Train)
	row("held out", r.Held)
	tw.Flush()
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// Train reads the archives, keeps the moves of the players asked for, and
// the self-play shards' visit distributions, holds out a share of the games,
// fits the step model on the rest and scores it on both. Errors name the file, and the game and turn of a record that does not
// replay.
func Train(ctx context.Context, opt TrainOptions) (*Weights, *Report, error) {
	if !(opt.Val >= 0 && opt.Val < 1) {
		return nil, nil, fmt.Errorf("policy: held-out share %v: want 0 to 1 (less than 1)", opt.Val)
	}
	for _, p := range opt.Players {
		if _, err := path.Match(p, ""); err != nil {
			return nil, nil, fmt.Errorf("policy: player pattern %q: %w", p, err)
		}
	}
	keep := func(name string) bool {
		if len(opt.Players) == 0 {
			return true
		}
		for _, p := range opt.Players {
			if ok, _ := path.Match(p, name); ok {
				return true
			}
		}
		return false
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x9011c7))
	var fit, held Examples
	rep := &Report{}
	for _, file := range opt.Archives {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		f, err := os.Open(file)
		if err != nil {
			return nil, nil, fmt.Errorf("policy: %w", err)
		}
		recs, err := engine.ReadArchive(f, file)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("policy: %w", err)
		}
		for _, rec := range recs {
			ex, games, moves := &fit, &rep.Games, &rep.Moves
			if rng.Float64() < opt.Val {
				ex, games, moves = &held, &rep.HeldGames, &rep.HeldMoves
			}
			n, err := ex.AddRecord(rec, keep)
			if err != nil {
				return nil, nil, fmt.Errorf("policy: %s: %w", file, err)
			}
			if n > 0 {
				*games++
				*moves += n
			}
		}
	}
	if len(opt.Shards) > 0 {
		if err := addShards(ctx, opt.Shards, opt.Val, opt.Seed, &fit, &held, rep); err != nil {
			return nil, nil, err
		}
	}
	if fit.Len() == 0 {
		return nil, nil, fmt.Errorf("policy: no moves of the players %q in %s", playersText(opt.Players), strings.Join(append(slices.Clone(opt.Archives), opt.Shards...), " "))
	}
	w, err := Fit(ctx, &fit, opt.Fit)
	if err != nil {
		return nil, nil, err
	}
	rep.Train = Evaluate(w, &fit)
	rep.Held = Evaluate(w, &held)
	w.Notes = fmt.Sprintf("fitted on %d moves of %d games (players %s) from %s; held out %d moves: log-likelihood %.4f a decision (uniform %.4f), choice first %.1f %%",
		rep.Moves, rep.Games, playersText(opt.Players), strings.Join(baseNames(append(slices.Clone(opt.Archives), opt.Shards...)), " "), rep.HeldMoves, rep.Held.LogLik, rep.Held.UniformLogLik, 100*rep.Held.Top1)
	return w, rep, nil
}

func playersText(p []string) string {
	if len(p) == 0 {
		return "all"
	}
	return strings.Join(p, ",")
}

// baseNames returns the base names of files, the first three and a count
// of the others when there are more than four.
func baseNames(files []string) []string {
	out := make([]string, 0, 4)
	for i, f := range files {
		if i == 3 && len(files) > 4 {
			return append(out, fmt.Sprintf("and %d more", len(files)-3))
		}
		out = append(out, path.Base(f))
	}
	return out
}
