package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/arimaalab/arimaalab/match"
)

// Report is what a run produced, generation by generation.
type Report struct {
	Out         string      `json:"out"`
	Generations []GenReport `json:"generations"`
	// Best is the generation whose weights are the best at the end.
	Best int `json:"best"`
}

// GenReport is one generation of the report.
type GenReport struct {
	Generation int `json:"generation"`
	// SelfPlayRows and SelfPlayShards describe the self-play of this
	// generation's best weights (none for the last generation).
	SelfPlayRows int64 `json:"selfplay_rows"`
	// Train holds the candidate's training metrics (train_logloss,
	// val_logloss, val_accuracy, ...), none for generation 0.
	Train map[string]float64 `json:"train,omitempty"`
	// Gate is the candidate's match against the best so far.
	Gate *Decision `json:"gate,omitempty"`
	// Rating is the pool rating of this generation's candidate (generation 0:
	// its weights), with its 95% interval.
	Rating *Rating `json:"rating,omitempty"`
}

// Rating is a pool rating with its 95% interval.
type Rating struct {
	Elo   float64 `json:"elo"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Games int     `json:"games"`
}

func buildReport(c Config, pool *match.PoolResult) (*Report, error) {
	rep := &Report{Out: c.Out}
	ratings := map[string]Rating{}
	for _, r := range pool.Table() {
		ratings[r.Name] = Rating{r.Elo, r.Low, r.High, r.Games}
	}
	for g := 0; g <= c.Generations; g++ {
		gr := GenReport{Generation: g}
		rows, err := dataRows(filepath.Join(genDir(c.Out, g), "selfplay"))
		if err != nil {
			return nil, err
		}
		gr.SelfPlayRows = rows
		if g > 0 {
			w, err := loadWeights(filepath.Join(genDir(c.Out, g), "candidate.json"))
			if err != nil {
				return nil, err
			}
			gr.Train = w.Lineage.Metrics
			var d Decision
			if err := readJSON(filepath.Join(genDir(c.Out, g), "decision.json"), &d); err != nil {
				return nil, err
			}
			gr.Gate = &d
			rep.Best = d.Best
		}
		if r, ok := ratings[fmt.Sprintf("gen%d", g)]; ok {
			gr.Rating = &r
		}
		rep.Generations = append(rep.Generations, gr)
	}
	return rep, nil
}

// Markdown renders the report as a table.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# arimaalab run %s\n\n", r.Out)
	fmt.Fprintf(&b, "Best weights at the end: generation %d (`gen=%04d/weights.json`).\n\n", r.Best, r.Best)
	b.WriteString("| gen | self-play rows | val log-loss | val accuracy | gate score | gate Elo (95%) | promoted | pool Elo (95%) |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---|---|---|\n")
	for _, g := range r.Generations {
		fmt.Fprintf(&b, "| %d | %d |", g.Generation, g.SelfPlayRows)
		if g.Train != nil {
			fmt.Fprintf(&b, " %.4f | %.3f |", g.Train["val_logloss"], g.Train["val_accuracy"])
		} else {
			b.WriteString(" | |")
		}
		if g.Gate != nil {
			verdict := ""
			if g.Gate.Verdict != "" {
				verdict = ", " + g.Gate.Verdict
			}
			fmt.Fprintf(&b, " %.3f (%d games%s) | %+.0f [%+.0f, %+.0f] | %v |", g.Gate.Score, g.Gate.Games, verdict, g.Gate.Elo, g.Gate.EloLow, g.Gate.EloHigh, yesNo(g.Gate.Promoted))
		} else {
			b.WriteString(" | | |")
		}
		if g.Rating != nil {
			fmt.Fprintf(&b, " %+.0f [%+.0f, %+.0f] |\n", g.Rating.Elo, g.Rating.Low, g.Rating.High)
		} else {
			b.WriteString(" |\n")
		}
	}
	b.WriteString("\nGate: the candidate against the best weights so far, pairs of games with colours swapped; Elo from the pentanomial counts.\n")
	b.WriteString("Pool: generation 0 and every generation's candidate rated together (Bradley-Terry, generation 0 at 0); see `pool/ratings.md`.\n")
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// write writes report.md, report.json and report.png (the pool's chart).
func (r *Report) write(out string, pool *match.PoolResult) error {
	if err := writeFile(filepath.Join(out, "report.md"), []byte(r.Markdown())); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(out, "report.json"), append(b, '\n')); err != nil {
		return err
	}
	png, err := os.ReadFile(filepath.Join(out, "pool", "ratings.png"))
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(out, "report.png"), png)
}
