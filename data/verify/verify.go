// Package verify checks datasets completely: each shard's checksum, schema
// and values, its boards and features, its games row by row, the game
// records beside a self-play shard replayed by the rules, and whether every
// run that the shards belong to (a self-play run, or a labelling run of
// analyze label) has all its shards. The first problem is an error naming
// the file and row.
package verify

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/judge"
	"github.com/arimaalab/arimaalab/progress"
)

// New returns a Verifier that draws a progress bar for each shard on bars
// (nothing where it is not a terminal; io.Discard for none).
func New(bars io.Writer) *Verifier {
	return &Verifier{bars: bars, games: make(map[uint64]string), runs: make(map[string]*runDir), labels: make(map[string]*runDir)}
}

// Verifier checks shards one by one and remembers what they tell about
// their runs, so that Complete can tell whether a run is whole.
type Verifier struct {
	bars   io.Writer          // where the progress bars go
	games  map[uint64]string  // game id -> the shard that holds it
	runs   map[string]*runDir // self-play directory -> what its shards say
	labels map[string]*runDir // directory of labelled shards -> what they say
}

// runDir is a self-play output directory, or one of labelled shards
// (analyze label; config is then their settings): its shards' run settings,
// and the shards seen.
type runDir struct {
	first        string // the first shard seen
	seed         uint64
	weights      string
	config       string
	games, count int
	seen         map[int]bool
}

// gameState follows the rows of a game in a shard.
type gameState struct {
	id          uint64
	rows        int
	length      int // plies_left of its first row
	firstPly    int // the ply of its first row (2g is 0, 2s 1, ...)
	lastPly     int // the ply of its last row so far
	result      int8
	termination string
	moves       []string
	boards      [][data.BoardLen]uint64
}

// Shard verifies the shard path: the checks of data.Open and of every batch
// (checksum, layout, schema, offsets, value ranges), then each board (a
// possible position), the features (those of the board, for the current
// feature set), each game (its rows in order, whole, one result and
// termination, an id no other shard has), and the game records beside a
// self-play shard (replayed by the rules; the same moves and positions as the
// rows). The games of a labelled shard (analyze label) may skip turns: their
// rows are some of a game's turns, in order, each with the plies_left and
// result its turn implies; those of a group of a position file are the
// group's positions, which share one turn. It returns the rows and games.
func (v *Verifier) Shard(path string) (rows int64, games int, err error) {
	r, err := data.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer r.Close()
	meta := r.Meta(0)
	recompute := meta.FeatureVersion == features.Version() && slices.Equal(meta.FeatureNames, features.Names())
	labelled := meta.Extra[judge.KeyLabelShards] != ""
	bar := progress.New(v.bars, r.Rows(), "verifying "+filepath.Base(path), false)
	defer bar.Finish()
	fail := func(row int64, g *gameState, format string, a ...any) error {
		where := fmt.Sprintf("row %d", row)
		if g != nil {
			where += fmt.Sprintf(" (game %d, row %d of the game)", g.id, g.rows)
		}
		return fmt.Errorf("%s: %s: %s", path, where, fmt.Sprintf(format, a...))
	}
	var done []*gameState
	var g *gameState
	finish := func(row int64) error {
		if g == nil {
			return nil
		}
		if g.rows != g.length && !labelled {
			return fail(row, g, "the game ends after %d rows, but its first row says %d turns were left", g.rows, g.length)
		}
		done = append(done, g)
		g = nil
		return nil
	}
	feats := make([]float32, features.N)
	var row data.Row
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
		c, err := data.ColumnsOf(rec)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", path, err)
		}
		for i := range c.Len {
			c.Row(i, &row)
			at := rows + int64(i)
			var bb [data.BoardLen]engine.Bitboard
			for k, b := range row.Board {
				bb[k] = engine.Bitboard(b)
			}
			pos, err := engine.PositionFromBits(bb, engine.Color(row.Side))
			if err != nil {
				return 0, 0, fail(at, g, "board: %v", err)
			}
			if recompute {
				features.Extract(&pos, feats)
				for k := range feats {
					if feats[k] != row.Features[k] {
						return 0, 0, fail(at, g, "feature %s is %v, but the board gives %v", meta.FeatureNames[k], row.Features[k], feats[k])
					}
				}
			}
			if g != nil && g.id != row.GameID {
				if err := finish(at); err != nil {
					return 0, 0, err
				}
			}
			if g == nil {
				if other, ok := v.games[row.GameID]; ok {
					return 0, 0, fail(at, nil, "game %d again (also in %s)", row.GameID, other)
				}
				v.games[row.GameID] = path
				ply := 2*(int(row.Turn)-2) + int(row.Side)
				g = &gameState{id: row.GameID, length: int(row.PliesLeft), result: row.Result, termination: row.Termination, firstPly: ply, lastPly: ply - 1}
			}
			k := g.rows // the ply of the row, from the game's first row
			if labelled {
				k = 2*(int(row.Turn)-2) + int(row.Side) - g.firstPly
			}
			wantResult := g.result
			if k%2 == 1 {
				wantResult = -wantResult
			}
			// Positions of a group of a position file (analyze successors'
			// positions one move after one position) share a game id, a turn
			// and a side, and have no move: siblings, not turns of a game.
			sibling := labelled && g.rows > 0 && g.firstPly+k == g.lastPly && row.Move == "" && g.moves[g.rows-1] == ""
			switch {
			case labelled && g.firstPly+k <= g.lastPly && !sibling:
				return 0, 0, fail(at, g, "turn %d side %d after turn %d side %d (a game's rows are some of its turns, in order)", row.Turn, row.Side, 2+g.lastPly/2, g.lastPly%2)
			case !labelled && (int(row.Turn) != 2+k/2 || int(row.Side) != k%2):
				return 0, 0, fail(at, g, "turn %d side %d, want turn %d side %d (a game's rows are its turns in order)", row.Turn, row.Side, 2+k/2, k%2)
			case int(row.PliesLeft) != g.length-k:
				return 0, 0, fail(at, g, "plies_left %d, want %d", row.PliesLeft, g.length-k)
			case row.Termination != g.termination:
				return 0, 0, fail(at, g, "termination %s, but the game's first row says %s", row.Termination, g.termination)
			case row.Result != wantResult:
				return 0, 0, fail(at, g, "result %d, want %d (the first row's, for the side to move)", row.Result, wantResult)
			}
			g.rows++
			g.lastPly = g.firstPly + k
			g.moves = append(g.moves, row.Move)
			g.boards = append(g.boards, row.Board)
			bar.Add(1)
		}
		rows += int64(c.Len)
	}
	if err := finish(rows); err != nil {
		return 0, 0, err
	}
	if labelled {
		err = v.label(path, meta)
	} else {
		err = v.records(path, meta, done)
	}
	if err != nil {
		return 0, 0, err
	}
	return rows, len(done), nil
}

// records checks the shard's games against its game records (the
// .games.txt beside it), required for a self-play shard, and notes the
// shard in its run.
func (v *Verifier) records(path string, meta data.Meta, games []*gameState) error {
	total, err1 := strconv.Atoi(meta.Extra["arimaalab.games"])
	count, err2 := strconv.Atoi(meta.Extra["arimaalab.shards"])
	selfPlay := err1 == nil && err2 == nil
	recPath := strings.TrimSuffix(path, ".arrow") + ".games.txt"
	f, err := os.Open(recPath)
	if errors.Is(err, fs.ErrNotExist) && !selfPlay {
		return nil // not a self-play shard: no records to check
	}
	if err != nil {
		return fmt.Errorf("%s: the shard's game records: %w", path, err)
	}
	defer f.Close()
	recs, err := engine.ReadArchive(f, recPath)
	if err != nil {
		return err
	}
	if len(recs) != len(games) {
		return fmt.Errorf("%s: %d games, but the shard has %d", recPath, len(recs), len(games))
	}
	for i, rec := range recs {
		g := games[i]
		if rec.ID != strconv.FormatUint(g.id, 10) {
			return fmt.Errorf("%s: game %d is %s, but the shard's game %d is %d", recPath, i+1, rec.ID, i+1, g.id)
		}
		if _, err := engine.Verify(rec); err != nil {
			return fmt.Errorf("%s: %w", recPath, err)
		}
		gm, err := engine.Replay(rec)
		if err != nil {
			return fmt.Errorf("%s: %w", recPath, err)
		}
		moves := gm.Moves()
		if len(moves) != g.rows {
			return fmt.Errorf("%s: game %s has %d moves, the shard %d rows", recPath, rec.ID, len(moves), g.rows)
		}
		for k, m := range moves {
			p := gm.PositionBefore(k)
			var b [data.BoardLen]uint64
			for j, bb := range p.Bits {
				b[j] = uint64(bb)
			}
			if m != g.moves[k] || b != g.boards[k] {
				return fmt.Errorf("%s: game %s, move %d (%s): the shard's row holds another move or board (%s)", path, rec.ID, k+1, m, g.moves[k])
			}
		}
		if want := rec.Termination.String(); g.termination != want && !(rec.Termination == engine.NotOver && g.termination == "max-turns") {
			return fmt.Errorf("%s: game %s ends by %s, the shard says %s", path, rec.ID, want, g.termination)
		}
	}
	if !selfPlay {
		return nil
	}
	dir := filepath.Dir(path)
	rd := v.runs[dir]
	cfg := meta.Extra["arimaalab.config"]
	if rd == nil {
		rd = &runDir{first: path, seed: meta.RunSeed, weights: meta.WeightsHash, config: cfg, games: total, count: count, seen: map[int]bool{}}
		v.runs[dir] = rd
	}
	differ := func(what string, a, b any) error {
		return fmt.Errorf("%s: %s %v, but %s has %v: shards of two runs in one directory", path, what, a, rd.first, b)
	}
	switch {
	case meta.RunSeed != rd.seed:
		return differ("seed", meta.RunSeed, rd.seed)
	case meta.WeightsHash != rd.weights:
		return differ("weights", meta.WeightsHash, rd.weights)
	case cfg != rd.config:
		return differ("config", "(another)", "(this one)")
	case total != rd.games || count != rd.count:
		return differ("games and shards", fmt.Sprintf("%d and %d", total, count), fmt.Sprintf("%d and %d", rd.games, rd.count))
	case meta.Shard < 0 || meta.Shard >= count:
		return fmt.Errorf("%s: shard %d of a run of %d shards", path, meta.Shard, count)
	case filepath.Base(path) != fmt.Sprintf("shard-%05d.arrow", meta.Shard):
		return fmt.Errorf("%s: holds shard %d", path, meta.Shard)
	}
	if lo, hi := meta.Shard*total/count, (meta.Shard+1)*total/count; len(games) != hi-lo {
		return fmt.Errorf("%s: %d games, but shard %d of a run of %d games in %d shards has %d", path, len(games), meta.Shard, total, count, hi-lo)
	}
	rd.seen[meta.Shard] = true
	return nil
}

// label checks a labelled shard's place in its run (analyze label): the
// shards of a directory are one run's (the same settings, seed, positions and
// shards), each named for its number, and notes it.
func (v *Verifier) label(path string, meta data.Meta) error {
	count, err := strconv.Atoi(meta.Extra[judge.KeyLabelShards])
	if err != nil || count < 1 {
		return fmt.Errorf("%s: %s %q is not a number of shards", path, judge.KeyLabelShards, meta.Extra[judge.KeyLabelShards])
	}
	positions, err := strconv.Atoi(meta.Extra[judge.KeyLabelPositions])
	if err != nil || positions < 1 {
		return fmt.Errorf("%s: %s %q is not a number of positions", path, judge.KeyLabelPositions, meta.Extra[judge.KeyLabelPositions])
	}
	dir := filepath.Dir(path)
	rd := v.labels[dir]
	if rd == nil {
		rd = &runDir{first: path, seed: meta.RunSeed, config: meta.Search, games: positions, count: count, seen: map[int]bool{}}
		v.labels[dir] = rd
	}
	differ := func(what string, a, b any) error {
		return fmt.Errorf("%s: %s %v, but %s has %v: shards of two labelling runs in one directory", path, what, a, rd.first, b)
	}
	switch {
	case meta.RunSeed != rd.seed:
		return differ("seed", meta.RunSeed, rd.seed)
	case meta.Search != rd.config:
		return differ("settings", meta.Search, rd.config)
	case positions != rd.games || count != rd.count:
		return differ("positions and shards", fmt.Sprintf("%d and %d", positions, count), fmt.Sprintf("%d and %d", rd.games, rd.count))
	case meta.Shard < 0 || meta.Shard >= count:
		return fmt.Errorf("%s: shard %d of a run of %d shards", path, meta.Shard, count)
	case filepath.Base(path) != fmt.Sprintf("shard-%05d.arrow", meta.Shard):
		return fmt.Errorf("%s: holds shard %d", path, meta.Shard)
	}
	rd.seen[meta.Shard] = true
	return nil
}

// Complete checks that every self-play directory, and every directory of
// labelled shards, that the shards verified so far belong to has all its
// shards: the error names the first missing one and why it is missing.
func (v *Verifier) Complete() error {
	type dirRun struct {
		dir   string
		rd    *runDir
		rerun string
	}
	var dirs []dirRun
	for d, rd := range v.runs {
		dirs = append(dirs, dirRun{d, rd, "rerun self-play"})
	}
	for d, rd := range v.labels {
		dirs = append(dirs, dirRun{d, rd, "rerun analyze label"})
	}
	slices.SortFunc(dirs, func(a, b dirRun) int { return strings.Compare(a.dir, b.dir) })
	for _, dr := range dirs {
		d, rd := dr.dir, dr.rd
		for i := range rd.count {
			if rd.seen[i] {
				continue
			}
			p := filepath.Join(d, fmt.Sprintf("shard-%05d.arrow", i))
			why := "missing"
			if _, err := os.Stat(p); err == nil {
				why = "not among the paths given"
			} else if _, err := os.Stat(data.ClaimPath(p)); err == nil {
				why = "missing: being written (or its writer died: " + dr.rerun + ")"
			}
			return fmt.Errorf("%s: %s; the run has %d shards", p, why, rd.count)
		}
	}
	return nil
}
