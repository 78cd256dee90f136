package judge

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// DefaultReachTurns are the player's turns at which Reach scores the games
// by default: the opening, where the drift against Sharp starts, and two
// points of the middlegame before most games are decided.
var DefaultReachTurns = []int{6, 9, 12}

// ReachGame is one recorded game, seen by one player, at the turns Reach
// scores: the position before the player's move at each turn.
type ReachGame struct {
	// Where names the game: "FILE:LINE game ID".
	Where string `json:"where"`
	// Player is the player's user name and Color its side.
	Player string       `json:"player"`
	Color  engine.Color `json:"-"`
	// Setups is the position after both setups, in AEI form: two games with
	// the same setups and colours are a pair.
	Setups string `json:"setups"`
	// Points holds a point per turn, in the order of the turns given.
	Points []ReachPoint `json:"points"`
}

// ReachPoint is a game at one of the player's turns.
type ReachPoint struct {
	// Turn is the game turn (2 for the moves 2g and 2s).
	Turn int `json:"turn"`
	// Position is the position before the player's move at Turn, in AEI
	// form ("" when the game had ended before it).
	Position string          `json:"position,omitempty"`
	pos      engine.Position // Position, parsed
	hist     *engine.History // its game's history, pos included
	// Ended is set when the game had ended before Turn: Score is then the
	// game's result for the player (the clamp for a win, minus it for a
	// loss, 0 for a draw at the turn limit).
	Ended bool `json:"ended,omitempty"`
	// Missing is set when the record stops before Turn without a result:
	// the point has no score and is left out.
	Missing bool `json:"missing,omitempty"`
	// Score is the judge's score of Position for the player, in rabbits.
	Score float64 `json:"score"`
}

// ReachGames reads an archive file (engine.ReadArchive) of name and returns
// its games as seen by the player who is not opponent, each with a point per
// turn of turns (sorted, each 2 or more). A game whose opponent is neither
// player, or that does not replay, is an error naming the file and the game.
// clamp is the score of an ended game (a win; minus it for a loss).
func ReachGames(r io.Reader, name, opponent string, turns []int, clamp float64) ([]ReachGame, error) {
	if len(turns) == 0 {
		return nil, fmt.Errorf("judge: no turns")
	}
	for _, t := range turns {
		if t < 2 {
			return nil, fmt.Errorf("judge: turn %d: the first move after the setups is turn 2", t)
		}
	}
	recs, err := engine.ReadArchive(r, name)
	if err != nil {
		return nil, err
	}
	var out []ReachGame
	for _, rec := range recs {
		var color engine.Color
		switch {
		case rec.Gold == opponent && rec.Silver == opponent:
			return nil, fmt.Errorf("%s:%d: %s: %q plays both sides", name, rec.Line, rec.Label(), opponent)
		case rec.Silver == opponent:
			color = engine.Gold
		case rec.Gold == opponent:
			color = engine.Silver
		default:
			return nil, fmt.Errorf("%s:%d: %s: no player %q (gold %q, silver %q)", name, rec.Line, rec.Label(), opponent, rec.Gold, rec.Silver)
		}
		g, err := engine.Replay(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, rec.Line, err)
		}
		moves := g.Moves()
		if len(moves) == 0 {
			return nil, fmt.Errorf("%s:%d: %s: no moves after the setups", name, rec.Line, rec.Label())
		}
		setups := g.PositionBefore(0)
		rg := ReachGame{
			Where:  fmt.Sprintf("%s:%d %s", name, rec.Line, rec.Label()),
			Player: [2]string{rec.Gold, rec.Silver}[color], Color: color,
			Setups: setups.String(),
		}
		hist := engine.NewHistory()
		plies := make([]*engine.History, len(moves))
		for i := range moves {
			p := g.PositionBefore(i)
			hist.Add(&p)
			plies[i] = hist.Clone()
		}
		for _, t := range turns {
			pt := ReachPoint{Turn: t}
			ply := 2*(t-2) + int(color)
			switch {
			case ply < len(moves):
				pt.pos = g.PositionBefore(ply)
				pt.hist = plies[ply]
				pt.Position = pt.pos.String()
			case rec.Termination == engine.NotOver:
				pt.Missing = true
			default:
				pt.Ended = true
				switch {
				case rec.Termination == engine.MaxTurns:
					pt.Score = 0
				case rec.Result == color:
					pt.Score = clamp
				default:
					pt.Score = -clamp
				}
			}
			rg.Points = append(rg.Points, pt)
		}
		out = append(out, rg)
	}
	return out, nil
}

// ScoreCache keeps the judge's scores of positions between runs, so that a
// run cut short goes on where it stopped and the games of a baseline are
// scored once for every player compared with it. Key names the judge and
// its settings.
type ScoreCache interface {
	// Get returns the score of position by the judge key, if kept.
	Get(key, position string) (float64, bool)
	// Put keeps the score of position by the judge key.
	Put(key, position string, score float64) error
}

// ReachConfig tunes Reach.
type ReachConfig struct {
	// Judge describes the judge for the report, and keys the cache.
	Judge string
	// Cache, when set, keeps the scores (see ScoreCache).
	Cache ScoreCache
	// Progress, when set, is called after each position scored with the
	// number done and the total.
	Progress func(done, total int)
}

// ReachTurn sums up one side's games at one turn.
type ReachTurn struct {
	// Turn is the game turn; 0 for the mean over the turns, game by game
	// (of the games with a score at every turn).
	Turn int `json:"turn"`
	// Games counts the games with a score at the turn, Ended those of them
	// that had ended before it (scored by their result).
	Games int `json:"games"`
	Ended int `json:"ended"`
	// Mean is the mean score for the player in rabbits, Interval its 95 %
	// interval (Student's t; nil for fewer than two games).
	Mean     float64   `json:"mean"`
	Interval *Interval `json:"interval,omitempty"`
}

// ReachSide is one set of games in the report.
type ReachSide struct {
	// Players names the players measured (Reach fills it in when empty),
	// Files the files read.
	Players string `json:"players"`
	Files   string `json:"files"`
	// Games are the games with their scores, in the order read.
	Games []ReachGame `json:"games"`
	// Turns sums them up per turn, then over the turns (Turn 0).
	Turns []ReachTurn `json:"turns"`
}

// ReachPaired compares the two sides' games of the same setups at one turn.
type ReachPaired struct {
	// Turn is the game turn; 0 for the mean over the turns.
	Turn int `json:"turn"`
	// Pairs counts the pairs with a score on both sides.
	Pairs int `json:"pairs"`
	// MeanDiff is the mean of A's score minus B's, game by game, in rabbits
	// (above 0: A's games reached better positions); Interval its 95 %
	// interval (Student's t on the differences).
	MeanDiff float64   `json:"mean_diff"`
	Interval *Interval `json:"interval,omitempty"`
}

// ReachReport is the result of Reach.
type ReachReport struct {
	Judge string `json:"judge"`
	// Turns are the turns scored.
	Turns []int `json:"turns"`
	// Scored counts the distinct positions the judge scored this run;
	// Cached those the cache held.
	Scored int `json:"scored"`
	Cached int `json:"cached"`
	// A and B are the two sides (B nil when there is one).
	A *ReachSide `json:"a"`
	B *ReachSide `json:"b,omitempty"`
	// Paired compares A with B, per turn then over the turns; Unpaired
	// counts the games of A and of B without a game of the same setups and
	// colours on the other side.
	Paired   []ReachPaired `json:"paired,omitempty"`
	Unpaired [2]int        `json:"unpaired"`
}

// Reach scores, with the judges (one process each, used at once), the
// positions that the players of a's games, and of b's when b is not nil,
// reached before their moves at the turns of the games' points, and
// compares the two sets game by game: each of b's games is paired with the
// game of a of the same setups and player's colour (in the order of the
// files when several share them), as two runs of eval with the same seed
// give them. The scores are the judges' for the player, in rabbits.
func Reach(ctx context.Context, judges []Judge, a, b *ReachSide, cfg ReachConfig) (*ReachReport, error) {
	if len(judges) == 0 {
		return nil, fmt.Errorf("judge: no judges")
	}
	if a == nil || len(a.Games) == 0 {
		return nil, fmt.Errorf("judge: no games")
	}
	turns := pointTurns(a.Games[0])
	sides := []*ReachSide{a}
	if b != nil {
		if len(b.Games) == 0 {
			return nil, fmt.Errorf("judge: no games to compare with")
		}
		sides = append(sides, b)
	}
	for _, s := range sides {
		var players []string
		for _, g := range s.Games {
			if !slices.Contains(players, g.Player) {
				players = append(players, g.Player)
			}
			if !slices.Equal(pointTurns(g), turns) {
				return nil, fmt.Errorf("judge: %s: turns %v, want %v", g.Where, pointTurns(g), turns)
			}
		}
		if s.Players == "" {
			s.Players = strings.Join(players, ", ")
		}
	}
	rep := &ReachReport{Judge: cfg.Judge, Turns: turns, A: a, B: b}
	if err := scorePoints(ctx, judges, sides, cfg, rep); err != nil {
		return nil, err
	}
	for _, s := range sides {
		s.Turns = sideTurns(s.Games, turns)
	}
	if b != nil {
		pairs, unA, unB := pairGames(a.Games, b.Games)
		if len(pairs) == 0 {
			return nil, fmt.Errorf("judge: no game of %s has the setups and colours of a game of %s: compare games of the same seeds", b.Files, a.Files)
		}
		rep.Unpaired = [2]int{unA, unB}
		for k, t := range append(slices.Clone(turns), 0) {
			var diffs []float64
			for _, p := range pairs {
				ga, gb := &a.Games[p[0]], &b.Games[p[1]]
				va, oka := pointScore(ga, k)
				vb, okb := pointScore(gb, k)
				if oka && okb {
					diffs = append(diffs, va-vb)
				}
			}
			m, iv := meanInterval(diffs)
			rep.Paired = append(rep.Paired, ReachPaired{Turn: t, Pairs: len(diffs), MeanDiff: m, Interval: iv})
		}
	}
	return rep, nil
}

// pointTurns returns the turns of g's points.
func pointTurns(g ReachGame) []int {
	ts := make([]int, len(g.Points))
	for i, p := range g.Points {
		ts[i] = p.Turn
	}
	return ts
}

// pointScore returns g's score at its k-th point, or for k past the last the
// mean of its points (when every point has a score).
func pointScore(g *ReachGame, k int) (float64, bool) {
	if k < len(g.Points) {
		p := g.Points[k]
		return p.Score, !p.Missing
	}
	var sum float64
	for _, p := range g.Points {
		if p.Missing {
			return 0, false
		}
		sum += p.Score
	}
	return sum / float64(len(g.Points)), true
}

// sideTurns sums up games per turn, then over the turns (Turn 0).
func sideTurns(games []ReachGame, turns []int) []ReachTurn {
	var out []ReachTurn
	for k, t := range append(slices.Clone(turns), 0) {
		var xs []float64
		ended := 0
		for i := range games {
			v, ok := pointScore(&games[i], k)
			if !ok {
				continue
			}
			xs = append(xs, v)
			if k < len(turns) && games[i].Points[k].Ended {
				ended++
			}
		}
		m, iv := meanInterval(xs)
		out = append(out, ReachTurn{Turn: t, Games: len(xs), Ended: ended, Mean: m, Interval: iv})
	}
	return out
}

// pairGames pairs each game of b with the first game of a not yet paired of
// the same setups and colour. It returns the pairs (indices into a and b)
// and the numbers of games of a and of b left unpaired.
func pairGames(a, b []ReachGame) (pairs [][2]int, unA, unB int) {
	free := map[string][]int{}
	for i, g := range a {
		k := g.Color.Name() + " " + g.Setups
		free[k] = append(free[k], i)
	}
	for j, g := range b {
		k := g.Color.Name() + " " + g.Setups
		if len(free[k]) == 0 {
			unB++
			continue
		}
		pairs = append(pairs, [2]int{free[k][0], j})
		free[k] = free[k][1:]
	}
	return pairs, len(a) - len(pairs), unB
}

// scorePoints scores every point of the sides' games that has a position,
// taking what the cache holds and sharing the rest among the judges.
func scorePoints(ctx context.Context, judges []Judge, sides []*ReachSide, cfg ReachConfig, rep *ReachReport) error {
	type job struct{ side, game, point int }
	var work []job
	byPos := map[string][]job{} // one judgement per position
	cached := map[string]bool{}
	for s, side := range sides {
		for g := range side.Games {
			for k, p := range side.Games[g].Points {
				if p.Position == "" {
					continue
				}
				j := job{s, g, k}
				if v, ok := cacheGet(cfg, p.Position); ok {
					side.Games[g].Points[k].Score = v
					if !cached[p.Position] {
						cached[p.Position] = true
						rep.Cached++
					}
					continue
				}
				if byPos[p.Position] == nil {
					work = append(work, j)
				}
				byPos[p.Position] = append(byPos[p.Position], j)
			}
		}
	}
	point := func(j job) *ReachPoint { return &sides[j.side].Games[j.game].Points[j.point] }
	if cfg.Progress != nil {
		cfg.Progress(0, len(work))
	}
	at := func(k int) (engine.Position, *engine.History, string) {
		j := work[k]
		p := point(j)
		return p.pos, p.hist, fmt.Sprintf("%s, turn %d", sides[j.side].Games[j.game].Where, p.Turn)
	}
	return evalAll(ctx, judges, len(work), at, func(r evalResult) error {
		pos := point(work[r.k]).Position
		for _, j := range byPos[pos] {
			point(j).Score = r.ev.Score
		}
		if cfg.Cache != nil {
			if err := cfg.Cache.Put(cfg.Judge, pos, r.ev.Score); err != nil {
				return err
			}
		}
		rep.Scored++
		if cfg.Progress != nil {
			cfg.Progress(rep.Scored, len(work))
		}
		return nil
	})
}

// cacheGet looks position up in cfg's cache.
func cacheGet(cfg ReachConfig, position string) (float64, bool) {
	if cfg.Cache == nil {
		return 0, false
	}
	return cfg.Cache.Get(cfg.Judge, position)
}

// WriteText writes the report for people: per turn each side's mean score
// and, with two sides, the paired difference.
func (r *ReachReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "judge      %s\n", r.Judge)
	fmt.Fprintf(&b, "positions  %d scored, %d from the cache\n", r.Scored, r.Cached)
	fmt.Fprintf(&b, "score      the judge's score of the position before the player's move at the turn, for the player, in rabbits;\n")
	fmt.Fprintf(&b, "           a game ended before the turn counts its result: the clamp for a win, minus it for a loss, 0 for a draw\n")
	sides := []*ReachSide{r.A}
	if r.B != nil {
		sides = append(sides, r.B)
	}
	for i, s := range sides {
		fmt.Fprintf(&b, "\n%s: %s, %d games of %s\n", "AB"[i:i+1], s.Players, len(s.Games), s.Files)
		fmt.Fprintf(&b, "  %-6s  %5s  %5s  %s\n", "turn", "games", "ended", "mean score (95 % interval)")
		for _, t := range s.Turns {
			fmt.Fprintf(&b, "  %-6s  %5d  %5s  %s\n", turnName(t.Turn), t.Games, endedText(t), withInterval(t.Mean, t.Interval))
		}
	}
	if len(r.Paired) > 0 {
		fmt.Fprintf(&b, "\nA minus B, game by game (the same setups and colours; unpaired: %d of A, %d of B):\n", r.Unpaired[0], r.Unpaired[1])
		fmt.Fprintf(&b, "  %-6s  %5s  %s\n", "turn", "pairs", "mean difference (95 % interval)")
		for _, p := range r.Paired {
			fmt.Fprintf(&b, "  %-6s  %5d  %s\n", turnName(p.Turn), p.Pairs, withInterval(p.MeanDiff, p.Interval))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// turnName names a turn of the report: its number, or "mean" for 0.
func turnName(t int) string {
	if t == 0 {
		return "mean"
	}
	return fmt.Sprint(t)
}

// endedText is the ended column of a turn row ("" for the mean).
func endedText(t ReachTurn) string {
	if t.Turn == 0 {
		return ""
	}
	return fmt.Sprint(t.Ended)
}
