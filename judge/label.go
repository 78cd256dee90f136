package judge

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
)

// The metadata keys (data.Meta.Extra) of a labelled shard. KeyLabelShards
// marks a shard as labelled by a judge rather than played by self-play.
const (
	// KeyLabelShards is the number of shards of the labelling run (decimal).
	KeyLabelShards = "arimaalab.label.shards"
	// KeyLabelPositions is the number of positions of the run (decimal).
	KeyLabelPositions = "arimaalab.label.positions"
	// KeyLabelFingerprint is a hash of the shard's positions (their games,
	// plies, boards and moves), which a run resuming the shard must have too.
	KeyLabelFingerprint = "arimaalab.label.fingerprint"
)

// DefaultShardSize is the number of positions from which a labelled shard is
// closed (at the end of a game).
const DefaultShardSize = 2000

// LabelConfig sets up Label.
type LabelConfig struct {
	// Out is the directory of the shards, shard-00000.arrow and on.
	Out string
	// Scale turns a score x in rabbits into the row's root_value,
	// 2*sigmoid(Scale*x) - 1 (0: DefaultWinScale, the scale of the
	// generation-0 weights, so that (root_value+1)/2 is what
	// sigmoid(0.13*w·f) of weights in rabbit units would predict).
	Scale float64
	// ShardSize is the number of positions from which a shard is closed at
	// the end of its last game (0: DefaultShardSize). A game is never split
	// between shards.
	ShardSize int
	// Judge and Selection say how the labels were made and the positions
	// chosen; they are written, as JSON, in the metadata of every shard
	// (data.Meta.Search, with the scale), and a shard written with other
	// settings is not resumed.
	Judge     any
	Selection any
	// Seed is recorded as the shards' run seed (the seed of the selection).
	Seed uint64
	// Compression of the shards ("": LZ4).
	Compression data.Compression
	// TakeOver takes over the claims of shards whatever their owner (see
	// data.ClaimOptions): for claims left by a process known to be gone.
	TakeOver bool
	// Progress, when set, is called after each row written with the positions
	// labelled so far by this call and the number it has to label.
	Progress func(done, total int)
}

// LabelSummary is what Label did.
type LabelSummary struct {
	// Positions is the number of positions of the run; Shards the shards
	// written by this call and ShardsSkipped those found written already.
	Positions     int
	Shards        int
	ShardsSkipped int
	// Rows is the number of rows of the shards written by this call.
	Rows int64
	// Scored is the number of positions scored by this call (the rows
	// written, and those of a shard given up by an error); Sources counts
	// them by where their score came from and SumAbsScore adds their
	// |score|, in rabbits.
	Scored      int
	Sources     map[Source]int
	SumAbsScore float64
	// EngineTime is the time spent in the judges' Eval, summed over judges;
	// Elapsed the wall time of the call.
	EngineTime time.Duration
	Elapsed    time.Duration
}

// MeanAbsScore returns the mean |score| of the positions scored, in rabbits.
func (s *LabelSummary) MeanAbsScore() float64 {
	if s.Scored == 0 {
		return 0
	}
	return s.SumAbsScore / float64(s.Scored)
}

// ShardPath returns the Arrow file of labelled shard i in dir.
func ShardPath(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%05d.arrow", i))
}

// Pick keeps n positions of ps drawn with the seed (all for n <= 0), in the
// order of ps: the same positions as Sample(ps, seed, n).
func Pick(ps []Position, seed uint64, n int) []Position {
	if n <= 0 || n >= len(ps) {
		return slices.Clone(ps)
	}
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 0x5a3b1e)) // Sample's generator
	rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	idx = idx[:n]
	slices.Sort(idx)
	out := make([]Position, n)
	for k, i := range idx {
		out[k] = ps[i]
	}
	return out
}

// Every keeps, of the positions of games, those before every k-th move of
// their game (plies 0, k, 2k, ...: for k = 2 Gold's moves only); positions
// of position files are all kept. k <= 1 keeps everything.
func Every(ps []Position, k int) []Position {
	if k <= 1 {
		return slices.Clone(ps)
	}
	var out []Position
	for _, p := range ps {
		if p.Game == nil || p.Ply%k == 0 {
			out = append(out, p)
		}
	}
	return out
}

// GameID returns the game id of the rows of p: a hash of its archive file's
// name and its game's line, of its group (the positions of a group of a
// position file share one id), or of the position file's name and line (any
// other position of a position file is a game of its own).
func GameID(p Position) uint64 {
	h := fnv.New64a()
	switch {
	case p.Game != nil:
		fmt.Fprintf(h, "game\x00%s\x00%d", p.Game.File, p.Game.Line)
	case p.Group != "":
		fmt.Fprintf(h, "group\x00%s", p.Group)
	default:
		fmt.Fprintf(h, "position\x00%s", p.Where)
	}
	return h.Sum64()
}

// LabelRow returns the dataset row of p scored score rabbits for its side to
// move, with root_value 2*sigmoid(scale*score) - 1. A position of a game gets
// its turn and side, the move played from it, plies_left to the end of the
// record, and the game's result for the side to move and its termination
// (result 0 and not-over where the record has no result). A position of a
// position file is a game of one row: turn 2, no move, plies_left 1, result 0,
// not-over. Visits are 0, the policy empty and full_search true.
func LabelRow(p Position, score, scale float64) data.Row {
	r := data.Row{
		GameID:      GameID(p),
		Turn:        2,
		Side:        uint8(p.Pos.Side),
		Features:    make([]float32, features.N),
		RootValue:   float32(math.Tanh(scale * score / 2)), // 2*sigmoid(x) - 1 = tanh(x/2)
		PliesLeft:   1,
		Termination: engine.NotOver.String(),
		FullSearch:  true,
	}
	for i, b := range p.Pos.Bits {
		r.Board[i] = uint64(b)
	}
	features.Extract(&p.Pos, r.Features)
	if g := p.Game; g != nil {
		r.Turn = uint16(2 + p.Ply/2)
		r.Move = g.Moves[p.Ply]
		r.PliesLeft = uint16(len(g.Moves) - p.Ply)
		r.Termination = g.Outcome.Reason.String()
		if g.Outcome.Over() {
			r.Result = -1
			if g.Outcome.Winner == p.Pos.Side {
				r.Result = 1
			}
		}
	}
	return r
}

// labelShard is a shard of a labelling run: positions [lo, hi).
type labelShard struct {
	lo, hi int
	meta   data.Meta
}

// planShards cuts ps into shards of at least size positions, whole games
// each (a game's positions must follow each other in ps), and builds each
// shard's metadata from base.
func planShards(ps []Position, size int, base data.Meta) ([]labelShard, error) {
	var shards []labelShard
	seen := map[uint64]bool{}
	lo := 0
	for i := 0; i < len(ps); {
		id := GameID(ps[i])
		if seen[id] {
			return nil, fmt.Errorf("judge: %s: its game's positions do not follow each other", ps[i].Where)
		}
		seen[id] = true
		for i++; i < len(ps) && sameGame(&ps[i], &ps[i-1]); i++ {
			if ps[i].Game != nil && ps[i].Ply <= ps[i-1].Ply {
				return nil, fmt.Errorf("judge: %s: after ply %d of its game", ps[i].Where, ps[i-1].Ply)
			}
		}
		if i-lo >= size || i == len(ps) {
			shards = append(shards, labelShard{lo: lo, hi: i})
			lo = i
		}
	}
	for k := range shards {
		m := base
		m.Shard = k
		m.Extra = map[string]string{
			KeyLabelShards:      strconv.Itoa(len(shards)),
			KeyLabelPositions:   strconv.Itoa(len(ps)),
			KeyLabelFingerprint: fingerprint(ps[shards[k].lo:shards[k].hi]),
		}
		shards[k].meta = m
	}
	return shards, nil
}

// sameGame reports whether a and b are of one game of an archive, or of one
// group of a position file: their rows share a game id.
func sameGame(a, b *Position) bool {
	if a.Game != nil {
		return a.Game == b.Game
	}
	return a.Group != "" && a.Group == b.Group
}

// fingerprint hashes positions: their games, plies, boards, sides and moves.
func fingerprint(ps []Position) string {
	h := fnv.New128a()
	var b [8]byte
	for _, p := range ps {
		r := LabelRow(p, 0, 0)
		for _, v := range append([]uint64{r.GameID, uint64(r.Turn), uint64(r.Side), uint64(r.PliesLeft)}, r.Board[:]...) {
			binary.LittleEndian.PutUint64(b[:], v)
			h.Write(b[:])
		}
		fmt.Fprintf(h, "%s\x00%d\x00%s\x00", r.Move, r.Result, r.Termination)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// labelled reports whether the shard path is written, after checking its
// checksum and that it was written by the same run: the same settings and
// positions (meta). A shard of another run is an error naming what differs.
func labelled(path string, meta data.Meta) (bool, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("judge: %w", err)
	}
	r, err := data.Open(path)
	if err != nil {
		return false, fmt.Errorf("judge: written shard: %w", err)
	}
	got := r.Meta(0)
	r.Close()
	differ := func(what, there, here string) error {
		return fmt.Errorf("judge: %s was written with %s %s, but this run has %s: a shard of another run (use another output directory, or that run's files, settings, -n, -seed and -every)", path, what, there, here)
	}
	switch {
	case got.Extra[KeyLabelShards] == "":
		return false, fmt.Errorf("judge: %s is not a labelled shard (self-play's?): use another output directory", path)
	case got.Search != meta.Search:
		key, there, here := jsonDiff(got.Search, meta.Search)
		return false, differ(key, there, here)
	case got.FeatureVersion != meta.FeatureVersion:
		return false, differ("feature version", got.FeatureVersion, meta.FeatureVersion)
	case got.Extra[KeyLabelShards] != meta.Extra[KeyLabelShards] || got.Extra[KeyLabelPositions] != meta.Extra[KeyLabelPositions]:
		return false, differ("positions and shards", got.Extra[KeyLabelPositions]+" and "+got.Extra[KeyLabelShards], meta.Extra[KeyLabelPositions]+" and "+meta.Extra[KeyLabelShards])
	case got.Extra[KeyLabelFingerprint] != meta.Extra[KeyLabelFingerprint]:
		return false, fmt.Errorf("judge: %s holds other positions than this run's shard %d: a shard of another run (use another output directory, or that run's files, -n, -seed and -every)", path, meta.Shard)
	}
	return true, nil
}

// jsonDiff returns the first key (a dotted path) whose value differs
// between the JSON objects a and b, and its two values; a and b whole, as
// "the settings", where they are not both objects.
func jsonDiff(a, b string) (key, va, vb string) {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return "the settings", a, b
	}
	var walk func(path string, x, y any) bool
	walk = func(path string, x, y any) bool {
		xm, ok1 := x.(map[string]any)
		ym, ok2 := y.(map[string]any)
		if !ok1 || !ok2 {
			xs, _ := json.Marshal(x)
			ys, _ := json.Marshal(y)
			if string(xs) == string(ys) {
				return false
			}
			key, va, vb = path, string(xs), string(ys)
			if x == nil {
				va = "nothing"
			}
			if y == nil {
				vb = "nothing"
			}
			return true
		}
		keys := slices.Sorted(maps.Keys(xm))
		for k := range ym {
			if _, ok := xm[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if walk(p, xm[k], ym[k]) {
				return true
			}
		}
		return false
	}
	if !walk("", x, y) {
		return "the settings", a, b
	}
	return key, va, vb
}

// Label scores positions with the judges (one position at a time each, on
// its own goroutine) and writes them as dataset shards under cfg.Out, a row
// per position (see LabelRow), in the order of positions whatever judge
// scored them: shard-00000.arrow with the first positions, and so on, each
// holding whole games and published atomically by data.Writer (claimed,
// written to a temporary file, checksummed, renamed). The positions of a
// game must follow each other, in the order of its plies (as
// ArchivePositions, Every and Pick leave them).
//
// A shard already written by a run of the same settings and positions is
// kept, so that a run cut short continues where it stopped; one written
// otherwise is an error naming what differs. When ctx is cancelled the shard
// being written is dropped and Label returns ctx's error.
func Label(ctx context.Context, judges []Judge, positions []Position, cfg LabelConfig) (*LabelSummary, error) {
	start := time.Now()
	switch {
	case len(judges) == 0:
		return nil, errors.New("judge: no judges")
	case len(positions) == 0:
		return nil, errors.New("judge: no positions")
	case cfg.Out == "":
		return nil, errors.New("judge: no output directory")
	case cfg.Scale < 0 || math.IsNaN(cfg.Scale) || math.IsInf(cfg.Scale, 0):
		return nil, fmt.Errorf("judge: scale %v is not a positive number", cfg.Scale)
	case cfg.ShardSize < 0:
		return nil, fmt.Errorf("judge: shard size %d is negative", cfg.ShardSize)
	}
	if cfg.Scale == 0 {
		cfg.Scale = DefaultWinScale
	}
	if cfg.ShardSize == 0 {
		cfg.ShardSize = DefaultShardSize
	}
	search, err := json.Marshal(struct {
		Judge     any     `json:"judge"`
		Scale     float64 `json:"scale"`
		RootValue string  `json:"root_value"`
		Selection any     `json:"selection"`
	}{cfg.Judge, cfg.Scale, "2*sigmoid(scale*score)-1, score: the judge's, in rabbits for the side to move", cfg.Selection})
	if err != nil {
		return nil, fmt.Errorf("judge: settings: %w", err)
	}
	shards, err := planShards(positions, cfg.ShardSize, data.Meta{
		FeatureNames:      features.Names(),
		FeatureVersion:    features.Version(),
		WeightsGeneration: -1, // no weights played: a judge scored
		Search:            string(search),
		EngineVersion:     engine.Version,
		RunSeed:           cfg.Seed,
	})
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, fmt.Errorf("judge: %w", err)
	}
	sum := &LabelSummary{Positions: len(positions), Sources: map[Source]int{}}

	// Claim the shards to write, skipping those written already.
	var todo []int
	claims := map[int]*data.Claim{}
	defer func() {
		for _, c := range claims {
			c.Release()
		}
	}()
	claimOpt := data.ClaimOptions{TakeOver: cfg.TakeOver}
	for i, sh := range shards {
		path := ShardPath(cfg.Out, i)
		done, err := labelled(path, sh.meta)
		if err != nil {
			return nil, err
		}
		if !done {
			c, err := data.TakeClaim(path, claimOpt)
			if err != nil {
				return nil, fmt.Errorf("judge: %w", err)
			}
			claims[i] = c
			// Its previous owner may have published it meanwhile.
			if done, err = labelled(path, sh.meta); err != nil {
				return nil, err
			}
		}
		if done {
			// A writer killed between publishing the shard and releasing
			// its claim left the claim behind: clear it when its owner is
			// gone.
			if c := claims[i]; c != nil {
				c.Release()
				delete(claims, i)
			} else if _, err := os.Stat(data.ClaimPath(path)); err == nil {
				if c, err := data.TakeClaim(path, claimOpt); err == nil {
					c.Release()
				}
			}
			sum.ShardsSkipped++
			continue
		}
		// A run killed before left temporary files of this shard: drop them.
		stale, _ := filepath.Glob(data.ClaimPath(path) + ".*.tmp")
		for _, p := range append([]string{path + ".tmp", data.SumPath(path) + ".tmp"}, stale...) {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("judge: %w", err)
			}
		}
		todo = append(todo, i)
	}
	var work []int // the positions to label, in order
	for _, i := range todo {
		for k := shards[i].lo; k < shards[i].hi; k++ {
			work = append(work, k)
		}
	}
	if len(work) > 0 {
		if err := label(ctx, judges, positions, shards, todo, work, claims, cfg, sum); err != nil {
			sum.Elapsed = time.Since(start)
			return sum, err
		}
	}
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// label scores the positions work (indices of positions, those of the shards
// todo, in order) on the judges and writes the shards.
func label(ctx context.Context, judges []Judge, positions []Position, shards []labelShard, todo, work []int,
	claims map[int]*data.Claim, cfg LabelConfig, sum *LabelSummary) (err error) {
	var w *data.Writer
	defer func() {
		if w != nil {
			w.Abort()
		}
	}()
	shardOf := make(map[int]int, len(work)) // position index -> shard
	for _, i := range todo {
		for k := shards[i].lo; k < shards[i].hi; k++ {
			shardOf[k] = i
		}
	}
	pending := map[int]evalResult{}
	next := 0
	at := func(k int) (engine.Position, *engine.History, string) {
		p := positions[work[k]]
		return p.Pos, p.Hist, p.Where
	}
	err = evalAll(ctx, judges, len(work), at, func(res evalResult) error {
		pending[res.k] = res
		for q, ok := pending[next]; ok; q, ok = pending[next] {
			delete(pending, next)
			next++
			pi := work[q.k]
			i := shardOf[pi]
			if w == nil {
				path := ShardPath(cfg.Out, i)
				if w, err = data.Create(path, shards[i].meta, data.WriterOptions{Compression: cfg.Compression, Claim: claims[i]}); err != nil {
					return fmt.Errorf("judge: %w", err)
				}
			}
			row := LabelRow(positions[pi], q.ev.Score, cfg.Scale)
			if err := w.Write(&row); err != nil {
				return fmt.Errorf("judge: %w", err)
			}
			sum.Scored++
			sum.Sources[q.ev.Source]++
			sum.SumAbsScore += math.Abs(q.ev.Score)
			sum.EngineTime += q.took
			if pi == shards[i].hi-1 {
				err := w.Close()
				w = nil
				if err != nil {
					return fmt.Errorf("judge: %w", err)
				}
				claims[i].Release()
				delete(claims, i)
				sum.Shards++
				sum.Rows += int64(shards[i].hi - shards[i].lo)
			}
			if cfg.Progress != nil {
				cfg.Progress(next, len(work))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if next != len(work) {
		return fmt.Errorf("judge: %d of %d positions labelled", next, len(work))
	}
	return nil
}
