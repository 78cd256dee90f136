package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/match"
	"github.com/arimaalab/arimaalab/progress"
	"github.com/arimaalab/arimaalab/selfplay"
)

// The files of a run directory that follow its progress.
const (
	// MetricsFile holds one JSON line (a Metric) per stage finished.
	MetricsFile = "metrics.jsonl"
	// LogFile is the run's log: the stages, the shards written, the
	// settings changed, the warnings (slog's text format).
	LogFile = "run.log"
)

// Metric is one line of metrics.jsonl: a stage that finished, what it made
// and how long it took. A stage interrupted and run again writes its line
// when it finishes; one that was already done writes none.
type Metric struct {
	Time       time.Time `json:"time"`
	Generation int       `json:"generation"`
	Stage      string    `json:"stage"`
	Seconds    float64   `json:"seconds"`
	// Counts are games, rows, shards, pairings, players.
	Counts map[string]int64 `json:"counts,omitempty"`
	// Losses are the training measures (train_logloss, val_logloss,
	// fixed_val_logloss, ...).
	Losses map[string]float64 `json:"losses,omitempty"`
	// Scores are match and self-play outcomes: a gate's score and Elo, the
	// share of Gold's wins, the pool's ratings ("elo_gen3").
	Scores map[string]float64 `json:"scores,omitempty"`
}

// AppendMetric appends m as a line of the run's metrics.jsonl, in one write,
// synced.
func AppendMetric(out string, m Metric) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(out, MetricsFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadMetrics reads the run's metrics.jsonl (none: no lines). A last line cut
// short by a crash is left out.
func ReadMetrics(out string) ([]Metric, error) {
	path := filepath.Join(out, MetricsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(b, '\n'); i+1 < len(b) {
		b = b[:i+1]
	}
	var ms []Metric
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var m Metric
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return ms, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		ms = append(ms, m)
	}
	return ms, sc.Err()
}

// SelfPlayStats describes the games of a self-play directory.
type SelfPlayStats struct {
	Shards int   `json:"shards"`
	Games  int   `json:"games"`
	Rows   int64 `json:"rows"`
	// MeanTurns is the mean game length in turns of one side (rows per game).
	MeanTurns float64 `json:"mean_turns"`
	// GoldWins, SilverWins and Unfinished count the games by outcome;
	// GoldShare is Gold's share of the decided games.
	GoldWins   int     `json:"gold_wins"`
	SilverWins int     `json:"silver_wins"`
	Unfinished int     `json:"unfinished"`
	GoldShare  float64 `json:"gold_share"`
}

// selfPlayStats reads the games of the shards in dir (none: zero stats).
func selfPlayStats(dir string) (SelfPlayStats, error) {
	var s SelfPlayStats
	r, err := data.Open(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return s, nil
		}
		return s, err
	}
	defer r.Close()
	s.Shards = len(r.Files())
	seen := map[uint64]bool{}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return s, err
		}
		c, err := data.ColumnsOf(rec)
		if err != nil {
			return s, err
		}
		for i := range c.Len {
			s.Rows++
			id := c.GameID[i]
			if seen[id] {
				continue
			}
			seen[id] = true
			s.Games++
			// The result is the side to move's: Gold won when Gold's
			// rows say +1 or Silver's say -1.
			res := c.Result[i]
			if c.Side[i] == 1 {
				res = -res
			}
			switch res {
			case 1:
				s.GoldWins++
			case -1:
				s.SilverWins++
			default:
				s.Unfinished++
			}
		}
	}
	if s.Games > 0 {
		s.MeanTurns = float64(s.Rows) / float64(s.Games)
	}
	if d := s.GoldWins + s.SilverWins; d > 0 {
		s.GoldShare = float64(s.GoldWins) / float64(d)
	}
	return s, nil
}

// stageMetric measures a finished stage from what it wrote in the run
// directory, so that any process that ran it can.
func stageMetric(ctx context.Context, c Config, g int, stage string, start time.Time) (Metric, error) {
	m := Metric{Time: time.Now().UTC().Truncate(time.Millisecond), Generation: g, Stage: stage,
		Seconds: math.Round(time.Since(start).Seconds()*1000) / 1000}
	switch stage {
	case StageSelfPlay:
		s, err := selfPlayStats(filepath.Join(genDir(c.Out, g), "selfplay"))
		if err != nil {
			return m, err
		}
		m.Counts = map[string]int64{"shards": int64(s.Shards), "games": int64(s.Games), "rows": s.Rows,
			"gold_wins": int64(s.GoldWins), "silver_wins": int64(s.SilverWins), "unfinished": int64(s.Unfinished)}
		m.Scores = map[string]float64{"gold_share": s.GoldShare, "mean_turns": s.MeanTurns}
	case StageTrain:
		w, err := loadWeights(filepath.Join(genDir(c.Out, g), "candidate.json"))
		if err != nil {
			return m, err
		}
		m.Counts = map[string]int64{}
		m.Losses = map[string]float64{}
		for k, v := range w.Lineage.Metrics {
			switch k {
			case "train_rows", "val_rows", "iterations":
				m.Counts[k] = int64(v)
			default:
				m.Losses[k] = v
			}
		}
		val, _, err := fixedValidation(ctx, c)
		if err != nil {
			return m, err
		}
		if val != nil {
			ll, err := logLoss(ctx, val, w)
			if err != nil {
				return m, err
			}
			m.Losses["fixed_val_logloss"] = ll
		}
	case StageGate:
		var d Decision
		if err := readJSON(filepath.Join(genDir(c.Out, g), "decision.json"), &d); err != nil {
			return m, err
		}
		promoted := 0.0
		if d.Promoted {
			promoted = 1
		}
		m.Counts = map[string]int64{"games": int64(d.Games), "wins": int64(d.Wins), "losses": int64(d.Losses), "draws": int64(d.Draws)}
		m.Scores = map[string]float64{"score": d.Score, "elo": d.Elo, "elo_low": d.EloLow, "elo_high": d.EloHigh,
			"promoted": promoted, "best": float64(d.Best)}
	case StagePool:
		var t match.RatingTable
		if err := readJSON(filepath.Join(c.Out, "pool", "ratings.json"), &t); err != nil {
			return m, err
		}
		m.Counts = map[string]int64{"games": int64(t.Games), "players": int64(len(t.Players)), "pairings": int64(len(t.Pairings))}
		m.Scores = map[string]float64{}
		for _, p := range t.Players {
			m.Scores["elo_"+p.Name] = p.Elo
		}
	}
	return m, nil
}

// openRunLog opens the run's log file (run.log, appended) and returns a
// logger that writes to it (at info level) and to log, and the function that
// closes the file.
func openRunLog(c Config, log *slog.Logger) (*slog.Logger, func() error, error) {
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(filepath.Join(c.Out, LogFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	h := slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo})
	return slog.New(slog.NewMultiHandler(log.Handler(), h)), f.Close, nil
}

// stageDone records a finished stage: a line in the run's log, a line of
// metrics.jsonl, and a plain summary line on w when w is not a terminal.
func stageDone(ctx context.Context, c Config, w io.Writer, log *slog.Logger, g int, stage string, start time.Time) error {
	m, err := stageMetric(ctx, c, g, stage, start)
	if err != nil {
		return fmt.Errorf("metrics of generation %d %s: %w", g, stage, err)
	}
	args := []any{"generation", g, "stage", stage, "seconds", m.Seconds}
	for _, k := range sortedKeys(m.Counts) {
		args = append(args, k, m.Counts[k])
	}
	for _, k := range sortedKeys(m.Losses) {
		args = append(args, k, m.Losses[k])
	}
	if stage != StagePool {
		for _, k := range sortedKeys(m.Scores) {
			args = append(args, k, m.Scores[k])
		}
	}
	log.Info("stage finished", args...)
	plainf(w, "%s", summaryLine(m))
	return AppendMetric(c.Out, m)
}

// plainf writes a plain progress line on w, with the time, unless w is nil
// or a terminal (where progress bars show instead).
func plainf(w io.Writer, format string, a ...any) {
	if w == nil || progress.IsTerminal(w) {
		return
	}
	fmt.Fprintf(w, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, a...))
}

// selfPlayProgress returns the progress callback of generation g's
// self-play, showing on w a bar (games, rows, time left) on a terminal and
// otherwise a line per shard played, and the function that ends the bar.
func selfPlayProgress(c Config, g int, w io.Writer) (func(selfplay.Progress), func()) {
	if w == nil {
		return nil, func() {}
	}
	desc := fmt.Sprintf("gen %d self-play", g)
	term := progress.IsTerminal(w)
	_, _, rangeOf := selfplay.Plan(c.SelfPlay, 0, 0)
	var mu sync.Mutex
	var bar *progress.Bar
	shardGames := map[int]int{}
	cb := func(p selfplay.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if term {
			if bar == nil {
				bar = progress.New(w, int64(p.GamesTotal), desc, false)
			}
			bar.Describe(fmt.Sprintf("%s, %d rows", desc, p.Turns))
			bar.Set(int64(p.GamesDone))
			return
		}
		shardGames[p.Shard]++
		if lo, hi := rangeOf(p.Shard); shardGames[p.Shard] == hi-lo {
			plainf(w, "%s: shard %d played (%d games); %d of %d games, %d rows", desc, p.Shard, hi-lo, p.GamesDone, p.GamesTotal, p.Turns)
		}
	}
	return cb, func() {
		mu.Lock()
		defer mu.Unlock()
		bar.Finish()
	}
}

// gateProgress returns the progress callback of generation g's gate,
// showing on w a bar (games, score, time left) on a terminal and otherwise a
// line at each quarter of the games, and the function that ends the bar.
func gateProgress(g int, w io.Writer) (func(*match.Result), func()) {
	if w == nil {
		return nil, func() {}
	}
	desc := fmt.Sprintf("gen %d gate", g)
	var bar *progress.Bar
	term, quarter := progress.IsTerminal(w), -1
	cb := func(r *match.Result) {
		n := r.Stats.Games()
		if !term {
			if q := 4 * n / max(r.Games, 1); q > quarter {
				if quarter >= 0 && n > 0 && q < 4 {
					plainf(w, "%s: %d of %d games, score %.3f", desc, n, r.Games, r.Stats.Points()/float64(n))
				}
				quarter = q
			}
			return
		}
		if bar == nil {
			bar = progress.New(w, int64(r.Games), desc, false)
		}
		if n := r.Stats.Games(); n > 0 {
			bar.Describe(fmt.Sprintf("%s, score %.2f", desc, r.Stats.Points()/float64(n)))
		}
		bar.Set(int64(r.Stats.Games()))
	}
	return cb, func() { bar.Finish() }
}

// poolProgress returns the progress callback of the rating pool, showing on
// w a bar (games, time left) on a terminal and otherwise a line per pairing
// played and at each tenth of the games, and the function that ends the bar.
func poolProgress(c Config, w io.Writer) (func(done, total int, last match.GameResult), func()) {
	if w == nil {
		return nil, func() {}
	}
	term := progress.IsTerminal(w)
	var bar *progress.Bar
	perPairing := map[int]int{}
	games := c.Pool.GamesPerPair + c.Pool.GamesPerPair%2
	tenth := -1
	cb := func(done, total int, last match.GameResult) {
		if term {
			if bar == nil {
				bar = progress.New(w, int64(total), "pool", false)
			}
			bar.Set(int64(done))
			return
		}
		perPairing[last.Pairing]++
		switch t := 10 * done / max(total, 1); {
		case perPairing[last.Pairing] == games:
			plainf(w, "pool: %s vs %s played; %d of %d games", last.A, last.B, done, total)
			tenth = t
		case t > tenth && tenth >= 0 && t < 10:
			plainf(w, "pool: %d of %d games", done, total)
			tenth = t
		default:
			tenth = max(tenth, t)
		}
	}
	return cb, func() { bar.Finish() }
}

// summaryLine says in a few words what a finished stage made.
func summaryLine(m Metric) string {
	head := fmt.Sprintf("gen %d %s done in %.0f s", m.Generation, m.Stage, m.Seconds)
	switch m.Stage {
	case StageSelfPlay:
		return fmt.Sprintf("%s: %d games, %d rows, %.1f turns a game, Gold won %.0f%%", head,
			m.Counts["games"], m.Counts["rows"], m.Scores["mean_turns"], 100*m.Scores["gold_share"])
	case StageTrain:
		return fmt.Sprintf("%s: %d rows, log-loss %.4f on them, %.4f held out, %.4f on the fixed validation set", head,
			m.Counts["train_rows"], m.Losses["train_logloss"], m.Losses["val_logloss"], m.Losses["fixed_val_logloss"])
	case StageGate:
		verdict := "rejected"
		if m.Scores["promoted"] == 1 {
			verdict = "promoted"
		}
		return fmt.Sprintf("%s: score %.3f over %d games, Elo %s [%s, %s]: %s", head, m.Scores["score"], m.Counts["games"],
			eloText(m.Scores["elo"]), eloText(m.Scores["elo_low"]), eloText(m.Scores["elo_high"]), verdict)
	case StagePool:
		return fmt.Sprintf("pool done in %.0f s: %d players, %d games", m.Seconds, m.Counts["players"], m.Counts["games"])
	}
	return head
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
