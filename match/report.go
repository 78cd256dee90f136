package match

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The size of the rating chart: 8 x 5 inches at gonum/plot's 96 dots per
// inch, 768 x 480 pixels.
const (
	ChartWidth  = 8 * vg.Inch
	ChartHeight = 5 * vg.Inch
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
	Model    RatingModel `json:"model"`
	Anchor   string      `json:"anchor"`
	Interval string      `json:"interval"` // fisher or bootstrap
	Prior    float64     `json:"prior,omitempty"`
	DrawNu   float64     `json:"draw_nu,omitempty"`
	Games    int         `json:"games"`
	Players  []RatingRow `json:"players"`
	Pairings []struct {
		A           string       `json:"a"`
		B           string       `json:"b"`
		Stats       Stats        `json:"stats"`
		Pentanomial EstimateJSON `json:"pentanomial"`
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
			A           string       `json:"a"`
			B           string       `json:"b"`
			Stats       Stats        `json:"stats"`
			Pentanomial EstimateJSON `json:"pentanomial"`
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
		if r.Ratings.Model == Davidson {
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

// errorPoints are ratings with their intervals, for plotter.YErrorBars.
type errorPoints struct {
	plotter.XYs
	low, high []float64 // offsets below and above
}

func (e errorPoints) YError(i int) (float64, float64) { return e.low[i], e.high[i] }

// Chart draws the ratings of the players with a generation against their
// generation, with the 95% intervals as error bars, and returns the PNG; nil
// when no rated player has a generation.
func (r *PoolResult) Chart(w, h vg.Length) ([]byte, error) {
	if r.Ratings == nil {
		return nil, nil
	}
	type point struct{ gen, elo, lo, hi float64 }
	var pts []point
	for i, p := range r.Players {
		if p.Generation < 0 {
			continue
		}
		pts = append(pts, point{float64(p.Generation), r.Ratings.Elo[i], r.Ratings.Low[i], r.Ratings.High[i]})
	}
	if len(pts) == 0 {
		return nil, nil
	}
	slices.SortStableFunc(pts, func(a, b point) int { return cmp.Compare(a.gen, b.gen) })
	ep := errorPoints{XYs: make(plotter.XYs, len(pts)), low: make([]float64, len(pts)), high: make([]float64, len(pts))}
	for i, p := range pts {
		ep.XYs[i] = plotter.XY{X: p.gen, Y: p.elo}
		ep.low[i] = p.elo - p.lo
		ep.high[i] = p.hi - p.elo
	}

	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("Rating by generation (%s = 0, 95%% intervals)", r.Players[r.Ratings.Anchor].Name)
	pl.X.Label.Text = "generation"
	pl.Y.Label.Text = "Elo"
	pl.Add(plotter.NewGrid())
	line, scatter, err := plotter.NewLinePoints(ep.XYs)
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	blue := color.RGBA{R: 31, G: 119, B: 180, A: 255}
	line.Color = blue
	line.Width = vg.Points(1.5)
	scatter.Color = blue
	scatter.Shape = draw.CircleGlyph{}
	scatter.Radius = vg.Points(3)
	bars, err := plotter.NewYErrorBars(ep)
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	bars.Color = blue
	bars.Width = vg.Points(1)
	bars.CapWidth = vg.Points(6)
	pl.Add(line, bars, scatter)
	// Whole generations on the x axis, a margin on both sides.
	lo, hi := pts[0].gen, pts[len(pts)-1].gen
	pl.X.Min, pl.X.Max = lo-0.5, hi+0.5
	pl.X.Tick.Marker = generationTicks{}
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		ymin, ymax = math.Min(ymin, p.lo), math.Max(ymax, p.hi)
	}
	pad := math.Max(10, (ymax-ymin)*0.08)
	pl.Y.Min, pl.Y.Max = ymin-pad, ymax+pad
	pl.Y.Tick.Marker = eloTicks{}

	wt, err := pl.WriterTo(w, h, "png")
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	return buf.Bytes(), nil
}

// generationTicks marks whole generations, at most about ten labels.
type generationTicks struct{}

func (generationTicks) Ticks(min, max float64) []plot.Tick {
	lo, hi := math.Ceil(min), math.Floor(max)
	step := math.Max(1, math.Ceil((hi-lo+1)/10))
	var ts []plot.Tick
	for g := lo + 0; g <= hi; g++ { // + 0: no "-0"
		t := plot.Tick{Value: g}
		if math.Mod(g-lo, step) == 0 {
			t.Label = fmt.Sprint(g)
		}
		ts = append(ts, t)
	}
	return ts
}

// eloTicks are gonum's default ticks labelled in whole Elo.
type eloTicks struct{}

func (eloTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(math.Round(ts[i].Value*1e6)/1e6+0, 'f', -1, 64)
		}
	}
	return ts
}
