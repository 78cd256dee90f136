package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/selfplay"
)

// The stages of a generation, each a function of the run directory alone, so
// that the local loop (Run) and a batch scheduler's jobs (RunJob) run the very
// same code with the same seeds and write the same bytes.

// Stage names, as Stage.Name and Job.Stage.
const (
	StageSelfPlay = "self-play"
	StageTrain    = "train"
	StageGate     = "gate"
	StagePool     = "pool"
	StageReport   = "report"
)

// initRun creates the run directory and writes generation 0's weights (the
// embedded hand-set ones) unless they are there.
func initRun(c Config) error {
	if err := os.MkdirAll(genDir(c.Out, 0), 0o755); err != nil {
		return err
	}
	w0 := filepath.Join(genDir(c.Out, 0), "weights.json")
	if exists(w0) {
		return nil
	}
	gen0, err := configs.Gen0()
	if err != nil {
		return err
	}
	return gen0.Save(w0)
}

// selfPlaySeed is the run seed of generation g's self-play.
func selfPlaySeed(c Config, g int) uint64 { return c.Seed*1_000_003 + uint64(g) }

// selfPlayStage plays the self-play of generation g's best weights: every
// shard (shard -1) or one. workers 0 means the config's, or one per core.
func selfPlayStage(ctx context.Context, c Config, g, shard, workers int, takeOver bool, log *slog.Logger, progress func(selfplay.Progress)) (*selfplay.Summary, error) {
	bestW, err := loadWeights(filepath.Join(genDir(c.Out, g), "weights.json"))
	if err != nil {
		return nil, err
	}
	return selfplay.Run(ctx, c.SelfPlay, selfplay.Options{
		Out: filepath.Join(genDir(c.Out, g), "selfplay"), Seed: selfPlaySeed(c, g), Shard: shard,
		Workers: workers, Weights: bestW, Log: log, Progress: progress, TakeOver: takeOver,
	})
}

// trainStage fits the candidate of generation g (candidate.json) from the
// best weights of generation g-1, unless it is written. threads 0 means one
// per core; the weights are the same bits for any number.
func trainStage(ctx context.Context, c Config, g, threads int, progress io.Writer) error {
	if err := os.MkdirAll(genDir(c.Out, g), 0o755); err != nil {
		return err
	}
	cand := filepath.Join(genDir(c.Out, g), "candidate.json")
	if exists(cand) {
		return nil
	}
	init, err := loadWeights(filepath.Join(genDir(c.Out, g-1), "weights.json"))
	if err != nil {
		return err
	}
	return trainCandidate(ctx, c, g, init, cand, threads, progress)
}

// bestBefore returns the generation whose weights are the best before
// generation g's gate: the verdict of generation g-1's, or 0 for g = 1.
func bestBefore(c Config, g int) (int, error) {
	if g <= 1 {
		return 0, nil
	}
	var d Decision
	if err := readJSON(filepath.Join(genDir(c.Out, g-1), "decision.json"), &d); err != nil {
		return 0, err
	}
	return d.Best, nil
}

// gateStage plays generation g's gate and promotes: it writes the best
// weights of generation g, then decision.json, last, which marks the stage
// done. A decision already written is read back. concurrency 0 means one game
// per core; the decision is the same for any number (unless an SPRT stops
// the gate, which depends on the order games finish in).
func gateStage(ctx context.Context, c Config, g, concurrency int, log *slog.Logger, progress io.Writer) (Decision, error) {
	var dec Decision
	decPath := filepath.Join(genDir(c.Out, g), "decision.json")
	if exists(decPath) {
		return dec, readJSON(decPath, &dec)
	}
	best, err := bestBefore(c, g)
	if err != nil {
		return dec, err
	}
	cand := filepath.Join(genDir(c.Out, g), "candidate.json")
	prev := filepath.Join(genDir(c.Out, g-1), "weights.json")
	dec, err = gate(ctx, c, g, best, cand, prev, concurrency, log, progress)
	if err != nil {
		return dec, err
	}
	// Promotion: the best weights of generation g, then the decision,
	// written last: a gate is complete only when its decision is.
	src := prev
	if dec.Promoted {
		src = cand
	}
	w, err := loadWeights(src)
	if err != nil {
		return dec, err
	}
	if err := w.Save(filepath.Join(genDir(c.Out, g), "weights.json")); err != nil {
		return dec, err
	}
	return dec, writeJSON(decPath, dec)
}

// poolStage rates generation 0 and every candidate in one pool and writes
// the report. concurrency 0 means one game per core.
func poolStage(ctx context.Context, c Config, concurrency int, log *slog.Logger, progress io.Writer) (*Report, error) {
	pool, err := ratePool(ctx, c, concurrency, log, progress)
	if err != nil {
		return nil, fmt.Errorf("rating pool: %w", err)
	}
	rep, err := buildReport(ctx, c, pool)
	if err != nil {
		return nil, err
	}
	if err := rep.write(c.Out); err != nil {
		return nil, err
	}
	return rep, nil
}
