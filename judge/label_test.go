package judge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/train"
	"github.com/arimaalab/arimaalab/weights"
)

// finishedArchive writes an archive of games, each given as its moves after
// the standard setups and its outcome (Reason NotOver: no result).
func finishedArchive(t *testing.T, games ...struct {
	moves   []string
	outcome engine.Outcome
}) string {
	t.Helper()
	var recs []engine.Record
	for i, g := range games {
		game := engine.NewGame()
		for _, s := range []string{goldSetup, silverSetup} {
			if err := game.PlaySetup(s); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range g.moves {
			if err := game.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		rec := game.Record(fmt.Sprint(200 + i))
		rec.Gold, rec.Silver = "gold", "silver"
		rec.Result, rec.Termination = g.outcome.Winner, g.outcome.Reason
		recs = append(recs, rec)
	}
	var b strings.Builder
	if err := engine.WriteArchive(&b, recs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// labelPositions returns the positions of two games (Silver wins the first,
// of 5 moves, by resignation; the second, of 3, has no result) and of a
// position file of one position with Silver to move.
func labelPositions(t *testing.T) []Position {
	t.Helper()
	arch := finishedArchive(t,
		struct {
			moves   []string
			outcome engine.Outcome
		}{[]string{"Ee2n", "ed7s", "Ee3n", "ed6s", "Ee4s"}, engine.Outcome{Winner: engine.Silver, Reason: engine.Resignation}},
		struct {
			moves   []string
			outcome engine.Outcome
		}{[]string{"Dg2n", "dg7s", "Dg3n"}, engine.Outcome{}},
	)
	ps, err := ArchivePositions(strings.NewReader(arch), "games.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	more, err := ReadPositions(strings.NewReader("# one\n"+board(t, engine.Silver, "Ed4 Ra1 Rb2 rh7 ra8 ce6")+"\n"), "p.aei")
	if err != nil {
		t.Fatal(err)
	}
	return append(ps, more...)
}

// labelTable gives each position of ps a score the fake engine reports, for
// the board it is asked (Silver's mirrored), in turn from Sharp's log line
// (milli-rabbits) and as info score (centi-rabbits), one a win beyond the
// clamp; it returns the fake's table and each position's score in rabbits.
func labelTable(t *testing.T, ps []Position) ([]score, []float64) {
	t.Helper()
	var table []score
	byBoard := map[string]float64{}
	want := make([]float64, len(ps))
	for i, p := range ps {
		asked := p.Pos.String()
		if p.Pos.Side == engine.Silver {
			asked = mirror(t, asked)
		}
		s, ok := byBoard[asked]
		if !ok {
			switch k := len(table); {
			case k == 3:
				table = append(table, score{pos: asked, kind: "log", value: "999988"})
				s = DefaultClamp
			case k%2 == 0:
				v := 1000*k - 2750
				table = append(table, score{pos: asked, kind: "log", value: fmt.Sprint(v)})
				s = float64(v) / 1000
			default:
				v := -75*k + 130
				table = append(table, score{pos: asked, kind: "info", value: fmt.Sprint(v)})
				s = float64(v) / 100
			}
			byBoard[asked] = s
		}
		want[i] = s
	}
	return table, want
}

// TestLabelRows labels two games and a position with the fake engine and
// checks every row: the score of the board the engine was asked (mirrored
// for Silver), in the units of its source, clamped, as root_value
// 2*sigmoid(0.13*score)-1; the game's turn, side, move, result for the side
// to move, plies left and termination; the board and features; whole games
// in shards of at least 3 positions. Three engines write the same bytes.
func TestLabelRows(t *testing.T) {
	ps := labelPositions(t)
	table, scores := labelTable(t, ps)
	var files, first [][]byte
	for _, engines := range []int{1, 3} {
		var judges []Judge
		for range engines {
			e, _ := startFake(t, table, Options{})
			judges = append(judges, e)
		}
		out := t.TempDir()
		var progress []int
		sum, err := Label(t.Context(), judges, ps, LabelConfig{Out: out, ShardSize: 3, Judge: "fake", Seed: 7,
			Progress: func(done, total int) {
				if total != len(ps) {
					t.Errorf("progress total %d", total)
				}
				progress = append(progress, done)
			}})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Positions != 9 || sum.Rows != 9 || sum.Scored != 9 || sum.Shards != 3 || sum.ShardsSkipped != 0 || len(progress) != 9 || progress[8] != 9 {
			t.Errorf("%d engines: summary %+v, progress %v", engines, sum, progress)
		}
		var abs float64
		for _, s := range scores {
			abs += math.Abs(s)
		}
		if math.Abs(sum.MeanAbsScore()-abs/9) > 1e-9 || sum.Sources[FromLog]+sum.Sources[FromInfo] != 9 {
			t.Errorf("mean |score| %g, want %g; sources %v", sum.MeanAbsScore(), abs/9, sum.Sources)
		}

		var rows []data.Row
		var shardRows []int
		files = files[:0:0]
		for i := range 3 {
			rs, err := data.ReadRows(ShardPath(out, i))
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, rs...)
			shardRows = append(shardRows, len(rs))
			b, err := os.ReadFile(ShardPath(out, i))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, b)
		}
		if !slices.Equal(shardRows, []int{5, 3, 1}) {
			t.Errorf("rows by shard %v, want whole games: 5, 3, 1", shardRows)
		}
		type want struct {
			turn, side  int
			move        string
			result      int8
			plies       int
			termination string
			game        int
		}
		wants := []want{
			{2, 0, "Ee2n", -1, 5, "resignation", 0}, {2, 1, "ed7s", 1, 4, "resignation", 0}, {3, 0, "Ee3n", -1, 3, "resignation", 0},
			{3, 1, "ed6s", 1, 2, "resignation", 0}, {4, 0, "Ee4s", -1, 1, "resignation", 0},
			{2, 0, "Dg2n", 0, 3, "not-over", 1}, {2, 1, "dg7s", 0, 2, "not-over", 1}, {3, 0, "Dg3n", 0, 1, "not-over", 1},
			{2, 1, "", 0, 1, "not-over", 2},
		}
		ids := map[uint64]int{}
		feats := make([]float32, features.N)
		for i, r := range rows {
			w := wants[i]
			if g, ok := ids[r.GameID]; ok && g != w.game {
				t.Errorf("row %d: game id %d of game %d", i, r.GameID, g)
			}
			ids[r.GameID] = w.game
			value := 2/(1+math.Exp(-0.13*scores[i])) - 1
			if int(r.Turn) != w.turn || int(r.Side) != w.side || r.Move != w.move || r.Result != w.result || int(r.PliesLeft) != w.plies ||
				r.Termination != w.termination || r.Visits != 0 || len(r.Policy) != 0 || !r.FullSearch || math.Abs(float64(r.RootValue)-value) > 1e-6 {
				t.Errorf("row %d: %+v; want %+v, root_value %.6f (score %g)", i, r, w, value, scores[i])
			}
			for k, b := range ps[i].Pos.Bits {
				if r.Board[k] != uint64(b) {
					t.Errorf("row %d: board %d is %x, want %x", i, k, r.Board[k], uint64(b))
				}
			}
			features.Extract(&ps[i].Pos, feats)
			if !slices.Equal(r.Features, feats) {
				t.Errorf("row %d: features %v, want %v", i, r.Features, feats)
			}
		}
		if len(ids) != 3 {
			t.Errorf("%d game ids, want 3", len(ids))
		}
		if rows[3].RootValue < 0.85 || rows[3].RootValue > 0.87 { // the clamped win: 2*sigmoid(0.13*20)-1
			t.Errorf("the win's root_value %g", rows[3].RootValue)
		}
		r, err := data.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		meta := r.Meta(1)
		r.Close()
		if meta.Extra[KeyLabelShards] != "3" || meta.Extra[KeyLabelPositions] != "9" || meta.Shard != 1 || meta.RunSeed != 7 ||
			!strings.Contains(meta.Search, `"judge":"fake","scale":0.13,`) || meta.WeightsGeneration != -1 {
			t.Errorf("metadata %+v", meta)
		}
		if left, _ := filepath.Glob(filepath.Join(out, "*.t*")); len(left) > 0 { // .tmp files
			t.Errorf("left behind: %v", left)
		}
		if left, _ := filepath.Glob(filepath.Join(out, "*.claim")); len(left) > 0 {
			t.Errorf("left behind: %v", left)
		}
		if engines == 3 {
			for i := range files {
				if !bytes.Equal(files[i], first[i]) {
					t.Errorf("shard %d: three engines wrote other bytes than one", i)
				}
			}
		}
		first = files
	}
}

// scorer is a judge in process: its score of a position is score(pos), from
// info score; calls counts its evaluations, and the call numbered cancelAt
// (from 1) calls cancel first.
type scorer struct {
	score    func(*engine.Position) float64
	calls    atomic.Int64
	cancelAt int64
	cancel   func()
}

func (s *scorer) Eval(ctx context.Context, pos engine.Position, _ *engine.History) (Eval, error) {
	if n := s.calls.Add(1); n == s.cancelAt {
		s.cancel()
	}
	if err := ctx.Err(); err != nil {
		return Eval{}, err
	}
	return Eval{Score: s.score(&pos), Source: FromInfo}, nil
}

// archivePositions reads the archive of the engine's test data.
func archivePositions(t *testing.T) []Position {
	t.Helper()
	name := filepath.Join("..", "engine", "testdata", "archive2011-12games.txt")
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, err := ArchivePositions(f, name, "")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// linearScore scores a position by a fixed linear function of its features,
// in rabbits.
func linearScore(pos *engine.Position) float64 {
	f := make([]float32, features.N)
	features.Extract(pos, f)
	s := 0.3
	for _, c := range []struct {
		name string
		w    float64
	}{{"harlog", 0.8}, {"material_rabbit", 1.5}, {"rabbit_rank6", 2}, {"goal_threat_own", 3}} {
		i := features.Index(c.name)
		if i < 0 {
			panic("no feature " + c.name)
		}
		s += c.w * float64(f[i])
	}
	return s
}

// TestLabelTrains labels 600 archive positions with a judge whose score is a
// linear function of the features, and fits weights on the shards with
// train -target value from generation 0: the fitted evaluation gives back
// every row's root_value, where generation 0 does not.
func TestLabelTrains(t *testing.T) {
	ps := Pick(archivePositions(t), 5, 600)
	out := t.TempDir()
	j := &scorer{score: linearScore}
	if _, err := Label(t.Context(), []Judge{j}, ps, LabelConfig{Out: out, ShardSize: 250}); err != nil {
		t.Fatal(err)
	}
	g0, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	opt := train.DefaultOptions()
	opt.Data, opt.Init, opt.Target, opt.L2, opt.Threads = []string{out}, g0, train.Target{Kind: train.TargetValue}, 1e-9, 2
	res, err := train.Run(t.Context(), opt)
	if err != nil {
		t.Fatal(err)
	}
	fitted, err := weights.NewLinear(res.Weights)
	if err != nil {
		t.Fatal(err)
	}
	gen0, err := weights.NewLinear(g0)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	var worst, worst0 float64
	for i := 0; ; i++ {
		rs, err := data.ReadRows(ShardPath(out, i))
		if errors.Is(err, os.ErrNotExist) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			var bb [data.BoardLen]engine.Bitboard
			for k, b := range r.Board {
				bb[k] = engine.Bitboard(b)
			}
			pos, err := engine.PositionFromBits(bb, engine.Color(r.Side))
			if err != nil {
				t.Fatal(err)
			}
			worst = max(worst, math.Abs(float64(fitted.Evaluate(&pos)-r.RootValue)))
			worst0 = max(worst0, math.Abs(float64(gen0.Evaluate(&pos)-r.RootValue)))
			rows++
		}
	}
	if rows != 600 || worst > 0.01 {
		t.Errorf("%d rows; the fitted evaluation is up to %.4f from root_value", rows, worst)
	}
	if worst0 < 0.1 {
		t.Errorf("generation 0 is already within %.4f of root_value: the test shows nothing", worst0)
	}
}

// readDir returns the files of dir and their bytes.
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

// TestLabelResumes cuts a run short in its second shard: the first shard is
// published, nothing else is left behind, and the same run continues with
// the positions of the shards not written (no position of the first is
// scored again) to the bytes of a run never cut. A run of other settings or
// positions in the same directory is refused, naming what differs.
func TestLabelResumes(t *testing.T) {
	ps := Pick(archivePositions(t), 9, 120)
	cfg := LabelConfig{ShardSize: 40, Judge: map[string]any{"depth": 4}, Selection: "n=120"}
	cfg.Out = t.TempDir()
	whole := &scorer{score: linearScore}
	sum, err := Label(t.Context(), []Judge{whole}, ps, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := readDir(t, cfg.Out)
	shards := sum.Shards
	if shards < 3 || len(want) != 2*shards {
		t.Fatalf("%d shards, files %d", shards, len(want))
	}
	rs, err := data.ReadRows(ShardPath(cfg.Out, 0))
	if err != nil {
		t.Fatal(err)
	}
	firstShard := len(rs)

	for _, workers := range []int{2, 1} {
		cfg.Out = t.TempDir()
		ctx, cancel := context.WithCancel(t.Context())
		j := &scorer{score: linearScore, cancelAt: int64(firstShard + 5), cancel: cancel}
		judges := slices.Repeat([]Judge{j}, workers) // one scorer, called concurrently
		sum, err = Label(ctx, judges, ps, cfg)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%d workers: a cancelled run returned %v", workers, err)
		}
		// With one worker every position before the cut is written.
		if workers == 1 && (sum.Shards != 1 || sum.Rows != int64(firstShard) || sum.Scored != firstShard+4) {
			t.Errorf("the cut run: %+v", sum)
		}
		got := readDir(t, cfg.Out)
		for name := range got {
			if name != "shard-00000.arrow" && name != "shard-00000.arrow.xxh128" {
				t.Errorf("%d workers: the cut run left %s", workers, name)
			}
		}
	}

	again := &scorer{score: linearScore}
	sum, err = Label(t.Context(), []Judge{again}, ps, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.ShardsSkipped != 1 || sum.Shards != shards-1 || again.calls.Load() != int64(len(ps)-firstShard) {
		t.Errorf("resumed: %+v, %d positions scored; want %d", sum, again.calls.Load(), len(ps)-firstShard)
	}
	if got := readDir(t, cfg.Out); !maps.Equal(got, want) {
		t.Errorf("the resumed run wrote other files or bytes than a whole one")
	}
	done := &scorer{score: linearScore}
	if sum, err = Label(t.Context(), []Judge{done}, ps, cfg); err != nil || sum.ShardsSkipped != shards || sum.Rows != 0 || done.calls.Load() != 0 {
		t.Errorf("a finished run again: %+v, %v, %d positions scored", sum, err, done.calls.Load())
	}

	for _, c := range []struct {
		name   string
		change func(*LabelConfig) []Position
		err    string
	}{
		{"scale", func(c *LabelConfig) []Position { c.Scale = 0.2; return ps },
			"shard-00000.arrow was written with scale 0.13, but this run has 0.2: a shard of another run"},
		{"judge", func(c *LabelConfig) []Position { c.Judge = map[string]any{"depth": 6}; return ps },
			"was written with judge.depth 4, but this run has 6"},
		{"shard size", func(c *LabelConfig) []Position { c.ShardSize = 30; return ps },
			"was written with positions and shards 120 and "},
		{"positions", func(c *LabelConfig) []Position { return Pick(archivePositions(t), 10, 120) },
			"shard-00000.arrow holds other positions than this run's shard 0"},
	} {
		cc := cfg
		ps := c.change(&cc)
		_, err := Label(t.Context(), []Judge{&scorer{score: linearScore}}, ps, cc)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v; want an error with %q", c.name, err, c.err)
		}
	}
}

// TestLabelErrors checks the errors of Label: a judge's error names the
// position and leaves no shard of it behind; bad settings.
func TestLabelErrors(t *testing.T) {
	ps := labelPositions(t)
	table, _ := labelTable(t, ps)
	for i := range table {
		if i == 6 { // the position of the second game's 3g: no score
			table[i].kind = "none"
		}
	}
	e, _ := startFake(t, table, Options{})
	out := t.TempDir()
	_, err := Label(t.Context(), []Judge{e}, ps, LabelConfig{Out: out, ShardSize: 3})
	if want := "games.txt:3 game 201 3g: judge: fake: no score for "; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("no score: %v; want an error with %q", err, want)
	}
	if got := readDir(t, out); len(got) != 2 || got["shard-00000.arrow"] == "" {
		t.Errorf("after the error: %v; want the first shard only", slices.Sorted(maps.Keys(got)))
	}

	j := []Judge{&scorer{score: linearScore}}
	for _, c := range []struct {
		name   string
		judges []Judge
		ps     []Position
		cfg    LabelConfig
		err    string
	}{
		{"no judges", nil, ps, LabelConfig{Out: out}, "judge: no judges"},
		{"no positions", j, nil, LabelConfig{Out: out}, "judge: no positions"},
		{"no output", j, ps, LabelConfig{}, "judge: no output directory"},
		{"negative scale", j, ps, LabelConfig{Out: out, Scale: -1}, "judge: scale -1 is not a positive number"},
		{"NaN scale", j, ps, LabelConfig{Out: out, Scale: math.NaN()}, "judge: scale NaN is not a positive number"},
		{"negative shard size", j, ps, LabelConfig{Out: out, ShardSize: -2}, "judge: shard size -2 is negative"},
		{"a game apart", j, []Position{ps[0], ps[5], ps[1]}, LabelConfig{Out: out}, "judge: games.txt:2 game 200 2s: its game's positions do not follow each other"},
		{"plies out of order", j, []Position{ps[1], ps[0]}, LabelConfig{Out: out}, "judge: games.txt:2 game 200 2g: after ply 1 of its game"},
	} {
		if _, err := Label(t.Context(), c.judges, c.ps, c.cfg); err == nil || err.Error() != c.err {
			t.Errorf("%s: %v; want %q", c.name, err, c.err)
		}
	}
	// A shard of self-play in the way.
	other := t.TempDir()
	w, err := data.Create(ShardPath(other, 0), data.Meta{FeatureNames: features.Names(), FeatureVersion: features.Version()}, data.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	row := LabelRow(ps[0], 1, 0.13)
	if err := w.Write(&row); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Label(t.Context(), j, ps, LabelConfig{Out: other}); err == nil || !strings.Contains(err.Error(), "shard-00000.arrow is not a labelled shard") {
		t.Errorf("a self-play shard: %v", err)
	}
}

// TestPickEvery checks the choice of positions: Pick draws Sample's
// positions in the order given; Every keeps every k-th ply of each game and
// every position of a position file.
func TestPickEvery(t *testing.T) {
	ps := labelPositions(t)
	for _, n := range []int{0, 1, 4, 9, 20} {
		got := Pick(ps, 3, n)
		sample := Sample(ps, 3, n)
		where := func(ps []Position) []string {
			var w []string
			for _, p := range ps {
				w = append(w, p.Where)
			}
			return w
		}
		ws := where(sample)
		wantN := min(len(ps), n)
		if n == 0 {
			wantN = len(ps)
		}
		if len(got) != wantN || !slices.Equal(slices.Sorted(slices.Values(where(got))), slices.Sorted(slices.Values(ws))) {
			t.Errorf("Pick(%d) = %v; Sample gives %v", n, where(got), ws)
		}
		if !slices.IsSortedFunc(got, func(a, b Position) int {
			return slices.Index(ps, a) - slices.Index(ps, b)
		}) {
			t.Errorf("Pick(%d) = %v: not in the order given", n, where(got))
		}
	}
	var plies []string
	for _, p := range Every(ps, 2) {
		plies = append(plies, p.Where)
	}
	want := []string{"games.txt:2 game 200 2g", "games.txt:2 game 200 3g", "games.txt:2 game 200 4g", "games.txt:3 game 201 2g", "games.txt:3 game 201 3g", "p.aei:2"}
	if !slices.Equal(plies, want) {
		t.Errorf("Every(2) = %q, want %q", plies, want)
	}
	if got := Every(ps, 1); len(got) != len(ps) {
		t.Errorf("Every(1) kept %d of %d", len(got), len(ps))
	}
}

// TestLabelSharp labels with the real Sharp at depth 4 the opening and a
// position where Gold has lost its camel, with each side to move: the rows'
// root_value follow Sharp's log line (about even; far behind or ahead
// whichever side is to move, so Silver's were mirrored). Skipped without the
// binary and under -short.
func TestLabelSharp(t *testing.T) {
	e := startSharp(t)
	empty := strings.Repeat(" ", 32)
	opening := "[rrrrrrrrhdcemcdh" + empty + "HDCMECDHRRRRRRRR]"
	noCamel := "[rrrrrrrrhdcemcdh" + empty + "HDC ECDHRRRRRRRR]"
	ps, err := ReadPositions(strings.NewReader("g "+opening+"\ns "+opening+"\ng "+noCamel+"\ns "+noCamel+"\n"), "p.aei")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	sum, err := Label(t.Context(), []Judge{e}, ps, LabelConfig{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := data.ReadRows(ShardPath(out, 0))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sources[FromLog] != 4 || len(rows) != 4 {
		t.Fatalf("summary %+v, %d rows", sum, len(rows))
	}
	v := func(score float64) float32 { return float32(math.Tanh(0.13 * score / 2)) }
	for i, c := range []struct{ lo, hi float32 }{{v(-2), v(2)}, {v(-2), v(2)}, {v(-20), v(-5)}, {v(5), v(20)}} {
		if r := rows[i].RootValue; r < c.lo || r > c.hi {
			t.Errorf("%s: root_value %g, want %g to %g", ps[i].Pos.String(), r, c.lo, c.hi)
		}
	}
}
