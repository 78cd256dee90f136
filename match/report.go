package match

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/arimaalab/arimaalab/rating"
)

// RatingRow is one line of the rating table.
type RatingRow struct {
	Rank       int      `json:"rank"`
	Name       string   `json:"name"`
	Describe   string   `json:"describe"`
	Generation *int     `json:"generation"` // null for players without weights
	Elo        float64  `json:"elo"`
	Low        float64  `json:"low"`
	High       float64  `json:"high"`
	SE         float64  `json:"se"`
	Games      int      `json:"games"`
	Points     float64  `json:"points"`
	Score      *float64 `json:"score"` // points per game
	Wins       int      `json:"wins"`
	Losses     int      `json:"losses"`
	Draws      int      `json:"draws"`
}

// RatingTable is the rating table as ratings.json holds it.
type RatingTable struct {
	Model    rating.RatingModel `json:"model"`
	Anchor   string             `json:"anchor"`
	Interval string             `json:"interval"` // fisher or bootstrap
	Prior    float64            `json:"prior,omitempty"`
	DrawNu   float64            `json:"draw_nu,omitempty"`
	Games    int                `json:"games"`
	Players  []RatingRow        `json:"players"`
	Pairings []struct {
		A           string              `json:"a"`
		B           string              `json:"b"`
		Stats       rating.Stats        `json:"stats"`
		Pentanomial rating.EstimateJSON `json:"pentanomial"`
	} `json:"pairings"`
}

// Table returns the players from the highest rating down.
func (r *PoolResult) Table() []RatingRow {
	rows := make([]RatingRow, len(r.Players))
	for i, p := range r.Players {
		row := RatingRow{Name: p.Name, Describe: p.Describe, Games: p.Games, Points: p.Points, Wins: p.Wins, Losses: p.Losses, Draws: p.Draws}
		if p.Generation >= 0 {
			g := p.Generation
			row.Generation = &g
		}
		if p.Games > 0 {
			s := p.Points / float64(p.Games)
			row.Score = &s
		}
		if r.Ratings != nil {
			row.Elo, row.Low, row.High, row.SE = r.Ratings.Elo[i], r.Ratings.Low[i], r.Ratings.High[i], r.Ratings.SE[i]
		}
		rows[i] = row
	}
	slices.SortStableFunc(rows, func(a, b RatingRow) int { return cmp.Compare(b.Elo, a.Elo) })
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return rows
}

// JSON returns the rating table with each pairing's counts.
func (r *PoolResult) JSON() RatingTable {
	t := RatingTable{Games: r.Games, Players: r.Table()}
	if r.Ratings != nil {
		t.Model, t.Interval, t.DrawNu = r.Ratings.Model, r.Ratings.Interval, r.Ratings.DrawNu
		t.Anchor = r.Players[r.Ratings.Anchor].Name
	}
	for _, p := range r.Pairings {
		t.Pairings = append(t.Pairings, struct {
			A           string              `json:"a"`
			B           string              `json:"b"`
			Stats       rating.Stats        `json:"stats"`
			Pentanomial rating.EstimateJSON `json:"pentanomial"`
		}{p.A, p.B, p.Stats, p.Stats.Pentanomial().JSON()})
	}
	return t
}

// Markdown returns the rating table and the pairings' results in Markdown.
func (r *PoolResult) Markdown() string {
	var b strings.Builder
	b.WriteString("# Ratings\n\n")
	if r.Ratings != nil {
		how := "observed Fisher information"
		if r.Ratings.Interval == "bootstrap" {
			how = fmt.Sprintf("bootstrap, %d replicates", r.Ratings.Replicates)
		}
		model := "Bradley-Terry, draws as half wins"
		if r.Ratings.Model == rating.Davidson {
			model = fmt.Sprintf("Davidson, nu = %.3g", r.Ratings.DrawNu)
		}
		fmt.Fprintf(&b, "Maximum-likelihood ratings (%s) on the Elo scale, %s anchored at 0; 95%% intervals from the %s. %d games.\n\n",
			model, r.Players[r.Ratings.Anchor].Name, how, r.Games)
	}
	b.WriteString("| rank | player | generation | Elo | 95% interval | games | score | wins | losses | draws | settings |\n")
	b.WriteString("|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---|\n")
	for _, row := range r.Table() {
		gen, score := "-", "-"
		if row.Generation != nil {
			gen = fmt.Sprint(*row.Generation)
		}
		if row.Score != nil {
			score = fmt.Sprintf("%.1f%%", 100**row.Score)
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s to %s | %d | %s | %d | %d | %d | %s |\n", row.Rank, row.Name, gen,
			signed(row.Elo, 1), signed(row.Low, 1), signed(row.High, 1), row.Games, score, row.Wins, row.Losses, row.Draws, row.Describe)
	}
	b.WriteString("\n## Pairings\n\n")
	b.WriteString("| A | B | games | A wins | B wins | draws | ptnml (LL, LD, WL+DD, WD, WW) | Elo of A (pentanomial) |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---|---|\n")
	for _, p := range r.Pairings {
		s := p.Stats
		pt := s.Ptnml()
		e := s.Pentanomial()
		elo := "-"
		if s.Pairs() > 0 {
			elo = fmt.Sprintf("%s ± %s", signed(e.Elo, 1), unsigned(e.EloError, 1))
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d, %d, %d, %d, %d | %s |\n", p.A, p.B, s.Games(), s.Wins, s.Losses, s.Draws,
			pt[0], pt[1], pt[2], pt[3], pt[4], elo)
	}
	return b.String()
}
