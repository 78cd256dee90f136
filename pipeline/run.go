package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/match"
	"github.com/arimaalab/arimaalab/rating"
	"github.com/arimaalab/arimaalab/selfplay"
	"github.com/arimaalab/arimaalab/train"
	"github.com/arimaalab/arimaalab/weights"
)

// Layout of a run directory:
//
//	RUN/gen=0000/weights.json          generation 0 (the embedded hand-set weights)
//	RUN/gen=0000/selfplay/shard-*.arrow self-play of the best weights of generation 0
//	RUN/gen=0001/candidate.json        trained on the window of recent self-play
//	RUN/gen=0001/gate/                 the candidate against the best (games, results)
//	RUN/gen=0001/decision.json         the gate's verdict
//	RUN/gen=0001/weights.json          the best weights after generation 1
//	...
//	RUN/pool/                          the final rating pool (ratings.md, .json, .png)
//	RUN/report.md, report.json, report.png

// genDir returns the directory of generation g.
func genDir(out string, g int) string { return filepath.Join(out, fmt.Sprintf("gen=%04d", g)) }

// Decision is the outcome of a generation's gate, stored as decision.json.
type Decision struct {
	Generation int     `json:"generation"`
	Promoted   bool    `json:"promoted"`
	Best       int     `json:"best"` // the generation whose weights are the best after this one
	Games      int     `json:"games"`
	Score      float64 `json:"score"`
	Elo        float64 `json:"elo"` // clamped to ±2000 (all games won or lost)
	EloLow     float64 `json:"elo_low"`
	EloHigh    float64 `json:"elo_high"`
	Verdict    string  `json:"verdict,omitempty"`
	Wins       int     `json:"wins"`
	Losses     int     `json:"losses"`
	Draws      int     `json:"draws"`
}

// Stage reports the progress of a run, one call per stage started.
type Stage struct {
	Generation int
	Name       string // "self-play", "train", "gate", "pool", "report"
	Skipped    bool   // its output was already complete
}

// Options are what a run needs besides its config.
type Options struct {
	// Stages, when set, is told of every stage.
	Stages func(Stage)
	// Progress receives the stages' progress bars (nil: none).
	Progress io.Writer
	// Log receives warnings (nil: slog's default logger).
	Log *slog.Logger
	// Claim is the caller's claim on the run directory (see ClaimRun), which
	// the caller releases. When nil, Run claims the directory itself
	// (TakeOver as in ClaimRun) and releases it when it returns.
	Claim *data.Claim
	// TakeOver takes over the run's claim and its shards' claims whatever
	// their owner (for a pipeline on another host known to be gone).
	TakeOver bool
}

// Run runs (or continues) the generation loop of c and writes the report.
// It holds the claim of the run directory (ClaimFile) from start to end: a
// second pipeline on the directory is refused with a *ClaimError naming the
// first, and the claim of a pipeline killed on this host is taken over.
// With c.Scheduler "slurm" the stages run as Slurm jobs (see runSlurm).
func Run(ctx context.Context, c Config, opt Options) (*Report, error) {
	// One pipeline at a time runs a directory, through every stage.
	if opt.Claim == nil {
		claim, err := ClaimRun(c.Out, opt.TakeOver)
		if err != nil {
			return nil, err
		}
		defer claim.Release()
	} else if err := holdsRun(opt.Claim, c.Out); err != nil {
		return nil, err
	}
	log := opt.Log
	if log == nil {
		log = slog.Default()
	}
	// The run's log file, and its settings: refused when they would change
	// what it has written, else saved as config.yaml.
	log, closeLog, err := openRunLog(c, log)
	if err != nil {
		return nil, err
	}
	defer closeLog()
	if c, err = settle(c, log); err != nil {
		return nil, err
	}
	if c.Scheduler == SchedulerSlurm {
		opt.Log = log // the run's log file too
		return runSlurm(ctx, c, opt)
	}
	log.Info("run started", "out", c.Out, "generations", c.Generations)
	done := func(g int, name string, start time.Time) error {
		return stageDone(ctx, c, opt.Progress, log, g, name, start)
	}
	stage := func(g int, name string, skipped bool) {
		if opt.Stages != nil {
			opt.Stages(Stage{g, name, skipped})
		}
	}
	if err := initRun(c); err != nil {
		return nil, err
	}
	for g := 1; g <= c.Generations; g++ {
		// 1. Self-play of the best weights of generation g-1.
		spDone := selfPlayDone(c.SelfPlay, filepath.Join(genDir(c.Out, g-1), "selfplay"))
		stage(g-1, StageSelfPlay, spDone)
		if !spDone {
			start := time.Now()
			progress, finish := selfPlayProgress(c, g-1, opt.Progress)
			_, err := selfPlayStage(ctx, c, g-1, -1, 0, opt.TakeOver, log, progress)
			finish()
			if err != nil {
				return nil, fmt.Errorf("generation %d self-play: %w", g-1, err)
			}
			if err := done(g-1, StageSelfPlay, start); err != nil {
				return nil, err
			}
		}
		// 2. A candidate trained on the window of recent generations.
		trained := exists(filepath.Join(genDir(c.Out, g), "candidate.json"))
		stage(g, StageTrain, trained)
		if !trained {
			start := time.Now()
			if err := trainStage(ctx, c, g, 0, opt.Progress); err != nil {
				return nil, fmt.Errorf("generation %d training: %w", g, err)
			}
			if err := done(g, StageTrain, start); err != nil {
				return nil, err
			}
		}
		// 3. The gate: the candidate against the best so far, and promotion.
		gated := exists(filepath.Join(genDir(c.Out, g), "decision.json"))
		stage(g, StageGate, gated)
		start := time.Now()
		if _, err := gateStage(ctx, c, g, 0, log, opt.Progress); err != nil {
			return nil, fmt.Errorf("generation %d gate: %w", g, err)
		}
		if !gated {
			if err := done(g, StageGate, start); err != nil {
				return nil, err
			}
		}
	}
	// 4. A pool of the best weights of every generation, rated together
	// (with the external anchors), and the report.
	rated := poolDone(c)
	stage(c.Generations, StagePool, rated)
	start := time.Now()
	rep, err := poolStage(ctx, c, 0, log, opt.Progress)
	if err != nil {
		return nil, err
	}
	if !rated {
		if err := done(c.Generations, StagePool, start); err != nil {
			return nil, err
		}
	}
	log.Info("report written", "best", rep.Best, "pool_best", rep.PoolBest)
	return rep, nil
}

// selfPlayDone reports whether every shard of a self-play stage is written.
func selfPlayDone(c selfplay.Config, dir string) bool {
	_, n, _ := selfplay.Plan(c, 0, 0)
	for i := range n {
		if !exists(selfplay.ShardPath(dir, i)) {
			return false
		}
	}
	return true
}

// trainCandidate fits the candidate of generation g on the self-play of
// generations g-window to g-1, starting from the best weights.
func trainCandidate(ctx context.Context, c Config, g int, init *weights.Weights, out string, threads int, progress io.Writer) error {
	target, err := train.ParseTarget(c.Train.Target)
	if err != nil {
		return err
	}
	o := train.DefaultOptions()
	o.Target = target
	o.Val = c.Train.Val
	o.Seed = splitSeed(c) // the same split every generation: see fixedValidation
	o.CheapWeight = c.Train.CheapWeight
	o.L2 = c.Train.L2
	o.L2ToInit = c.Train.L2ToInit
	o.Fix = c.Train.Fix
	o.Init = init
	o.Progress = progress
	o.Threads = threads
	o.Notes = fmt.Sprintf("pipeline %s, generation %d", c.Out, g)
	for k := max(0, g-c.Train.Window); k < g; k++ {
		o.Data = append(o.Data, filepath.Join(genDir(c.Out, k), "selfplay"))
	}
	res, err := train.Run(ctx, o)
	if err != nil {
		return err
	}
	res.Weights.Generation = g
	return res.Weights.Save(out)
}

// gate plays the candidate of generation g against the best weights (of
// generation best, in file prev) and decides on the promotion.
func gate(ctx context.Context, c Config, g, best int, cand, prev string, concurrency int, log *slog.Logger, progress io.Writer) (Decision, error) {
	cw, err := loadWeights(cand)
	if err != nil {
		return Decision{}, err
	}
	bw, err := loadWeights(prev)
	if err != nil {
		return Decision{}, err
	}
	a, err := match.NewSearchPlayer(fmt.Sprintf("gen%d", g), cw, c.Gate.Search)
	if err != nil {
		return Decision{}, err
	}
	defer a.Close()
	b, err := match.NewSearchPlayer(fmt.Sprintf("gen%d", best), bw, c.Gate.Search)
	if err != nil {
		return Decision{}, err
	}
	defer b.Close()
	mo := match.Options{
		Games: c.Gate.Games, Concurrency: concurrency, Seed: c.Seed*7919 + uint64(g), MaxTurns: c.Gate.MaxTurns,
		Setups: match.DefaultSetups(), Out: filepath.Join(genDir(c.Out, g), "gate"), Resume: true, Log: log,
	}
	if c.Gate.SPRT != "" {
		t, err := rating.ParseSPRT(c.Gate.SPRT, rating.Logistic)
		if err != nil {
			return Decision{}, err
		}
		mo.SPRT = &t
	}
	var finish func()
	mo.Progress, finish = gateProgress(g, progress)
	res, err := match.Run(ctx, a, b, mo)
	finish()
	if err != nil {
		return Decision{}, err
	}
	est := res.Stats.Pentanomial()
	d := Decision{
		Generation: g, Games: res.Stats.Games(), Score: est.Score, Elo: clampElo(est.Elo),
		EloLow: clampElo(est.EloLow), EloHigh: clampElo(est.EloHigh),
		Wins: res.Stats.Wins, Losses: res.Stats.Losses, Draws: res.Stats.Draws,
	}
	if mo.SPRT != nil {
		d.Verdict = res.Verdict.String()
		d.Promoted = res.Verdict == rating.AcceptH1 || (res.Verdict == rating.Continue && est.Score > c.Gate.PromoteScore)
	} else {
		d.Promoted = est.Score > c.Gate.PromoteScore
	}
	d.Best = best
	if d.Promoted {
		d.Best = g
	}
	return d, nil
}

// maxElo stands for an unbounded Elo estimate (every game won or lost), which
// JSON cannot hold as infinity.
const maxElo = 2000

func clampElo(x float64) float64 { return max(-maxElo, min(maxElo, x)) }

// ratePool plays generation 0, the candidate of every generation (promoted
// or not) and the external anchors against each other and fits their
// ratings, the first anchor (else generation 0) rated 0. A pool of fewer
// generations or anchors played before is extended: its games are kept and
// only the new pairings played.
func ratePool(ctx context.Context, c Config, concurrency int, log *slog.Logger, progress io.Writer) (*match.PoolResult, error) {
	var players []match.Player
	defer func() {
		for _, p := range players {
			p.Close()
		}
	}()
	for g := 0; g <= c.Generations; g++ {
		file := filepath.Join(genDir(c.Out, g), "candidate.json")
		if g == 0 {
			file = filepath.Join(genDir(c.Out, 0), "weights.json")
		}
		w, err := loadWeights(file)
		if err != nil {
			return nil, err
		}
		p, err := match.NewSearchPlayer(fmt.Sprintf("gen%d", g), w, c.Pool.Search)
		if err != nil {
			return nil, err
		}
		players = append(players, p)
	}
	anchors, err := anchorPlayers(c)
	players = append(players, anchors...)
	if err != nil {
		return nil, err
	}
	zero := "gen0"
	if names := anchorNames(c); len(names) > 0 {
		zero = names[0]
	}
	cb, finish := poolProgress(c, progress)
	res, err := match.RunPool(ctx, players, match.PoolOptions{
		GamesPerPair: c.Pool.GamesPerPair, Concurrency: concurrency, Seed: c.Seed*104729 + 1, MaxTurns: c.Pool.MaxTurns,
		Setups: match.DefaultSetups(), Out: filepath.Join(c.Out, "pool"), Resume: true, Extend: true, Log: log,
		Anchor: zero, Fit: rating.FitOptions{Prior: 1}, Progress: cb,
	})
	finish()
	if err != nil {
		return nil, err
	}
	if err := res.WriteFiles(filepath.Join(c.Out, "pool")); err != nil {
		return nil, err
	}
	return res, nil
}

func progressFunc(w io.Writer, desc string) func(selfplay.Progress) {
	if w == nil {
		return nil
	}
	var last int
	return func(p selfplay.Progress) {
		if p.GamesDone*10/max(p.GamesTotal, 1) != last {
			last = p.GamesDone * 10 / max(p.GamesTotal, 1)
			fmt.Fprintf(w, "%s: %d/%d games\n", desc, p.GamesDone, p.GamesTotal)
		}
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func loadWeights(path string) (*weights.Weights, error) {
	w, err := weights.Load(path)
	if err != nil {
		return nil, err
	}
	return w, w.Check()
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// writeJSON writes v to path through a temporary file.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(b, '\n'))
}

// writeFile writes b to path+".tmp", syncs it and renames it to path.
func writeFile(path string, b []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// dataRows returns the rows of a self-play directory (0 when absent).
func dataRows(dir string) (int64, error) {
	r, err := data.Open(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil
		}
		return 0, err
	}
	defer r.Close()
	return r.Rows(), nil
}
