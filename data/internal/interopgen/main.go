// Command interopgen writes a small deterministic dataset for the interop
// check of CI (.ci/interop): two shards in the Hive layout, one LZ4-compressed
// in several record batches and one uncompressed, and expected.json, the same
// rows and metadata as JSON (64-bit integers as decimal strings), for readers
// in other languages to compare with what they read.
//
// Usage:
//
//	go run ./data/internal/interopgen -out DIR
//
// It writes DIR/run/gen=0001/selfplay/shard-00000.arrow,
// DIR/run/gen=0002/selfplay/shard-00001.arrow, a real self-play shard
// DIR/run/gen=0003/selfplay/shard-00000.arrow (a two-game run) and
// DIR/expected.json. The
// expected.json names, for each shard, the Parquet file that
// "analyze export -parquet DIR/parquet DIR/run" writes.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/selfplay"
)

func main() {
	out := flag.String("out", "", "write the dataset into `DIR`")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: interopgen -out DIR")
		os.Exit(2)
	}
	if err := generate(*out); err != nil {
		fmt.Fprintln(os.Stderr, "interopgen:", err)
		os.Exit(1)
	}
}

// expected is the content of expected.json.
type expected struct {
	FeatureNames   []string        `json:"featureNames"`
	FeatureVersion string          `json:"featureVersion"`
	Terminations   []string        `json:"terminations"`
	Shards         []expectedShard `json:"shards"`
}

type expectedShard struct {
	Arrow       string            `json:"arrow"`   // relative to DIR
	Parquet     string            `json:"parquet"` // relative to DIR
	Compression string            `json:"compression"`
	Batches     int               `json:"batches"`
	Metadata    map[string]string `json:"metadata"`
	Rows        []jsonRow         `json:"rows"`
}

type jsonRow struct {
	GameID      string       `json:"game_id"`
	Turn        uint16       `json:"turn"`
	Side        uint8        `json:"side"`
	Board       []string     `json:"board"`
	Features    []float64    `json:"features"`
	Move        string       `json:"move"`
	RootValue   float64      `json:"root_value"`
	Visits      uint32       `json:"visits"`
	Policy      []jsonPolicy `json:"policy"`
	Result      int8         `json:"result"`
	PliesLeft   uint16       `json:"plies_left"`
	Termination string       `json:"termination"`
	FullSearch  bool         `json:"full_search"`
}

type jsonPolicy struct {
	Move   string `json:"move"`
	Visits uint32 `json:"visits"`
}

func generate(dir string) error {
	exp := expected{FeatureNames: features.Names(), FeatureVersion: features.Version(), Terminations: data.Terminations()}
	shards := []struct {
		gen, shard int
		opt        data.WriterOptions
		games      []string // the terminations of the shard's games
	}{
		{1, 0, data.WriterOptions{Compression: data.LZ4, BatchRows: 5}, []string{"goal", "elimination", "immobilization", "max-turns"}},
		{2, 1, data.WriterOptions{Compression: data.None}, []string{"repetition", "goal", "max-turns"}},
	}
	for _, s := range shards {
		rel := filepath.Join("run", fmt.Sprintf("gen=%04d", s.gen), "selfplay", fmt.Sprintf("shard-%05d.arrow", s.shard))
		meta := data.Meta{
			FeatureNames:      features.Names(),
			FeatureVersion:    features.Version(),
			WeightsGeneration: s.gen - 1,
			WeightsHash:       "sha256:" + strconv.Itoa(1000+s.gen),
			Search:            `{"visits":64,"cpuct":1.25,"full_share":0.25}`,
			EngineVersion:     "interop",
			RunSeed:           math.MaxUint64 - 1,
			Shard:             s.shard,
			Extra:             map[string]string{"interop.note": "written by interopgen"},
		}
		rows := makeRows(s.shard, s.games)
		w, err := data.Create(filepath.Join(dir, rel), meta, s.opt)
		if err != nil {
			return err
		}
		for i := range rows {
			if err := w.Write(&rows[i]); err != nil {
				w.Abort()
				return err
			}
		}
		if err := w.Close(); err != nil {
			return err
		}
		r, err := data.Open(filepath.Join(dir, rel))
		if err != nil {
			return err
		}
		md := r.Schema().Metadata()
		r.Close()
		es := expectedShard{
			Arrow:       filepath.ToSlash(rel),
			Parquet:     filepath.ToSlash(filepath.Join("parquet", fmt.Sprintf("gen=%04d", s.gen), "selfplay", fmt.Sprintf("shard-%05d.parquet", s.shard))),
			Compression: string(s.opt.Compression),
			Batches:     (len(rows) + max(s.opt.BatchRows, 1) - 1) / max(s.opt.BatchRows, 1),
			Metadata:    map[string]string{},
		}
		if s.opt.BatchRows == 0 {
			es.Batches = 1
		}
		for i, k := range md.Keys() {
			es.Metadata[k] = md.Values()[i]
		}
		for _, r := range rows {
			es.Rows = append(es.Rows, toJSON(r))
		}
		exp.Shards = append(exp.Shards, es)
	}
	// A real self-play shard, as the self-play runner writes it.
	es, err := selfPlayShard(dir)
	if err != nil {
		return err
	}
	exp.Shards = append(exp.Shards, es)
	b, err := json.MarshalIndent(exp, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "expected.json"), append(b, '\n'), 0o644)
}

// selfPlayShard plays a small self-play run into run/gen=0003/selfplay (one
// LZ4 shard) and returns what it holds, read back by this package.
func selfPlayShard(dir string) (expectedShard, error) {
	c, err := selfplay.DefaultConfig()
	if err != nil {
		return expectedShard{}, err
	}
	c.Games, c.GamesPerShard, c.MaxTurns = 2, 2, 30
	c.Search.Visits, c.CheapVisits = 40, 12
	w, err := configs.Gen0()
	if err != nil {
		return expectedShard{}, err
	}
	out := filepath.Join(dir, "run", "gen=0003", "selfplay")
	if _, err := selfplay.Run(context.Background(), c, selfplay.Options{
		Out: out, Seed: 3, Shard: -1, Workers: 2, Weights: w, Log: slog.New(slog.DiscardHandler),
	}); err != nil {
		return expectedShard{}, err
	}
	path := selfplay.ShardPath(out, 0)
	rows, err := data.ReadRows(path)
	if err != nil {
		return expectedShard{}, err
	}
	r, err := data.Open(path)
	if err != nil {
		return expectedShard{}, err
	}
	md := r.Schema().Metadata()
	r.Close()
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return expectedShard{}, err
	}
	es := expectedShard{
		Arrow:       filepath.ToSlash(rel),
		Parquet:     "parquet/gen=0003/selfplay/shard-00000.parquet",
		Compression: string(data.LZ4),
		Batches:     (len(rows) + data.DefaultBatchRows - 1) / data.DefaultBatchRows,
		Metadata:    map[string]string{},
	}
	for i, k := range md.Keys() {
		es.Metadata[k] = md.Values()[i]
	}
	for _, r := range rows {
		es.Rows = append(es.Rows, toJSON(r))
	}
	return es, nil
}

// makeRows returns the rows of one game per termination given, with values
// that test the edges of each type.
func makeRows(shard int, terms []string) []data.Row {
	rng := rand.New(rand.NewPCG(uint64(shard), 42))
	moves := []string{"Ed2n Ed3n Ed4n Ed5w", "Ra2n", "hb7s hb6s Rb5n Rb4x", "Mc4e Md4n", "Cf3w Ce3x dg6s dg5s", "Hb2n Hb3e"}
	var rows []data.Row
	for g, term := range terms {
		id := math.MaxUint64 - uint64(shard*100+g) // above 2^53: exact only as 64-bit integers
		n := 2 + rng.IntN(6)
		winner := uint8(rng.IntN(2))
		for t := range n {
			side := uint8(t % 2)
			r := data.Row{
				GameID:      id,
				Turn:        uint16(2 + t/2),
				Side:        side,
				Move:        moves[rng.IntN(len(moves))],
				RootValue:   float32(rng.Float64()*2 - 1),
				Visits:      uint32(rng.IntN(10000)),
				PliesLeft:   uint16(n - t),
				Termination: term,
				FullSearch:  rng.IntN(3) != 0,
				Features:    make([]float32, features.N),
			}
			for k := range r.Board {
				r.Board[k] = rng.Uint64()
			}
			for k := range r.Features {
				r.Features[k] = float32(rng.NormFloat64() * 4)
			}
			for range rng.IntN(4) {
				r.Policy = append(r.Policy, data.PolicyEntry{Move: moves[rng.IntN(len(moves))], Visits: uint32(rng.IntN(1000))})
			}
			switch {
			case term == "max-turns":
			case side == winner:
				r.Result = 1
			default:
				r.Result = -1
			}
			rows = append(rows, r)
		}
	}
	// Edge values.
	rows[0].Board[0], rows[0].Board[1] = 0, math.MaxUint64
	rows[0].Visits = math.MaxUint32
	rows[0].Policy = []data.PolicyEntry{{Move: "", Visits: 0}, {Move: "Ee2n", Visits: math.MaxUint32}}
	rows[0].Features[1], rows[0].Features[2], rows[0].Features[3] = math.MaxFloat32, math.SmallestNonzeroFloat32, -1e-3
	rows[1].Policy = nil
	rows[1].Move = ""
	return rows
}

func toJSON(r data.Row) jsonRow {
	j := jsonRow{
		GameID: strconv.FormatUint(r.GameID, 10), Turn: r.Turn, Side: r.Side, Move: r.Move,
		RootValue: float64(r.RootValue), Visits: r.Visits, Result: r.Result, PliesLeft: r.PliesLeft,
		Termination: r.Termination, FullSearch: r.FullSearch, Policy: []jsonPolicy{},
	}
	for _, b := range r.Board {
		j.Board = append(j.Board, strconv.FormatUint(b, 10))
	}
	for _, f := range r.Features {
		j.Features = append(j.Features, float64(f))
	}
	for _, p := range r.Policy {
		j.Policy = append(j.Policy, jsonPolicy{p.Move, p.Visits})
	}
	return j
}
