package selfplay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/weights"
)

// Options says what to play and where to write it.
type Options struct {
	// Out is the directory of the shards (created if needed).
	Out string
	// Seed is the run seed: the same seed, shard and config give the same bytes.
	Seed uint64
	// Games is the number of games of the whole run (0: the config's games).
	Games int
	// Shards is the number of shards the run is split into (0: games / games_per_shard, rounded up).
	Shards int
	// Shard is the one shard to play, or -1 for all of them.
	Shard int
	// Workers is the number of games played at once (0: the config's workers, or one per core).
	Workers int
	// Weights is the evaluation the players use.
	Weights *weights.Weights
	// Progress, when set, is called after each game.
	Progress func(Progress)
	// Log receives one line per shard (nil: slog's default logger).
	Log *slog.Logger
	// TakeOver takes over the claim of a shard whatever its owner (see
	// data.ClaimOptions): for a claim left by a process known to be gone.
	TakeOver bool
}

// Progress reports a finished game.
type Progress struct {
	Shard      int
	GamesDone  int // of the shards this call plays
	GamesTotal int
	// Turns counts the rows written so far: plies, one per side's move (the
	// name is kept for its callers).
	Turns int64
}

// Summary totals what a run played.
type Summary struct {
	Shards        int            `json:"shards"`
	ShardsSkipped int            `json:"shards_skipped"`
	Games         int            `json:"games"`
	Rows          int64          `json:"rows"`
	GoldWins      int            `json:"gold_wins"`
	SilverWins    int            `json:"silver_wins"`
	Unfinished    int            `json:"unfinished"`
	Terminations  map[string]int `json:"terminations"`
	// TreeFull counts the searches that ended before their budget because
	// the tree was full (search.max_nodes too small for the visits).
	TreeFull int `json:"tree_full_searches"`
	// Simulations counts the simulations of every search of the games played.
	Simulations int64 `json:"simulations"`
	// Searching is the time the searches took, summed over the workers:
	// with Elapsed and the workers, the share of the workers' time spent
	// searching.
	Searching time.Duration `json:"searching"`
	Elapsed   time.Duration `json:"elapsed"`
}

// MeanLength returns the mean game length in plies (rows: moves after the
// setups, one per side's turn).
func (s *Summary) MeanLength() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.Rows) / float64(s.Games)
}

// ShardPath returns the Arrow file of shard i in dir.
func ShardPath(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%05d.arrow", i))
}

// GamesPath returns the game records file beside shard i in dir.
func GamesPath(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%05d.games.txt", i))
}

// Plan returns the number of games and shards of a run, and the game indices
// [lo, hi) of each shard.
func Plan(c Config, games, shards int) (total, n int, rangeOf func(i int) (lo, hi int)) {
	total = games
	if total == 0 {
		total = c.Games
	}
	n = shards
	if n == 0 {
		n = max(1, (total+c.GamesPerShard-1)/c.GamesPerShard)
	}
	return total, n, func(i int) (int, int) { return i * total / n, (i + 1) * total / n }
}

// Run plays the shards that opt selects and writes each as an Arrow file with
// its game records. A shard whose Arrow file exists is finished and skipped,
// once checked: its checksum, and its settings (seed, weights, config, games
// and shards), which must be this run's. A shard is played under its claim
// (see data.TakeClaim), so that a second process on the same shard is
// refused, and written to temporary files published when complete; when ctx
// is cancelled the open shard is discarded and Run returns ctx's error.
func Run(ctx context.Context, c Config, opt Options) (*Summary, error) {
	start := time.Now()
	if opt.Weights == nil {
		return nil, errors.New("selfplay: no weights")
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	switch {
	case opt.Games < 0:
		return nil, fmt.Errorf("selfplay: games %d: want at least 1 (0: the config's games)", opt.Games)
	case opt.Shards < 0:
		return nil, fmt.Errorf("selfplay: shards %d: want at least 1 (0: games / games_per_shard)", opt.Shards)
	case opt.Workers < 0:
		return nil, fmt.Errorf("selfplay: workers %d: want at least 1 (0: the config's, or one per core)", opt.Workers)
	case opt.Out == "":
		return nil, errors.New("selfplay: no output directory")
	}
	ev, err := weights.NewLinear(opt.Weights)
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	total, n, rangeOf := Plan(c, opt.Games, opt.Shards)
	if n > total {
		return nil, fmt.Errorf("selfplay: shards %d: more than the %d games of the run", n, total)
	}
	if opt.Shard < -1 || opt.Shard >= n {
		return nil, fmt.Errorf("selfplay: shard %d: the run has shards 0 to %d", opt.Shard, n-1)
	}
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	log := opt.Log
	if log == nil {
		log = slog.Default()
	}
	workers := opt.Workers
	if workers == 0 {
		workers = c.Workers
	}
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	shards := []int{opt.Shard}
	if opt.Shard < 0 {
		shards = shards[:0]
		for i := range n {
			shards = append(shards, i)
		}
	}
	meta, err := runMeta(c, opt, total, n)
	if err != nil {
		return nil, err
	}
	sum := &Summary{Terminations: map[string]int{}}
	var todo []int
	gamesTotal := 0
	for _, i := range shards {
		if done, err := published(ShardPath(opt.Out, i), meta); err != nil {
			return nil, err
		} else if done {
			// A writer killed between publishing the shard and releasing its
			// claim left the claim behind: clear it when its owner is gone (a
			// live owner is about to release it itself).
			if _, err := os.Stat(data.ClaimPath(ShardPath(opt.Out, i))); err == nil {
				if claim, err := data.TakeClaim(ShardPath(opt.Out, i), data.ClaimOptions{TakeOver: opt.TakeOver}); err == nil {
					claim.Release()
				}
			}
			sum.ShardsSkipped++
			continue
		}
		todo = append(todo, i)
		lo, hi := rangeOf(i)
		gamesTotal += hi - lo
	}
	done := 0
	var turns int64
	err = playShards(ctx, c, opt, meta, ev, todo, rangeOf, workers, shardHooks{
		game: func(i int, p *played) {
			done++
			turns += int64(len(p.rows))
			sum.add(p)
			if opt.Progress != nil {
				opt.Progress(Progress{Shard: i, GamesDone: done, GamesTotal: gamesTotal, Turns: turns})
			}
		},
		skipped: func(i, lo, hi int) {
			sum.ShardsSkipped++
			gamesTotal -= hi - lo
		},
		written: func(i, lo, hi int) {
			sum.Shards++
			log.Info("shard written", "shard", i, "games", hi-lo, "path", ShardPath(opt.Out, i))
		},
	})
	if err != nil {
		sum.Elapsed = time.Since(start)
		return sum, err
	}
	sum.Elapsed = time.Since(start)
	if sum.TreeFull > 0 {
		log.Warn("searches ended early: the tree was full; raise search.max_nodes", "searches", sum.TreeFull, "rows", sum.Rows, "max_nodes", c.Search.MaxNodes)
	}
	return sum, nil
}

// published reports whether the shard path exists, after checking that it is
// whole (its checksum) and was made with the settings of meta: the run seed,
// the weights, the config, the games and shards of the run. A shard of other
// settings is an error naming both.
func published(path string, meta data.Meta) (bool, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("selfplay: %w", err)
	}
	r, err := data.Open(path)
	if err != nil {
		return false, fmt.Errorf("selfplay: published shard: %w", err)
	}
	got := r.Meta(0)
	r.Close()
	differ := func(what string, there, here any) error {
		return fmt.Errorf("selfplay: %s was written with %s %v, but this run has %s %v: a shard of another run (use another output directory, or the settings of that run)", path, what, there, what, here)
	}
	switch {
	case got.RunSeed != meta.RunSeed:
		return false, differ("seed", got.RunSeed, meta.RunSeed)
	case got.WeightsHash != meta.WeightsHash:
		return false, differ("weights", fmt.Sprintf("%s (generation %d)", got.WeightsHash, got.WeightsGeneration), fmt.Sprintf("%s (generation %d)", meta.WeightsHash, meta.WeightsGeneration))
	case got.FeatureVersion != meta.FeatureVersion:
		return false, differ("feature version", got.FeatureVersion, meta.FeatureVersion)
	}
	for _, k := range []string{"arimaalab.games", "arimaalab.shards"} {
		if got.Extra[k] != meta.Extra[k] {
			return false, differ(strings.TrimPrefix(k, "arimaalab."), got.Extra[k], meta.Extra[k])
		}
	}
	if a, b := canonicalConfig(got.Extra["arimaalab.config"]), canonicalConfig(meta.Extra["arimaalab.config"]); a != b {
		key, there, here := configDiff(a, b)
		return false, differ("config "+key, there, here)
	}
	return true, nil
}

// canonicalConfig returns the config JSON of a shard's metadata with its keys
// in order, and the Go field names of shards written before the JSON used the
// YAML keys (GamesPerShard for games_per_shard) renamed, so that such shards
// still match the same settings. Text that is not a JSON object is returned
// as it is.
func canonicalConfig(js string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(js), &m) != nil {
		return js
	}
	t := reflect.TypeFor[Config]()
	for i := range t.NumField() {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if v, ok := m[f.Name]; ok && key != "" && key != f.Name {
			m[key] = v
			delete(m, f.Name)
		}
	}
	b, err := json.Marshal(m) // sorts the keys
	if err != nil {
		return js
	}
	return string(b)
}

// configDiff returns the first key (dotted path) whose value differs between
// the JSON objects a and b, and its two values.
func configDiff(a, b string) (key string, va, vb string) {
	var ma, mb map[string]any
	if json.Unmarshal([]byte(a), &ma) != nil || json.Unmarshal([]byte(b), &mb) != nil {
		return "", a, b
	}
	var walk func(prefix string, x, y map[string]any) bool
	walk = func(prefix string, x, y map[string]any) bool {
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			xv, yv := x[k], y[k]
			xm, ok1 := xv.(map[string]any)
			ym, ok2 := yv.(map[string]any)
			if ok1 && ok2 {
				if walk(prefix+k+".", xm, ym) {
					return true
				}
				continue
			}
			if fmt.Sprint(xv) != fmt.Sprint(yv) {
				key, va, vb = prefix+k, fmt.Sprint(xv), fmt.Sprint(yv)
				return true
			}
		}
		return false
	}
	if !walk("", ma, mb) {
		return "", a, b
	}
	return key, va, vb
}

func (s *Summary) add(p *played) {
	s.Games++
	s.Rows += int64(len(p.rows))
	s.TreeFull += p.fullTrees
	s.Simulations += p.sims
	s.Searching += p.searching
	s.Terminations[p.outcome.Reason.String()]++
	switch {
	case p.outcome.Reason == engine.MaxTurns:
		s.Unfinished++
	case p.outcome.Winner == engine.Gold:
		s.GoldWins++
	default:
		s.SilverWins++
	}
}

// runMeta builds the schema metadata shared by the run's shards.
func runMeta(c Config, opt Options, total, n int) (data.Meta, error) {
	search, err := json.Marshal(struct {
		Search      any     `json:"search"`
		CheapVisits int     `json:"cheap_visits"`
		FullShare   float64 `json:"full_share"`
		MaxTurns    int     `json:"max_turns"`
	}{c.Search, c.CheapVisits, c.FullShare, c.MaxTurns})
	if err != nil {
		return data.Meta{}, fmt.Errorf("selfplay: %w", err)
	}
	cfg, err := json.Marshal(c)
	if err != nil {
		return data.Meta{}, fmt.Errorf("selfplay: %w", err)
	}
	return data.Meta{
		FeatureNames:      features.Names(),
		FeatureVersion:    features.Version(),
		WeightsGeneration: opt.Weights.Generation,
		WeightsHash:       opt.Weights.Hash(),
		Search:            string(search),
		EngineVersion:     engine.Version,
		RunSeed:           opt.Seed,
		Extra: map[string]string{
			"arimaalab.games":  strconv.Itoa(total),
			"arimaalab.shards": strconv.Itoa(n),
			"arimaalab.config": string(cfg),
		},
	}, nil
}

// shardHooks are what Run does as playShards goes: after each game written
// (in the order of the shards and their games), and after each shard skipped
// (published meanwhile by its previous owner) or written.
type shardHooks struct {
	game             func(shard int, p *played)
	skipped, written func(shard, lo, hi int)
	// played, when set, is called by a worker as it ends each game, before
	// the game is written (for tests).
	played func(shard, index int)
}

// shardRun is a shard made ready to play by the dealer of playShards.
type shardRun struct {
	shard, lo, hi int
	claim         *data.Claim
	skip          bool         // published meanwhile by its previous owner
	err           error        // making it ready failed: the run stops there
	results       chan *played // its games as they end, room for all of them
}

// job is a game for a worker: game index of shard, sent to out when played.
type job struct {
	shard, index int
	out          chan<- *played
}

// playShards plays the shards todo on one pool of workers and writes each
// shard in game order, one shard after another. A dealer makes the shards
// ready in order (claimed, checked unpublished, stale temporary files
// dropped) and deals their games to the workers: the next shard's games as
// soon as the last game of the current one is dealt, so that workers do not
// wait for the longest game of every shard (with 16 workers and shards of 32
// games they spent a third of their time so). Each game is the same whoever
// plays it and whenever, so the shards are the same bytes. On an error or a
// cancellation the shard being written is discarded, the claims of the
// shards made ready after it are released, and the first error is returned.
func playShards(ctx context.Context, c Config, opt Options, meta data.Meta, ev mcts.Evaluator, todo []int,
	rangeOf func(int) (int, int), workers int, hooks shardHooks) error {
	ctx, cancel := context.WithCancel(ctx)
	total := 0
	for _, i := range todo {
		lo, hi := rangeOf(i)
		total += hi - lo
	}
	jobs := make(chan job)
	errs := make(chan error, workers+1)
	runs := make(chan *shardRun, 1) // the dealer works one shard ahead of the writing
	var wg sync.WaitGroup
	for range min(workers, total) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s *mcts.Searcher // the worker's, for all its games
			for j := range jobs {
				p, err := playGameWith(ctx, &c, ev, opt.Seed, j.shard, j.index, &s)
				if err != nil {
					errs <- err
					cancel()
					return
				}
				if hooks.played != nil {
					hooks.played(j.shard, j.index)
				}
				j.out <- p // never blocks: room for every game of the shard
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		defer close(runs)
		for _, i := range todo {
			r := readyShard(opt, meta, i, rangeOf)
			select {
			case runs <- r:
			case <-ctx.Done():
				if r.claim != nil {
					r.claim.Release()
				}
				return
			}
			if r.err != nil {
				return
			}
			if r.skip {
				continue
			}
			for k := r.lo; k < r.hi; k++ {
				select {
				case jobs <- job{i, k, r.results}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	defer func() {
		cancel()
		for r := range runs { // made ready, never written
			if r.claim != nil {
				r.claim.Release()
			}
		}
		wg.Wait()
	}()
	for r := range runs {
		if r.err != nil {
			return r.err
		}
		if r.skip {
			hooks.skipped(r.shard, r.lo, r.hi)
			continue
		}
		m := meta
		m.Shard = r.shard
		err := writeShard(ctx, c, opt, m, r, errs, hooks.game)
		if rerr := r.claim.Release(); err == nil && rerr != nil {
			err = fmt.Errorf("selfplay: %w", rerr)
		}
		if err != nil {
			return err
		}
		hooks.written(r.shard, r.lo, r.hi)
	}
	select {
	case err := <-errs:
		return err
	default:
	}
	// A cancellation before the dealer made a shard ready ends the loop
	// above with nothing written: the run did not finish.
	return ctx.Err()
}

// readyShard claims shard i, checks that it is not published (by a previous
// owner of its claim) and drops the temporary files a killed run left of it.
func readyShard(opt Options, meta data.Meta, i int, rangeOf func(int) (int, int)) *shardRun {
	lo, hi := rangeOf(i)
	r := &shardRun{shard: i, lo: lo, hi: hi}
	path := ShardPath(opt.Out, i)
	claim, err := data.TakeClaim(path, data.ClaimOptions{TakeOver: opt.TakeOver})
	if err != nil {
		r.err = fmt.Errorf("selfplay: %w", err)
		return r
	}
	// The shard's previous owner may have published it meanwhile.
	if ok, err := published(path, meta); err != nil || ok {
		claim.Release()
		r.err, r.skip = err, ok
		return r
	}
	// A run killed before left temporary files of this shard: drop them.
	stale, _ := filepath.Glob(data.ClaimPath(path) + ".*.tmp") // half-written claims of killed writers
	for _, p := range append([]string{path + ".tmp", data.SumPath(path) + ".tmp", GamesPath(opt.Out, i) + ".tmp"}, stale...) {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			claim.Release()
			r.err = fmt.Errorf("selfplay: %w", err)
			return r
		}
	}
	r.claim = claim
	r.results = make(chan *played, hi-lo)
	return r
}

// writeShard writes the games of r in index order, whatever order they end
// in, then its game records and its Arrow file, published last.
func writeShard(ctx context.Context, c Config, opt Options, meta data.Meta, r *shardRun, errs <-chan error, onGame func(int, *played)) (err error) {
	w, err := data.Create(ShardPath(opt.Out, r.shard), meta, data.WriterOptions{Compression: c.Compression, Claim: r.claim})
	if err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	defer func() {
		if err != nil {
			w.Abort()
		}
	}()
	pending := map[int]*played{}
	next := r.lo
	var recs []engine.Record
	stopped := func() error {
		select {
		case err := <-errs: // a worker's error cancelled the run
			return err
		default:
		}
		return ctx.Err()
	}
	for next < r.hi {
		if err := stopped(); err != nil {
			return err
		}
		select {
		case p := <-r.results:
			pending[p.index] = p
		case <-ctx.Done():
			return stopped()
		}
		for q, ok := pending[next]; ok; q, ok = pending[next] {
			delete(pending, next)
			next++
			for i := range q.rows {
				if err := w.Write(&q.rows[i]); err != nil {
					return fmt.Errorf("selfplay: %w", err)
				}
			}
			recs = append(recs, q.record)
			onGame(r.shard, q)
		}
	}
	if err := stopped(); err != nil {
		return err
	}
	// The records first: the Arrow file, published last, marks the shard done.
	if err := writeRecords(GamesPath(opt.Out, r.shard), recs); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		os.Remove(GamesPath(opt.Out, r.shard))
		return fmt.Errorf("selfplay: %w", err)
	}
	return nil
}

// writeRecords writes the games in the archive format, through a temporary file.
func writeRecords(path string, recs []engine.Record) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	if err := engine.WriteArchive(f, recs); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("selfplay: %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("selfplay: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("selfplay: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	return nil
}
