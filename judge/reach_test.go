package judge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// reachGame is a game for reachArchive: its players, setups, moves after the
// setups and, when over, its result.
type reachGame struct {
	gold, silver string
	goldSetup    string
	moves        []string
	winner       engine.Color
	reason       engine.Termination
}

// reachArchive writes the games as an archive.
func reachArchive(t *testing.T, games ...reachGame) string {
	t.Helper()
	var recs []engine.Record
	for i, g := range games {
		game := engine.NewGame()
		setup := g.goldSetup
		if setup == "" {
			setup = goldSetup
		}
		if err := game.PlaySetup(setup); err != nil {
			t.Fatal(err)
		}
		if err := game.PlaySetup(silverSetup); err != nil {
			t.Fatal(err)
		}
		for _, m := range g.moves {
			if err := game.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		rec := game.Record(fmt.Sprint(100 + i))
		rec.Gold, rec.Silver = g.gold, g.silver
		if g.reason != engine.NotOver {
			rec.Result, rec.Termination = g.winner, g.reason
		}
		recs = append(recs, rec)
	}
	var b strings.Builder
	if err := engine.WriteArchive(&b, recs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// reachMoves are twelve turns (six each) of elephants walking: e2 to e5 and
// back for Gold, d7 to d4 and back for Silver, with no capture and no goal.
var reachMoves = []string{
	"Ee2n", "ed7s", "Ee3n", "ed6s", "Ee4n", "ed5s",
	"Ee5s", "ed4n", "Ee4s", "ed5n", "Ee3s", "ed6n",
}

// tableJudge scores a position by a function of it, and counts its calls.
type tableJudge struct {
	mu    sync.Mutex
	calls map[string]int
}

// tableScore is the score tableJudge gives pos: a function of the squares
// and the side to move, different for most positions.
func tableScore(pos engine.Position) float64 {
	s := pos.String()
	h := 0
	for i := range len(s) {
		h = (h*31 + int(s[i])) % 1009
	}
	return float64(h)/100 - 5
}

func (j *tableJudge) Eval(_ context.Context, pos engine.Position, _ *engine.History) (Eval, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.calls == nil {
		j.calls = map[string]int{}
	}
	j.calls[pos.String()]++
	return Eval{Score: tableScore(pos)}, nil
}

// positionAt returns the position before ply i of the moves after the
// setups (goldSetup when gold is "").
func positionAt(t *testing.T, gold string, moves []string, i int) engine.Position {
	t.Helper()
	if gold == "" {
		gold = goldSetup
	}
	g := engine.NewGame()
	if err := g.PlaySetup(gold); err != nil {
		t.Fatal(err)
	}
	if err := g.PlaySetup(silverSetup); err != nil {
		t.Fatal(err)
	}
	for _, m := range moves[:i] {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g.Position()
}

// TestReachGames reads the points of games seen by each side: the position
// before the player's move at each turn, a finished game's result after its
// end (won, lost, drawn at the turn limit) and no score for an unfinished
// record that stops before the turn.
func TestReachGames(t *testing.T) {
	data := reachArchive(t,
		reachGame{gold: "bot", silver: "sharp", moves: reachMoves},
		reachGame{gold: "sharp", silver: "bot", moves: reachMoves[:5], winner: engine.Gold, reason: engine.Goal},
		reachGame{gold: "bot", silver: "sharp", moves: reachMoves[:3], winner: engine.Gold, reason: engine.Resignation},
		reachGame{gold: "sharp", silver: "bot", moves: reachMoves[:3], reason: engine.MaxTurns},
		reachGame{gold: "bot", silver: "sharp", moves: reachMoves[:3]},
	)
	games, err := ReachGames(strings.NewReader(data), "a.txt", "sharp", []int{2, 4, 7}, 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 5 {
		t.Fatalf("%d games, want 5", len(games))
	}
	pos := func(i int) string { p := positionAt(t, "", reachMoves, i); return p.String() }
	type want struct {
		position       string
		ended, missing bool
		score          float64
	}
	for k, c := range []struct {
		color  engine.Color
		points []want
	}{
		{engine.Gold, []want{{position: pos(0)}, {position: pos(4)}, {position: pos(10)}}},
		{engine.Silver, []want{{position: pos(1)}, {ended: true, score: -20}, {ended: true, score: -20}}},
		{engine.Gold, []want{{position: pos(0)}, {ended: true, score: 20}, {ended: true, score: 20}}},
		{engine.Silver, []want{{position: pos(1)}, {ended: true, score: 0}, {ended: true, score: 0}}},
		{engine.Gold, []want{{position: pos(0)}, {missing: true}, {missing: true}}},
	} {
		g := games[k]
		if g.Player != "bot" || g.Color != c.color {
			t.Errorf("game %d: player %q %s, want bot %s", k, g.Player, g.Color.Name(), c.color.Name())
		}
		if wantWhere := fmt.Sprintf("a.txt:%d game %d", k+2, 100+k); g.Where != wantWhere {
			t.Errorf("game %d: where %q, want %q", k, g.Where, wantWhere)
		}
		if setups := positionAt(t, "", reachMoves, 0); g.Setups != setups.String() {
			t.Errorf("game %d: setups %s, want %s", k, g.Setups, setups.String())
		}
		for i, w := range c.points {
			p := g.Points[i]
			if p.Position != w.position || p.Ended != w.ended || p.Missing != w.missing || p.Score != w.score {
				t.Errorf("game %d turn %d: %+v, want %+v", k, p.Turn, p, w)
			}
			if p.Position != "" && (p.pos.String() != p.Position || p.hist == nil || p.hist.Count(&p.pos) < 1) {
				t.Errorf("game %d turn %d: the parsed position or its history is wrong", k, p.Turn)
			}
		}
	}
}

// TestReachGamesErrors checks the one-line errors for bad input.
func TestReachGamesErrors(t *testing.T) {
	good := reachArchive(t, reachGame{gold: "bot", silver: "sharp", moves: reachMoves[:2]})
	both := reachArchive(t, reachGame{gold: "sharp", silver: "sharp", moves: reachMoves[:2]})
	for _, c := range []struct {
		data, opponent string
		turns          []int
		want           string
	}{
		{good, "nobody", []int{2}, `a.txt:2: game 100: no player "nobody"`},
		{both, "sharp", []int{2}, `a.txt:2: game 100: "sharp" plays both sides`},
		{good, "sharp", []int{1}, "turn 1"},
		{good, "sharp", nil, "no turns"},
		{"id\tfoo\n", "sharp", []int{2}, `no "movelist" column`},
	} {
		_, err := ReachGames(strings.NewReader(c.data), "a.txt", c.opponent, c.turns, 20)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q, %v: error %v, want one with %q", c.opponent, c.turns, err, c.want)
		}
	}
}

// TestReach scores two sets of games with a judge that scores by a table and
// checks every figure: each side's means per turn and over the turns, the
// pairs (by setups and colours, one game of each side left unpaired), the
// paired differences and their intervals, each position judged once, and a
// second run with the cache asking the judge nothing.
func TestReach(t *testing.T) {
	turns := []int{3, 5}
	other := "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Ed2 Me2 Cf2 Dg2 Hh2" // the elephant and camel swapped
	otherMoves := []string{"Ed2n", "ed7s", "Ed3n", "ed6s", "Ed4e", "ed5w"}
	altMoves := []string{"Ee2n", "ed7s", "Ee3w", "ed6w", "Ed3n", "ec6s", "Ed4n", "ec5s"}
	a := reachArchive(t,
		reachGame{gold: "bot", silver: "sharp", moves: reachMoves},
		reachGame{gold: "sharp", silver: "bot", moves: reachMoves},
		reachGame{gold: "bot", silver: "sharp", goldSetup: other, moves: otherMoves, winner: engine.Silver, reason: engine.Resignation},
		reachGame{gold: "bot", silver: "sharp", moves: reachMoves[:3], winner: engine.Silver, reason: engine.Goal},
	)
	b := reachArchive(t,
		reachGame{gold: "sharp", silver: "new", moves: altMoves},
		reachGame{gold: "new", silver: "sharp", moves: altMoves},
		reachGame{gold: "sharp", silver: "new", goldSetup: other, moves: otherMoves, winner: engine.Gold, reason: engine.Goal},
	)
	read := func(data, name string) *ReachSide {
		games, err := ReachGames(strings.NewReader(data), name, "sharp", turns, 20)
		if err != nil {
			t.Fatal(err)
		}
		return &ReachSide{Files: name, Games: games}
	}
	score := func(setup string, moves []string, ply int) float64 {
		return tableScore(positionAt(t, setup, moves, ply))
	}
	sum := func(xs []float64) (m float64) {
		for _, x := range xs {
			m += x
		}
		return m / float64(len(xs))
	}
	// A's games at turns 3 and 5: ply 2(T-2) for Gold, one more for Silver.
	a0 := []float64{score("", reachMoves, 2), score("", reachMoves, 6)}
	a1 := []float64{score("", reachMoves, 3), score("", reachMoves, 7)}
	a2 := []float64{score(other, otherMoves, 2), -20} // resigned before turn 5
	a3 := []float64{score("", reachMoves, 2), -20}    // lost by a goal before turn 5
	b0 := []float64{score("", altMoves, 3), score("", altMoves, 7)}
	b1 := []float64{score("", altMoves, 2), score("", altMoves, 6)}

	cache, err := OpenCache(filepath.Join(t.TempDir(), "cache.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	j1, j2 := &tableJudge{}, &tableJudge{}
	rep, err := Reach(context.Background(), []Judge{j1, j2}, read(a, "a.txt"), read(b, "b.txt"), ReachConfig{Judge: "table", Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]int{}
	for _, j := range []*tableJudge{j1, j2} {
		for p, n := range j.calls {
			calls[p] += n
		}
	}
	// Distinct positions: A's 5 (turn 3 of game 3 is game 0's), B's 4 more
	// (the position of B's game 1 at turn 3 is that of A's game 0).
	wantScored := 0
	for p, n := range calls {
		if n != 1 {
			t.Errorf("%s judged %d times, want once", p, n)
		}
		wantScored++
	}
	if rep.Scored != wantScored || rep.Cached != 0 || wantScored != 9 {
		t.Errorf("scored %d (judged %d), cached %d; want 9 and 0", rep.Scored, wantScored, rep.Cached)
	}
	if rep.Unpaired != [2]int{2, 1} {
		t.Errorf("unpaired %v, want [2 1]: A's gold games of the other setups and the second of the usual ones, B's silver game of the other setups", rep.Unpaired)
	}
	// Pairs: A's game 0 (gold) with B's game 1, A's game 1 (silver) with B's 0.
	d := func(k int) []float64 {
		if k == 2 {
			return []float64{sum(a0) - sum(b1), sum(a1) - sum(b0)}
		}
		return []float64{a0[k] - b1[k], a1[k] - b0[k]}
	}
	for k, p := range rep.Paired {
		wantTurn := []int{3, 5, 0}[k]
		m, iv := meanInterval(d(k))
		if p.Turn != wantTurn || p.Pairs != 2 || !near(p.MeanDiff, m) || p.Interval == nil || !near(p.Interval.Lo, iv.Lo) || !near(p.Interval.Hi, iv.Hi) {
			t.Errorf("paired %d: %+v (%+v), want turn %d, 2 pairs, %.4f (%+v)", k, p, p.Interval, wantTurn, m, iv)
		}
	}
	// A's side: four games at turn 3, two of them ended at turn 5.
	for k, tt := range rep.A.Turns {
		var xs []float64
		for _, g := range [][]float64{a0, a1, a2, a3} {
			if k == 2 {
				xs = append(xs, sum(g))
			} else {
				xs = append(xs, g[k])
			}
		}
		wantEnded := []int{0, 2, 0}[k]
		if m, _ := meanInterval(xs); tt.Games != 4 || tt.Ended != wantEnded || !near(tt.Mean, m) {
			t.Errorf("A turn %d: %+v, want 4 games, %d ended, mean %.4f", tt.Turn, tt, wantEnded, m)
		}
	}
	if len(rep.B.Turns) != 3 || rep.B.Turns[0].Games != 3 {
		t.Errorf("B: %+v, want 3 rows of 3 games", rep.B.Turns)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"judge      table", "9 scored, 0 from the cache", "unpaired: 2 of A, 1 of B", "  mean  "} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, text.String())
		}
	}

	// Again from the cache, reopened: nothing asked of the judge, the same report.
	cache.Close()
	cache2, err := OpenCache(cache.name)
	if err != nil {
		t.Fatal(err)
	}
	defer cache2.Close()
	j3 := &tableJudge{}
	rep2, err := Reach(context.Background(), []Judge{j3}, read(a, "a.txt"), read(b, "b.txt"), ReachConfig{Judge: "table", Cache: cache2})
	if err != nil {
		t.Fatal(err)
	}
	if len(j3.calls) != 0 || rep2.Scored != 0 || rep2.Cached != 9 {
		t.Errorf("from the cache: judged %d, scored %d, cached %d; want 0, 0, 9 (the distinct positions)", len(j3.calls), rep2.Scored, rep2.Cached)
	}
	for k := range rep.Paired {
		if rep.Paired[k].MeanDiff != rep2.Paired[k].MeanDiff {
			t.Errorf("paired %d: %v from the cache, %v before", k, rep2.Paired[k].MeanDiff, rep.Paired[k].MeanDiff)
		}
	}
	// Another judge's key finds nothing in the cache.
	j4 := &tableJudge{}
	if rep3, err := Reach(context.Background(), []Judge{j4}, read(a, "a.txt"), nil, ReachConfig{Judge: "other", Cache: cache2}); err != nil || rep3.Cached != 0 || rep3.Paired != nil {
		t.Errorf("another judge: %v, cached %d, paired %v; want nothing cached and no pairs", err, rep3.Cached, rep3.Paired)
	}
}

// TestReachNoPairs fails clearly when no game of one side has the setups of
// a game of the other.
func TestReachNoPairs(t *testing.T) {
	other := "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Ed2 Me2 Cf2 Dg2 Hh2"
	read := func(data string) *ReachSide {
		games, err := ReachGames(strings.NewReader(data), "f", "sharp", []int{2}, 20)
		if err != nil {
			t.Fatal(err)
		}
		return &ReachSide{Files: "f", Games: games}
	}
	a := read(reachArchive(t, reachGame{gold: "bot", silver: "sharp", moves: reachMoves[:2]}))
	b := read(reachArchive(t, reachGame{gold: "bot", silver: "sharp", goldSetup: other, moves: []string{"Ed2n"}}))
	_, err := Reach(context.Background(), []Judge{&tableJudge{}}, a, b, ReachConfig{})
	if err == nil || !strings.Contains(err.Error(), "the same seeds") {
		t.Errorf("error %v, want one saying to compare games of the same seeds", err)
	}
}

// TestFileCache keeps scores across reopening, drops a last line cut short
// and names the file and line of a bad one.
func TestFileCache(t *testing.T) {
	name := filepath.Join(t.TempDir(), "new", "c.jsonl") // the directory made too
	c, err := OpenCache(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Put("j", "g [x]", 1.5); err != nil {
		t.Fatal(err)
	}
	if err := c.Put("k", "g [x]", -2); err != nil {
		t.Fatal(err)
	}
	c.Close()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"judge":"j","position":"g [y]","sc`) // a crash mid-line
	f.Close()
	c, err = OpenCache(name)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := c.Get("j", "g [x]"); !ok || v != 1.5 {
		t.Errorf("j: %v %v, want 1.5", v, ok)
	}
	if v, ok := c.Get("k", "g [x]"); !ok || v != -2 {
		t.Errorf("k: %v %v, want -2", v, ok)
	}
	if _, ok := c.Get("j", "g [y]"); ok || c.Len() != 2 {
		t.Errorf("the line cut short was read (%d scores)", c.Len())
	}
	if err := c.Put("j", "g [z]", 3); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, err = OpenCache(name)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := c.Get("j", "g [z]"); !ok || v != 3 || c.Len() != 3 {
		t.Errorf("after the cut line was overwritten: %v %v, %d scores; want 3, 3 scores", v, ok, c.Len())
	}
	c.Close()

	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"judge\":\"j\",\"position\":\"p\",\"score\":1}\nnot json\n"), 0o644)
	if _, err := OpenCache(bad); err == nil || !strings.Contains(err.Error(), "bad.jsonl:2: not a cached score") {
		t.Errorf("error %v, want one naming bad.jsonl:2", err)
	}
}
