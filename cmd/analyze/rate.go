package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/arimaalab/arimaalab/match"
	"github.com/arimaalab/arimaalab/rating"
)

// rateVerb fits ratings to the games of archive files: the ladder from every
// game already played (package match, ArchivePool; package rating, Fit).
func rateVerb(fs *flag.FlagSet) func(env, []string) error {
	anchor := fs.String("anchor", "sharp4", "the player `NAME` rated 0 (the ladder's anchor: Sharp at depth 4)")
	prior := fs.Float64("prior", 1, "virtual draws added to each pairing that played, so that a player who won or lost every game gets a finite rating (0: plain maximum likelihood)")
	model := fs.String("model", "bt", "rating model: bt (Bradley-Terry, draws as half wins) or davidson")
	boot := fs.Int("bootstrap", 0, "95% intervals from this many bootstrap fits, game pairs resampled (0: from the Fisher information)")
	seed := fs.Uint64("seed", 1, "seed of the bootstrap")
	asJSON := fs.Bool("json", false, "print the ratings and pairings as one JSON object")
	return func(e env, args []string) error {
		if len(args) == 0 {
			return usageError("want at least one archive FILE")
		}
		if *prior < 0 || *boot < 0 {
			return usageError("-prior and -bootstrap must not be negative")
		}
		if *model != string(rating.BradleyTerry) && *model != string(rating.Davidson) {
			return usageError(fmt.Sprintf("-model %q: want bt or davidson", *model))
		}
		var pool match.ArchivePool
		for _, name := range args {
			recs, label, err := readArchive(name, e.stdin)
			if err != nil {
				return err
			}
			if err := pool.Add(recs); err != nil {
				return fmt.Errorf("%s: %w", label, err)
			}
		}
		a := pool.Index(*anchor)
		if a < 0 {
			return fmt.Errorf("-anchor %q: no such player in the games (players: %s)", *anchor, quoted(pool.Names))
		}
		r, err := rating.Fit(len(pool.Names), pool.Data, rating.FitOptions{
			Model: rating.RatingModel(*model), Anchor: a, Prior: *prior, Bootstrap: *boot, Seed: *seed, Names: pool.Names})
		if err != nil {
			return err
		}
		rep := newRateReport(&pool, r, *prior)
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		}
		rep.print(e.stdout)
		return nil
	}
}

// rateReport is what rate prints: each player's rating and each pairing's
// results.
type rateReport struct {
	Anchor     string        `json:"anchor"`
	Model      string        `json:"model"`
	Interval   string        `json:"interval"`
	Prior      float64       `json:"prior"`
	Games      int           `json:"games"`
	Paired     int           `json:"paired"`
	Unfinished int           `json:"unfinished"`
	Players    []ratedPlayer `json:"players"`
	Pairings   []ratePairing `json:"pairings"`
}

// ratedPlayer is one player's rating with its 95% interval, and its games.
type ratedPlayer struct {
	Name   string  `json:"name"`
	Elo    float64 `json:"elo"`
	Low    float64 `json:"elo_low"`
	High   float64 `json:"elo_high"`
	Games  int     `json:"games"`
	Points float64 `json:"points"`
}

// ratePairing is two players' results from A's view, with the Elo
// difference they alone imply (pentanomial over the pairs where every game
// came in a pair, trinomial otherwise).
type ratePairing struct {
	A      string              `json:"a"`
	B      string              `json:"b"`
	Stats  rating.Stats        `json:"stats"`
	Elo    rating.EstimateJSON `json:"elo"`
	Paired bool                `json:"paired"`
}

// newRateReport gathers the report of pool rated r, the players from the
// highest rating down.
func newRateReport(pool *match.ArchivePool, r *rating.Ratings, prior float64) *rateReport {
	rep := &rateReport{Anchor: pool.Names[r.Anchor], Model: string(r.Model), Interval: r.Interval, Prior: prior,
		Games: pool.Games, Paired: pool.Paired, Unfinished: pool.Unfinished}
	games := make([]int, len(pool.Names))
	points := make([]float64, len(pool.Names))
	for k, d := range pool.Data {
		s := pool.Stats[k]
		games[d.I] += s.Games()
		games[d.J] += s.Games()
		points[d.I] += s.Points()
		points[d.J] += float64(s.Games()) - s.Points()
		est, paired := s.Trinomial(), 2*s.Pairs() == s.Games()
		if paired {
			est = s.Pentanomial()
		}
		rep.Pairings = append(rep.Pairings, ratePairing{A: pool.Names[d.I], B: pool.Names[d.J], Stats: s, Elo: est.JSON(), Paired: paired})
	}
	for i, name := range pool.Names {
		rep.Players = append(rep.Players, ratedPlayer{Name: name, Elo: r.Elo[i], Low: r.Low[i], High: r.High[i], Games: games[i], Points: points[i]})
	}
	slices.SortStableFunc(rep.Players, func(a, b ratedPlayer) int { return cmp.Compare(b.Elo, a.Elo) })
	return rep
}

// print writes the report as two tables.
func (rep *rateReport) print(w io.Writer) {
	fmt.Fprintf(w, "%d games (%d in pairs with colours swapped", rep.Games, rep.Paired)
	if rep.Unfinished > 0 {
		fmt.Fprintf(w, "; %d without a result, counted as draws", rep.Unfinished)
	}
	fmt.Fprintf(w, "); %s ratings, %s at 0, a prior of %g (virtual draws a pairing), 95 %% intervals from the %s\n\n",
		modelName(rep.Model), rep.Anchor, rep.Prior, intervalName(rep.Interval))
	fmt.Fprintf(w, "%-4s %-24s %8s %20s %7s %8s\n", "rank", "player", "Elo", "95 % interval", "games", "score")
	for i, p := range rep.Players {
		score := "-"
		if p.Games > 0 {
			score = fmt.Sprintf("%.1f%%", 100*p.Points/float64(p.Games))
		}
		fmt.Fprintf(w, "%-4d %-24s %+8.0f %20s %7d %8s\n", i+1, p.Name, p.Elo, fmt.Sprintf("%+.0f to %+.0f", p.Low, p.High), p.Games, score)
	}
	fmt.Fprintf(w, "\n%-24s %-24s %11s %7s %24s\n", "player", "against", "won-drawn-lost", "score", "Elo (this pairing alone)")
	for _, q := range rep.Pairings {
		g := q.Stats.Games()
		elo := "unbounded" // every game won or every game lost
		if q.Elo.Elo != nil {
			elo = fmt.Sprintf("%+.0f (%s to %s)", *q.Elo.Elo, bound(q.Elo.EloLow, "-inf"), bound(q.Elo.EloHigh, "+inf"))
		}
		fmt.Fprintf(w, "%-24s %-24s %11s %6.1f%% %24s\n", q.A, q.B, fmt.Sprintf("%d-%d-%d", q.Stats.Wins, q.Stats.Draws, q.Stats.Losses),
			100*q.Stats.Points()/float64(g), elo)
	}
}

// bound formats an interval's end, or inf when it is not finite.
func bound(x *float64, inf string) string {
	if x == nil {
		return inf
	}
	return fmt.Sprintf("%+.0f", *x)
}

// modelName and intervalName name a rating model and an interval method in
// words.
func modelName(m string) string {
	if m == string(rating.Davidson) {
		return "Davidson"
	}
	return "Bradley-Terry"
}

func intervalName(s string) string {
	if s == "bootstrap" {
		return "bootstrap"
	}
	return "Fisher information"
}

// quoted lists names in quotes, separated by commas.
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
