// Package match plays matches between Arimaa players (the search with a
// generation of weights, a random mover, external engines over AEI) and
// measures them with package rating: Elo with its 95% interval, normalized
// Elo, the likelihood of superiority, pentanomial counts over game pairs and a
// sequential probability ratio test, with the formulas fastchess publishes;
// and for a pool of generations, maximum-likelihood ratings, a rating table
// and a chart.
//
// Games come in pairs: each pair of setups, drawn from the match seed, is
// played twice with colours swapped. Games run concurrently, are saved in the
// arimaa.com archive format, and their results are appended to a file as they
// finish, so that an interrupted match resumes where it stopped. See
// docs/eval.md.
package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/arimaalab/arimaalab/rating"
)

// Options are the settings of a match.
type Options struct {
	// Games is the number of games, rounded up to an even number (pairs).
	Games int
	// Concurrency is the number of games played at once (0: one per core,
	// divided by the threads of the most threaded player).
	Concurrency int
	// Seed makes the setups and the players' seeds reproducible: game i is
	// the same whenever it is played.
	Seed uint64
	// MaxTurns ends a game still running after this many turns as a draw
	// (0: DefaultMaxTurns).
	MaxTurns int
	// Setups is the setup distribution (DefaultSetups for the usual one).
	Setups SetupConfig
	// Out is the directory of the results, games and summary ("" writes
	// nothing).
	Out string
	// Resume continues the match in Out without replaying its finished games.
	Resume bool
	// SPRT, when set, stops the match as soon as the test decides.
	SPRT *rating.SPRT
	// Progress, when set, is called once the games of an earlier run are read
	// back and after each finished game, from the goroutine that runs Run;
	// the Result changes after the call returns.
	Progress func(*Result)
	// Log receives warnings and a line per game at debug level (nil: slog's
	// default logger).
	Log *slog.Logger
}

// Result is the state of a match: the statistics of the games finished so far
// and, at the end, the SPRT's verdict.
type Result struct {
	A, B                 string // the players' names
	DescribeA, DescribeB string // their settings
	Stats                rating.Stats
	// Games is the number of games the match was to play; Resumed how many
	// of the finished ones were read back from an earlier run.
	Games, Resumed int
	// GoldWins and SilverWins count decided games by the winner's colour.
	GoldWins, SilverWins int
	// Terminations counts the games by how they ended.
	Terminations map[string]int
	SPRT         *rating.SPRT
	LLR          float64
	Verdict      rating.Verdict
	Elapsed      time.Duration
	// SearchA and SearchB sum the searches of A and B over the games, for
	// the players of the search (nil for the others).
	SearchA, SearchB *SearchStats
	// pending holds A's score in the first finished game of unfinished pairs.
	pending map[int]float64
}

// Run plays a match of A against B. When ctx is cancelled it returns the
// result so far with ctx's error; the games finished are saved and a rerun
// with Resume continues the match. With an SPRT it stops as soon as the test
// decides.
func Run(ctx context.Context, a, b Player, opt Options) (*Result, error) {
	start := time.Now()
	if opt.Games <= 0 {
		return nil, errors.New("match: no games to play")
	}
	games := opt.Games + opt.Games%2
	if opt.SPRT != nil {
		if err := opt.SPRT.Validate(); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
	}
	res := &Result{
		A: a.Name(), B: b.Name(), DescribeA: a.Describe(), DescribeB: b.Describe(),
		Games: games, Terminations: map[string]int{}, SPRT: opt.SPRT, pending: map[int]float64{},
	}
	resumed := true
	r := &runner{
		common:   opt.common(),
		players:  []Player{a, b},
		pairings: []pairing{{a: 0, b: 1, games: games}},
		metaFile: "match.json",
		meta: matchMeta{
			Kind: "match", A: a.Name(), B: b.Name(), DescribeA: a.Describe(), DescribeB: b.Describe(), HashA: hashOf(a), HashB: hashOf(b),
			Games: games, Seed: opt.Seed, MaxTurns: maxTurnsOr(opt.MaxTurns), Setups: opt.Setups, SPRT: opt.SPRT,
		},
	}
	r.done = func(g GameResult) bool {
		res.add(g)
		if resumed {
			res.Resumed++
		}
		if opt.Progress != nil && !resumed {
			opt.Progress(res)
		}
		return res.Verdict != rating.Continue
	}
	// The resumed games are counted by the first calls of done, before any
	// game is played.
	r.beforePlay = func() {
		resumed = false
		if opt.Progress != nil {
			opt.Progress(res)
		}
	}
	err := r.run(ctx)
	res.Elapsed = time.Since(start)
	if opt.Out != "" && (err == nil || ctx.Err() != nil) {
		if werr := writeJSON(filepath.Join(opt.Out, SummaryFile), res.JSON()); werr != nil && err == nil {
			err = werr
		}
	}
	return res, err
}

func (o Options) common() common {
	return common{Concurrency: o.Concurrency, Seed: o.Seed, MaxTurns: o.MaxTurns, Setups: o.Setups, Out: o.Out, Resume: o.Resume, Log: o.Log}
}

// hashOf returns the hash of a player's weights, "" for players without.
func hashOf(p Player) string {
	if h, ok := p.(interface{ Hash() string }); ok {
		return h.Hash()
	}
	return ""
}

func maxTurnsOr(n int) int {
	if n > 0 {
		return n
	}
	return DefaultMaxTurns
}

// matchMeta is what match.json holds; a resumed match must have the same.
type matchMeta struct {
	Kind      string       `json:"kind"`
	A         string       `json:"a"`
	B         string       `json:"b"`
	DescribeA string       `json:"describe_a"`
	DescribeB string       `json:"describe_b"`
	HashA     string       `json:"hash_a,omitempty"`
	HashB     string       `json:"hash_b,omitempty"`
	Games     int          `json:"games"`
	Seed      uint64       `json:"seed"`
	MaxTurns  int          `json:"max_turns"`
	Setups    SetupConfig  `json:"setups"`
	SPRT      *rating.SPRT `json:"sprt,omitempty"`
}

// add counts a finished game.
func (r *Result) add(g GameResult) {
	r.Stats.AddGame(g.ScoreA)
	switch g.Winner {
	case "gold":
		r.GoldWins++
	case "silver":
		r.SilverWins++
	}
	r.Terminations[g.Termination]++
	addSearch(&r.SearchA, g.SearchA)
	addSearch(&r.SearchB, g.SearchB)
	k := g.Game / 2
	if first, ok := r.pending[k]; ok {
		delete(r.pending, k)
		r.Stats.AddPair(first, g.ScoreA)
		if r.SPRT != nil {
			r.LLR = r.SPRT.LLR(r.Stats)
			r.Verdict = r.SPRT.Verdict(r.LLR)
		}
	} else {
		r.pending[k] = g.ScoreA
	}
}

// addSearch sums a game's searches g into *sum (nil until a game has some).
func addSearch(sum **SearchStats, g *SearchStats) {
	if g == nil {
		return
	}
	if *sum == nil {
		*sum = &SearchStats{}
	}
	(*sum).add(*g)
}

// Line returns a one-line summary for a progress bar, such as
// "gen-3 vs gen0: 12-5-1, 68.1%, Elo +134 ± 96".
func (r *Result) Line() string {
	s := r.Stats
	if s.Games() == 0 {
		return fmt.Sprintf("%s vs %s", r.A, r.B)
	}
	e := r.estimate()
	line := fmt.Sprintf("%s vs %s: %d-%d-%d, %.1f%%, Elo %s ± %s", r.A, r.B, s.Wins, s.Losses, s.Draws,
		100*s.Points()/float64(s.Games()), signed(e.Elo, 0), unsigned(e.EloError, 0))
	if r.SPRT != nil {
		line += fmt.Sprintf(", LLR %.2f", r.LLR)
	}
	return line
}

// estimate is the pentanomial estimate once a pair is finished, else the
// trinomial one.
func (r *Result) estimate() rating.Estimate {
	if r.Stats.Pairs() > 0 {
		return r.Stats.Pentanomial()
	}
	return r.Stats.Trinomial()
}

func signed(x float64, prec int) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return rating.FormatElo(x)
	}
	return fmt.Sprintf("%+.*f", prec, x)
}

func unsigned(x float64, prec int) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return rating.FormatElo(x)
	}
	return fmt.Sprintf("%.*f", prec, x)
}

// WriteSummary writes the final report in the style of fastchess: Elo and
// normalized Elo with their 95% intervals (pentanomial, over game pairs),
// LOS, draw ratio, pairs ratio, games, wins, losses, draws, points, the
// pentanomial counts, then the trinomial figures and the SPRT.
func (r *Result) WriteSummary(w io.Writer) error {
	s := r.Stats
	p := s.Pentanomial()
	t := s.Trinomial()
	var b strings.Builder
	bar := strings.Repeat("-", 50)
	fmt.Fprintln(&b, bar)
	fmt.Fprintf(&b, "Results of %s vs %s (%s - %s):\n", r.A, r.B, r.DescribeA, r.DescribeB)
	fmt.Fprintf(&b, "Elo: %s +/- %s, nElo: %s +/- %s\n", rating.FormatElo(p.Elo), rating.FormatElo(p.EloError), rating.FormatElo(p.NElo), rating.FormatElo(p.NEloError))
	fmt.Fprintf(&b, "LOS: %.2f %%, DrawRatio: %.2f %%, PairsRatio: %s\n", 100*p.LOS, 100*ratio(s.WL+s.DD, s.Pairs()), formatRatio(s.WW+s.WD, s.LD+s.LL))
	fmt.Fprintf(&b, "Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%.2f %%)\n", s.Games(), s.Wins, s.Losses, s.Draws, s.Points(), 100*ratio2(s.Points(), s.Games()))
	pt := s.Ptnml()
	fmt.Fprintf(&b, "Ptnml(0-2): [%d, %d, %d, %d, %d], WL/DD Ratio: %s\n", pt[0], pt[1], pt[2], pt[3], pt[4], formatRatio(s.WL, s.DD))
	fmt.Fprintf(&b, "Trinomial: Elo: %s +/- %s (95%%: %s to %s), nElo: %s +/- %s, LOS: %.2f %%\n",
		rating.FormatElo(t.Elo), rating.FormatElo(t.EloError), rating.FormatElo(t.EloLow), rating.FormatElo(t.EloHigh), rating.FormatElo(t.NElo), rating.FormatElo(t.NEloError), 100*t.LOS)
	fmt.Fprintf(&b, "Colours: Gold wins %d, Silver wins %d; %s\n", r.GoldWins, r.SilverWins, r.terminations())
	if r.SearchA != nil {
		fmt.Fprintf(&b, "Search of %s: %s\n", r.A, r.SearchA)
	}
	if r.SearchB != nil {
		fmt.Fprintf(&b, "Search of %s: %s\n", r.B, r.SearchB)
	}
	if r.SPRT != nil {
		lo, hi := r.SPRT.Bounds()
		fmt.Fprintf(&b, "LLR: %.2f (%.2f, %.2f) [%.2f, %.2f] %s: %s\n", r.LLR, lo, hi, r.SPRT.Elo0, r.SPRT.Elo1, r.SPRT.Model, r.Verdict)
	}
	if r.Resumed > 0 {
		fmt.Fprintf(&b, "Resumed: %d games read back from the results file\n", r.Resumed)
	}
	fmt.Fprintln(&b, bar)
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Result) terminations() string {
	keys := make([]string, 0, len(r.Terminations))
	for k := range r.Terminations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, r.Terminations[k])
	}
	if len(parts) == 0 {
		return "no games"
	}
	return strings.Join(parts, ", ")
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func ratio2(a float64, b int) float64 {
	if b == 0 {
		return 0
	}
	return a / float64(b)
}

func formatRatio(a, b int) string {
	if b == 0 {
		if a == 0 {
			return "nan"
		}
		return "inf"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// SummaryJSON is the summary file: the counts and both estimates. Values that
// are not finite (the Elo of a perfect score) are null.
type SummaryJSON struct {
	A            string              `json:"a"`
	B            string              `json:"b"`
	DescribeA    string              `json:"describe_a"`
	DescribeB    string              `json:"describe_b"`
	Games        int                 `json:"games"`
	Planned      int                 `json:"planned"`
	Stats        rating.Stats        `json:"stats"`
	Ptnml        [5]int              `json:"ptnml"`
	Pentanomial  rating.EstimateJSON `json:"pentanomial"`
	Trinomial    rating.EstimateJSON `json:"trinomial"`
	GoldWins     int                 `json:"gold_wins"`
	SilverWins   int                 `json:"silver_wins"`
	Terminations map[string]int      `json:"terminations"`
	SPRT         *SPRTJSON           `json:"sprt,omitempty"`
	Seconds      float64             `json:"seconds"`
	// SearchA and SearchB sum the searches of A and B (search players only).
	SearchA *SearchStats `json:"search_a,omitempty"`
	SearchB *SearchStats `json:"search_b,omitempty"`
}

// SPRTJSON is the state of the SPRT in the summary file.
type SPRTJSON struct {
	rating.SPRT
	LLR     float64 `json:"llr"`
	Lower   float64 `json:"lower"`
	Upper   float64 `json:"upper"`
	Verdict string  `json:"verdict"`
}

// JSON returns the summary file's content.
func (r *Result) JSON() SummaryJSON {
	s := SummaryJSON{
		A: r.A, B: r.B, DescribeA: r.DescribeA, DescribeB: r.DescribeB, Games: r.Stats.Games(), Planned: r.Games,
		Stats: r.Stats, Ptnml: r.Stats.Ptnml(), Pentanomial: r.Stats.Pentanomial().JSON(), Trinomial: r.Stats.Trinomial().JSON(),
		GoldWins: r.GoldWins, SilverWins: r.SilverWins, Terminations: r.Terminations, Seconds: r.Elapsed.Seconds(),
		SearchA: r.SearchA, SearchB: r.SearchB,
	}
	if r.SPRT != nil {
		lo, hi := r.SPRT.Bounds()
		s.SPRT = &SPRTJSON{SPRT: *r.SPRT, LLR: r.LLR, Lower: lo, Upper: hi, Verdict: r.Verdict.String()}
	}
	return s
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return writeFileSync(path, append(b, '\n'))
}
