package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/match"
	"github.com/arimaalab/arimaalab/train"
	"github.com/arimaalab/arimaalab/weights"
)

// Report is what a run produced, generation by generation.
type Report struct {
	Out         string      `json:"out"`
	Generations []GenReport `json:"generations"`
	// Best is the generation whose weights are the best at the end, by the
	// chain of gates; PoolBest the generation the pool rates highest.
	Best     int `json:"best"`
	PoolBest int `json:"pool_best"`
	// RatedZero is the player the pool rates 0: the first anchor, or gen0.
	RatedZero string `json:"rated_zero"`
	// Anchors are the external anchors with their pool ratings (none when
	// pool.anchors is empty).
	Anchors []AnchorRating `json:"anchors,omitempty"`
	// FixedValidation describes the validation set every candidate is
	// measured on (nil when train.val is 0 or it holds no rows).
	FixedValidation *FixedValidation `json:"fixed_validation,omitempty"`
	// Notes are what a reader should know: where the gate and the pool
	// disagree, the generations not yet played.
	Notes []string `json:"notes,omitempty"`
	// Branch, for a run started with -branch, says where it came from.
	Branch *BranchInfo `json:"branch,omitempty"`
}

// GenReport is one generation of the report.
type GenReport struct {
	Generation int `json:"generation"`
	// SelfPlayRows and SelfPlay describe the self-play of this generation's
	// best weights, which is played when the next generation is trained:
	// none yet for the last generation.
	SelfPlayRows int64          `json:"selfplay_rows"`
	SelfPlay     *SelfPlayStats `json:"selfplay,omitempty"`
	// Train holds the candidate's training metrics (train_logloss,
	// val_logloss on the held-out games of its own window, val_accuracy,
	// ...), none for generation 0.
	Train map[string]float64 `json:"train,omitempty"`
	// FixedValLogLoss is the log-loss of the candidate (generation 0: its
	// weights) on the fixed validation set; FixedValSeen is set when the
	// candidate was trained with another split, so that some of those games
	// were in its training set.
	FixedValLogLoss *float64 `json:"fixed_val_logloss,omitempty"`
	FixedValSeen    bool     `json:"fixed_val_seen,omitempty"`
	// Gate is the candidate's match against the best so far.
	Gate *Decision `json:"gate,omitempty"`
	// BestBefore is the generation whose weights the gate played against.
	BestBefore int `json:"best_before"`
	// Rating is the pool rating of this generation's candidate (generation 0:
	// its weights), with its 95% interval; PoolVsBest the pool's rating of
	// the candidate less that of BestBefore (the gate's question, answered
	// by the pool).
	Rating     *Rating  `json:"rating,omitempty"`
	PoolVsBest *float64 `json:"pool_vs_best,omitempty"`
	// Anchors are the candidate's games against each external anchor.
	Anchors []AnchorResult `json:"anchors,omitempty"`
	// IsBest and IsPoolBest mark the best generation by the gates and by
	// the pool.
	IsBest     bool `json:"is_best"`
	IsPoolBest bool `json:"is_pool_best"`
}

// Rating is a pool rating with its 95% interval.
type Rating struct {
	Elo   float64 `json:"elo"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Games int     `json:"games"`
}

// AnchorRating is an external anchor's rating in the pool.
type AnchorRating struct {
	Name     string  `json:"name"`
	Describe string  `json:"describe"`
	Elo      float64 `json:"elo"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	Games    int     `json:"games"`
}

// FixedValidation is the validation set shared by every generation: the
// games of generation 0's self-play that the split by game holds out of
// every candidate's training.
type FixedValidation struct {
	Games  int     `json:"games"`
	Rows   int64   `json:"rows"`
	Share  float64 `json:"share"`
	Seed   uint64  `json:"seed"`
	Target string  `json:"target"`
}

// splitSeed is the seed of the split of the games into training and
// validation sets: the run's, the same for every generation, so that the
// games held out of generation 0's self-play are held out of every
// candidate's training and make a fixed validation set.
func splitSeed(c Config) uint64 { return c.Seed }

// rowOptions returns the training rows' settings of the run.
func rowOptions(c Config) (train.RowOptions, error) {
	o := train.DefaultRowOptions()
	t, err := train.ParseTarget(c.Train.Target)
	if err != nil {
		return o, err
	}
	o.Target = t
	o.Val = c.Train.Val
	o.Seed = splitSeed(c)
	o.CheapWeight = c.Train.CheapWeight
	return o, nil
}

// fixedValidation loads the fixed validation set (nil when empty).
func fixedValidation(ctx context.Context, c Config) (*train.Dataset, *FixedValidation, error) {
	if c.Train.Val == 0 {
		return nil, nil, nil
	}
	ro, err := rowOptions(c)
	if err != nil {
		return nil, nil, err
	}
	l, err := train.Load(ctx, []string{filepath.Join(genDir(c.Out, 0), "selfplay")}, ro, 0, nil)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("the fixed validation set: %w", err)
	}
	if l.Val.Rows() == 0 {
		return nil, nil, nil
	}
	games := map[uint64]bool{}
	for _, id := range l.Val.GameID {
		games[id] = true
	}
	return l.Val, &FixedValidation{Games: len(games), Rows: int64(l.Val.Rows()), Share: c.Train.Val, Seed: ro.Seed, Target: ro.Target.String()}, nil
}

// logLoss returns the log-loss of w on d.
func logLoss(ctx context.Context, d *train.Dataset, w *weights.Weights) (float64, error) {
	names := features.Names()
	values := make([]float64, len(names))
	for j, name := range names {
		values[j], _ = w.Value(name)
	}
	e, err := train.Evaluate(ctx, d, values, w.Scale, 0)
	if err != nil {
		return 0, err
	}
	return e.All.LogLoss, nil
}

// splitNote reads the split of the training rows from a lineage's notes.
var splitNote = regexp.MustCompile(`validation ([0-9.eE+-]+) of games \(seed ([0-9]+)\)`)

// sameSplit reports whether weights were trained with the run's split.
func sameSplit(c Config, w *weights.Weights) bool {
	m := splitNote.FindStringSubmatch(w.Lineage.Notes)
	if m == nil {
		return false
	}
	share, err1 := strconv.ParseFloat(m[1], 64)
	seed, err2 := strconv.ParseUint(m[2], 10, 64)
	return err1 == nil && err2 == nil && share == c.Train.Val && seed == splitSeed(c)
}

func buildReport(ctx context.Context, c Config, pool *match.PoolResult) (*Report, error) {
	rep := &Report{Out: c.Out}
	ratings := map[string]Rating{}
	for _, r := range pool.Table() {
		ratings[r.Name] = Rating{r.Elo, r.Low, r.High, r.Games}
	}
	if pool.Ratings != nil {
		rep.RatedZero = pool.Players[pool.Ratings.Anchor].Name
	}
	anchors := anchorNames(c)
	var poolGames []engine.Record
	if len(anchors) > 0 {
		var err error
		if poolGames, err = readPoolGames(filepath.Join(c.Out, "pool")); err != nil {
			return nil, err
		}
	}
	for _, r := range pool.Table() {
		for _, a := range anchors {
			if r.Name == a {
				rep.Anchors = append(rep.Anchors, AnchorRating{r.Name, r.Describe, r.Elo, r.Low, r.High, r.Games})
			}
		}
	}
	val, fv, err := fixedValidation(ctx, c)
	if err != nil {
		return nil, err
	}
	rep.FixedValidation = fv
	if b, err := readBranch(c.Out); err == nil {
		rep.Branch = b
	}
	poolBest, bestElo := -1, math.Inf(-1) // the first of equal ratings
	for g := 0; g <= c.Generations; g++ {
		gr := GenReport{Generation: g}
		sp, err := selfPlayStats(filepath.Join(genDir(c.Out, g), "selfplay"))
		if err != nil {
			return nil, err
		}
		if sp.Games > 0 {
			gr.SelfPlay, gr.SelfPlayRows = &sp, sp.Rows
		}
		file := filepath.Join(genDir(c.Out, g), "weights.json")
		if g > 0 {
			file = filepath.Join(genDir(c.Out, g), "candidate.json")
		}
		w, err := loadWeights(file)
		if err != nil {
			return nil, err
		}
		if g > 0 {
			gr.Train = w.Lineage.Metrics
			var d Decision
			if err := readJSON(filepath.Join(genDir(c.Out, g), "decision.json"), &d); err != nil {
				return nil, err
			}
			gr.Gate = &d
			rep.Best = d.Best
			gr.BestBefore = rep.Generations[g-1].Gate.bestOr0()
			gr.FixedValSeen = g-c.Train.Window <= 0 && !sameSplit(c, w)
		}
		if val != nil {
			ll, err := logLoss(ctx, val, w)
			if err != nil {
				return nil, err
			}
			gr.FixedValLogLoss = &ll
		}
		name := fmt.Sprintf("gen%d", g)
		if r, ok := ratings[name]; ok {
			gr.Rating = &r
			if r.Elo > bestElo {
				poolBest, bestElo = g, r.Elo
			}
		}
		if gr.Anchors, err = againstAnchors(pool, name, anchors, poolGames); err != nil {
			return nil, err
		}
		rep.Generations = append(rep.Generations, gr)
	}
	rep.PoolBest = max(poolBest, 0)
	// Of equal ratings, the pool's best is the gates' best when it is one.
	if r := rep.Generations[rep.Best].Rating; r != nil && r.Elo == bestElo {
		rep.PoolBest = rep.Best
	}
	for i := range rep.Generations {
		g := &rep.Generations[i]
		g.IsBest, g.IsPoolBest = g.Generation == rep.Best, g.Generation == rep.PoolBest
		if g.Gate != nil && g.Rating != nil {
			if b := rep.Generations[g.BestBefore].Rating; b != nil {
				d := g.Rating.Elo - b.Elo
				g.PoolVsBest = &d
			}
		}
	}
	rep.Notes = rep.notes(c)
	return rep, nil
}

// bestOr0 returns the best generation after a decision (0 before any).
func (d *Decision) bestOr0() int {
	if d == nil {
		return 0
	}
	return d.Best
}

// notes says where the gates and the pool disagree, and what is not played.
func (r *Report) notes(c Config) []string {
	var out []string
	for _, g := range r.Generations {
		if g.Gate == nil || g.PoolVsBest == nil {
			continue
		}
		d := *g.PoolVsBest
		if g.Gate.Promoted == (d > 0) || math.Abs(d) < 0.5 {
			continue // they agree, or the pool rates the two alike
		}
		verb := "promoted it"
		if !g.Gate.Promoted {
			verb = "rejected it"
		}
		rel := "above"
		if d < 0 {
			rel = "below"
		}
		gateSure := g.Gate.EloLow > 0 || g.Gate.EloHigh < 0
		rb := r.Generations[g.BestBefore].Rating
		poolSure := g.Rating.Low > rb.High || g.Rating.High < rb.Low
		why := "neither is sure: the gate's interval includes 0 and the pool's intervals of the two overlap, so the two samples cannot tell them apart; more games (gate.games, pool.games_per_pair) would"
		switch {
		case gateSure && poolSure:
			why = "both intervals exclude a tie: look at the games"
		case gateSure:
			why = "the gate's interval excludes 0, the pool's intervals overlap"
		case poolSure:
			why = "the pool's intervals do not overlap, the gate's includes 0"
		}
		out = append(out, fmt.Sprintf("Generation %d: the gate %s (score %.3f over %d games, Elo %s [%s, %s] against generation %d), but the pool rates it %.0f %s generation %d; %s.",
			g.Generation, verb, g.Gate.Score, g.Gate.Games, eloText(g.Gate.Elo), eloText(g.Gate.EloLow), eloText(g.Gate.EloHigh), g.BestBefore,
			math.Abs(d), rel, g.BestBefore, why))
	}
	if r.PoolBest != r.Best {
		how := "rejected by its gate"
		if pb := r.Generations[r.PoolBest]; pb.Gate != nil && pb.Gate.Promoted {
			how = "promoted, then replaced by a later generation that the pool rates lower"
		} else if r.PoolBest == 0 {
			how = "the starting weights"
		}
		out = append(out, fmt.Sprintf("The pool rates generation %d highest (%s); the chain of gates ends at generation %d.", r.PoolBest, how, r.Best))
	}
	last := r.Generations[len(r.Generations)-1]
	if last.SelfPlay == nil {
		out = append(out, fmt.Sprintf("Self-play of generation %d's best weights is played when generation %d is trained: raise generations to play it.", last.Generation, last.Generation+1))
	}
	return out
}

// Markdown renders the report.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# arimaalab run %s\n\n", r.Out)
	if r.Branch != nil {
		fmt.Fprintf(&b, "A branch of %s: %s, kept from it; the rest played with this run's settings.\n\n", r.Branch.Parent, r.Branch.Kept)
	}
	fmt.Fprintf(&b, "Best weights at the end: generation %d (`gen=%04d/weights.json`), by the chain of gates (★ below). ", r.Best, r.Best)
	if r.PoolBest != r.Best {
		fmt.Fprintf(&b, "The pool rates generation %d highest (◆).\n\n", r.PoolBest)
	} else {
		b.WriteString("The pool rates it highest too.\n\n")
	}
	if len(r.Anchors) > 0 {
		fmt.Fprintf(&b, "Ratings are on the scale of the external anchors (`pool.anchors`), %s rated 0:\n\n", r.RatedZero)
		b.WriteString("| anchor | pool Elo (95%) | games | settings |\n|---|---|---:|---|\n")
		for _, a := range r.Anchors {
			fmt.Fprintf(&b, "| %s | %s [%s, %s] | %d | %s |\n", a.Name, eloText(a.Elo), eloText(a.Low), eloText(a.High), a.Games, a.Describe)
		}
		b.WriteString("\n")
	} else {
		b.WriteString("No external anchors are configured (`pool.anchors`, see docs/strength.md): ratings are relative to generation 0, rated 0, and say nothing of strength against other bots.\n\n")
	}

	b.WriteString("## Strength\n\n")
	b.WriteString("| gen | gate | gate score | gate Elo (95%) vs | pool Elo (95%) | pool: over that best |\n")
	b.WriteString("|---:|---|---:|---|---|---:|\n")
	for _, g := range r.Generations {
		fmt.Fprintf(&b, "| %d%s |", g.Generation, marks(g))
		if g.Gate != nil {
			status := "rejected"
			if g.Gate.Promoted {
				status = "promoted"
			}
			verdict := ""
			if g.Gate.Verdict != "" {
				verdict = ", " + g.Gate.Verdict
			}
			fmt.Fprintf(&b, " %s | %.3f (%d games%s) | %s [%s, %s] vs gen %d |", status, g.Gate.Score, g.Gate.Games, verdict,
				eloText(g.Gate.Elo), eloText(g.Gate.EloLow), eloText(g.Gate.EloHigh), g.BestBefore)
		} else {
			b.WriteString(" start | | |")
		}
		if g.Rating != nil {
			fmt.Fprintf(&b, " %s [%s, %s] |", eloText(g.Rating.Elo), eloText(g.Rating.Low), eloText(g.Rating.High))
		} else {
			b.WriteString(" |")
		}
		if g.PoolVsBest != nil {
			fmt.Fprintf(&b, " %s |\n", eloText(*g.PoolVsBest))
		} else {
			b.WriteString(" |\n")
		}
	}
	b.WriteString("\nGate: the candidate against the best weights before it, pairs of games with colours swapped; Elo from the pentanomial counts. ")
	who := "generation 0 and every generation's candidate"
	if len(r.Anchors) > 0 {
		who = "generation 0, every generation's candidate and the anchors"
	}
	fmt.Fprintf(&b, "Pool: %s rated together (Bradley-Terry, %s at 0; `pool/ratings.md`); its last column is the gate's question answered by the pool.\n\n", who, r.RatedZero)

	if len(r.Anchors) > 0 {
		b.WriteString("## Against the anchors\n\n| gen |")
		for _, a := range r.Anchors {
			fmt.Fprintf(&b, " %s: score | Elo (95%%) | first loss (turn) |", a.Name)
		}
		b.WriteString("\n|---:|")
		for range r.Anchors {
			b.WriteString("---:|---|---|")
		}
		b.WriteString("\n")
		for _, g := range r.Generations {
			fmt.Fprintf(&b, "| %d%s |", g.Generation, marks(g))
			for _, a := range r.Anchors {
				cell := " - | - | - |"
				for _, ar := range g.Anchors {
					if ar.Anchor == a.Name {
						first := "-"
						if fl := ar.FirstLoss; fl != nil {
							first = fmt.Sprintf("%.1f [%.1f, %.1f]", fl.Mean, fl.Low, fl.High)
						}
						cell = fmt.Sprintf(" %g / %d | %s [%s, %s] | %s |", ar.Points, ar.Games, eloText(ar.Elo), eloText(ar.EloLow), eloText(ar.EloHigh), first)
					}
				}
				b.WriteString(cell)
			}
			b.WriteString("\n")
		}
		b.WriteString("\nEach generation's own games against each anchor: its points, and the Elo difference they imply with its 95% interval (pentanomial); when every game went one way, the estimate is ±inf and the interval's other end a one-sided 95% bound from the game pairs. First loss: the turn in which the generation lost its first piece, the mean over those games with its 95% interval (a game kept whole counts its last turn and one); while every game against an anchor is lost, later is stronger (`analyze material`, docs/strength.md).\n\n")
	}

	b.WriteString("## Training\n\n")
	b.WriteString("| gen | training rows | train log-loss | held-out log-loss (own window) | fixed validation log-loss |\n")
	b.WriteString("|---:|---:|---:|---:|---:|\n")
	for _, g := range r.Generations {
		fmt.Fprintf(&b, "| %d%s |", g.Generation, marks(g))
		if g.Train != nil {
			fmt.Fprintf(&b, " %.0f | %.4f | %s |", g.Train["train_rows"], g.Train["train_logloss"], metricText(g.Train, "val_logloss"))
		} else {
			b.WriteString(" | | |")
		}
		switch {
		case g.FixedValLogLoss == nil:
			b.WriteString(" |\n")
		case g.FixedValSeen:
			fmt.Fprintf(&b, " %.4f † |\n", *g.FixedValLogLoss)
		default:
			fmt.Fprintf(&b, " %.4f |\n", *g.FixedValLogLoss)
		}
	}
	b.WriteString("\nHeld-out (own window): the games each candidate's training held out of its own window of self-play, a different set each generation, so not comparable across generations. ")
	if fv := r.FixedValidation; fv != nil {
		fmt.Fprintf(&b, "Fixed validation: the %d games (%d rows) of generation 0's self-play that the split by game (share %g, seed %d) holds out of every candidate's training, measured on the target %s; the same set for every generation (generation 0: its hand-set weights), so it compares them.", fv.Games, fv.Rows, fv.Share, fv.Seed, fv.Target)
	} else {
		b.WriteString("No fixed validation set (train.val is 0, or generation 0's self-play held no game out).")
	}
	for _, g := range r.Generations {
		if g.FixedValSeen {
			b.WriteString(" †: trained with another split (a run begun before the split was fixed), so some of these games were in its training set.")
			break
		}
	}
	b.WriteString("\n\n## Self-play\n\n")
	b.WriteString("| weights of gen | games | rows | turns a game | Gold's share of wins | unfinished |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|\n")
	for _, g := range r.Generations {
		fmt.Fprintf(&b, "| %d%s |", g.Generation, marks(g))
		if s := g.SelfPlay; s != nil {
			fmt.Fprintf(&b, " %d | %d | %.1f | %.1f%% | %d |\n", s.Games, s.Rows, s.MeanTurns, 100*s.GoldShare, s.Unfinished)
		} else {
			b.WriteString(" not yet played | | | | |\n")
		}
	}
	b.WriteString("\nEach generation's best weights play the self-play that trains the next candidates; turns are one side's moves (rows per game).\n")
	if len(r.Notes) > 0 {
		b.WriteString("\n## Notes\n\n")
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}

// marks returns the marks of a generation's row: ★ best by the gates, ◆
// best by the pool.
func marks(g GenReport) string {
	s := ""
	if g.IsBest {
		s += " ★"
	}
	if g.IsPoolBest {
		s += " ◆"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func metricText(m map[string]float64, key string) string {
	v, ok := m[key]
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.4f", v)
}

// write writes report.md, report.json and report.png.
func (r *Report) write(out string) error {
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
	png, err := r.Chart()
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(out, "report.png"), png)
}
