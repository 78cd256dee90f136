package mcts

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// TestGoalDefence checks goalDefence.parries against the truth found by
// trying every legal move (testdata/goalthreats.txt, and the positions
// before the bot's last move in games lost by Sharp's goal,
// testdata/goalthreats-last.txt): it never calls a threat unstoppable that
// some move stops, it finds a defence wherever it does not give up, and
// within its bounds it proves at least the given share of the unstoppable
// threats of these real games.
func TestGoalDefence(t *testing.T) {
	tests := []struct {
		file string
		// proven is the least share, in percent, of the unstoppable
		// threats that parries must prove within its bounds.
		proven int
	}{
		{"testdata/goalthreats.txt", 50},
		{"testdata/goalthreats-last.txt", 80},
	}
	d := newGoalDefence()
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			lost, proven, parries := 0, 0, 0
			sc := bufio.NewScanner(f)
			for line := 1; sc.Scan(); line++ {
				text := sc.Text()
				if text == "" || strings.HasPrefix(text, "#") {
					continue
				}
				label, pos, _ := strings.Cut(text, " ")
				q := mustPosition(t, pos)
				got := d.parries(&q)
				if d.found {
					// The parry it reports is a real one.
					if next := engine.NewTurn(d.parry); !got || d.parry.Side == q.Side || d.goal.reachable(&next) {
						t.Errorf("line %d: the reported parry lets the goal through\n%s", line, d.parry.Diagram())
					}
					parries++
				}
				switch label {
				case "parried":
					if !got {
						t.Errorf("line %d: a threat that a move stops was called unstoppable\n%s", line, q.Diagram())
					}
				case "lost":
					lost++
					if !got {
						proven++
					} else if !d.gaveUp {
						t.Errorf("line %d: a defence claimed where none exists\n%s", line, q.Diagram())
					}
				default:
					t.Fatalf("line %d: label %q", line, label)
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			t.Logf("proved %d of the %d unstoppable threats; %d parries reported", proven, lost, parries)
			if lost == 0 || proven*100 < lost*tc.proven {
				t.Errorf("proved %d of the %d unstoppable threats, want at least %d %%", proven, lost, tc.proven)
			}
		})
	}
}

// TestGoalDefenceSmall checks the defence on positions made for it: no
// threat, a threat the elephant blocks, two threats one elephant cannot
// both block, and one the side wins through by its own goal.
func TestGoalDefenceSmall(t *testing.T) {
	put := func(p *engine.Position, c engine.Color, pt engine.PieceType, sqs ...string) {
		for _, s := range sqs {
			sq, err := engine.ParseSquare(s)
			if err != nil {
				t.Fatal(err)
			}
			p.Put(engine.MakePiece(c, pt), sq)
		}
	}
	base := func() engine.Position {
		var p engine.Position
		put(&p, engine.Silver, engine.Rabbit, "h8")
		put(&p, engine.Gold, engine.Elephant, "e1")
		put(&p, engine.Gold, engine.Rabbit, "e2")
		p.SetSide(engine.Silver)
		return p
	}
	tests := []struct {
		name string
		set  func(p *engine.Position)
		want bool
	}{
		{"no threat", func(p *engine.Position) { put(p, engine.Silver, engine.Elephant, "d8") }, true},
		{"one rabbit, the elephant blocks", func(p *engine.Position) {
			put(p, engine.Silver, engine.Elephant, "c8")
			put(p, engine.Gold, engine.Rabbit, "a7")
		}, true},
		{"two rabbits far apart", func(p *engine.Position) {
			put(p, engine.Silver, engine.Elephant, "d6")
			put(p, engine.Gold, engine.Rabbit, "a7", "g7")
		}, false},
		{"Silver's own goal first", func(p *engine.Position) {
			put(p, engine.Silver, engine.Elephant, "d6")
			put(p, engine.Gold, engine.Rabbit, "a7", "g7")
			put(p, engine.Silver, engine.Rabbit, "b2")
		}, true},
	}
	d := newGoalDefence()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := base()
			tc.set(&p)
			if truth := bruteParries(&p); truth != tc.want {
				t.Fatalf("every move tried: parried %v, want %v\n%s", truth, tc.want, p.Diagram())
			}
			if got := d.parries(&p); got != tc.want || d.gaveUp {
				t.Errorf("parries %v (gave up %v), want %v\n%s", got, d.gaveUp, tc.want, p.Diagram())
			}
		})
	}
}

// bruteParries reports whether some legal move of the side to move at q
// leaves its opponent no way to the goal, or wins: every move tried.
func bruteParries(q *engine.Position) bool {
	gen := engine.NewMoveGen()
	g := newGoalSearch()
	for i := range gen.Generate(q, nil) {
		p := gen.Position(i)
		if out := engine.EndOfTurn(&p, nil, nil); out.Over() {
			if out.Winner == q.Side {
				return true
			}
			continue
		}
		t := engine.NewTurn(p)
		if !g.reachable(&t) {
			return true
		}
	}
	return false
}

// TestLineSquares checks the squares that decide a goal line: its squares
// and their neighbours, and beside a trap the trap's other guards.
func TestLineSquares(t *testing.T) {
	bits := func(sqs ...string) engine.Bitboard {
		var b engine.Bitboard
		for _, s := range sqs {
			sq, err := engine.ParseSquare(s)
			if err != nil {
				t.Fatal(err)
			}
			b |= sq.Bit()
		}
		return b
	}
	tests := []struct {
		line string
		want engine.Bitboard
	}{
		{"Ra7n", bits("a6", "a7", "a8", "b7", "b8")},
		// d6 is beside the trap c6: its guards b6, c5 and c7 count too.
		{"Rd6n Rd7n", bits("c6", "d6", "e6", "d5", "c7", "d7", "e7", "c8", "d8", "e8", "b6", "c5")},
	}
	for _, tc := range tests {
		got := lineSquares(mustSteps(t, tc.line))
		if got != tc.want {
			t.Errorf("%s: %064b, want %064b", tc.line, uint64(got), uint64(tc.want))
		}
	}
}

// goalGame is a position of a game against Sharp (Silver, the bot, to
// move) where Silver's rd7e dc6e cc7e rc8s lets Gold's Hb6n ra6e Ra5n Ra6n
// put a rabbit on a7 that nothing stops: the bot played it with the deep
// scan at a second a move, and Sharp won by a goal.
const goalGame = "s [  rrr rr  cr rh rHd d mHR  c         E   R  ehMR  CRDRR  R CDR  ]"

// TestGoalWon checks the deep scan's use of the defence: the reply wins,
// its rabbit advance is noticed, the move before it is valued as lost at
// two turns, and without the defence's budget (the tree's workers) nothing
// is examined.
func TestGoalWon(t *testing.T) {
	w := deepWorker(t)
	root := mustPosition(t, goalGame)
	move := play(t, root, "rd7e dc6e cc7e rc8s")
	reply := play(t, move, "Hb6n ra6e Ra5n Ra6n")
	if w.goalWon(&reply) {
		t.Error("goalWon with no budget examined the threat")
	}
	w.defenceLeft = deepDefence
	if !advancesRabbit(&move, &reply) {
		t.Error("Ra5n Ra6n: the rabbit's advance onto a7 not noticed")
	}
	if !w.goalWon(&reply) {
		t.Error("Gold's rabbit on a7: goalWon false, want true (Silver cannot stop it)")
	}
	if w.defenceLeft >= deepDefence {
		t.Errorf("budget %d after a defence search, want it spent from %d", w.defenceLeft, deepDefence)
	}
	cs := newCaptureSearch()
	cs.extra = engine.MaxSteps
	list := []deepCand{{pos: move, gen: -1, cand: -1}}
	w.deepValues(list, cs, time.Time{})
	if list[0].second != -1 {
		t.Errorf("two-turn value of rd7e dc6e cc7e rc8s %v, want -1 (lost)", list[0].second)
	}
	safe := play(t, root, "rc8w rb8s rb7w dc6e")
	list = []deepCand{{pos: safe, gen: -1, cand: -1}}
	w.deepValues(list, cs, time.Time{})
	if list[0].second <= -1 {
		t.Errorf("two-turn value of rc8w rb8s rb7w dc6e %v, want above -1", list[0].second)
	}
}

// TestAdvancesRabbit checks which moves the deep scan examines for goal
// threats: those that put a rabbit of the mover on the rank before its goal
// where none stood.
func TestAdvancesRabbit(t *testing.T) {
	tests := []struct {
		pos, move string
		want      bool
	}{
		{goalGame, "rd7e dc6e cc7e rc8s", false},
		{"g [   rr rr  rcrrh rH dd mHR  c         E   R  ehMR  CRDRR  R CDR  ]", "Hb6n ra6e Ra5n Ra6n", true},
		{"g [   rr rr  rcrrh rH dd mHR  c         E   R  ehMR  CRDRR  R CDR  ]", "Rb3n Rb4n", false},
	}
	for _, tc := range tests {
		p := mustPosition(t, tc.pos)
		q := play(t, p, tc.move)
		if got := advancesRabbit(&p, &q); got != tc.want {
			t.Errorf("%s from %s: %v, want %v", tc.move, tc.pos, got, tc.want)
		}
	}
}

// TestDeepSeesEveryGoal searches, with the deep scan, a position of the
// games against Sharp where most moves the scan lists lose to a goal that no
// move can stop after Sharp's reply. The move played must leave Sharp no
// such reply. With the scan's goal-defence budget at 2^20 states the first
// 46 moves spent it, each lost, and the scan played the 47th, whose replies
// it could no longer examine: Sharp pulled a rabbit aside and stepped its
// own onto a7, a goal nothing stops (the thirtieth round of docs/strength.md).
func TestDeepSeesEveryGoal(t *testing.T) {
	if testing.Short() {
		t.Skip("a deep scan without a deadline")
	}
	p := mustPosition(t, "s [        r drrr  RDCc  h R c          REr R Re mC    MR r       R]")
	move, q := searchPlay(t, Config{Visits: 1, Scan: ScanDeep}, p)
	if reply, ok := unstoppableReply(t, &q); ok {
		t.Errorf("played %s: Gold answers %s, and no move stops its goal", move, reply)
	}
}

// unstoppableReply returns a reply of the side to move at q after which its
// opponent cannot stop a goal (or that reaches the goal itself), if any.
func unstoppableReply(t *testing.T, q *engine.Position) (string, bool) {
	gen := engine.NewMoveGen()
	g := newGoalSearch()
	d := newGoalDefence()
	for i := range gen.Generate(q, nil) {
		r := gen.Position(i)
		if out := engine.EndOfTurn(&r, nil, nil); out.Over() {
			if out.Winner == q.Side {
				return engine.FormatMove(*q, gen.Steps(i, nil)), true
			}
			continue
		}
		threat := r
		threat.SetSide(q.Side)
		tt := engine.NewTurn(threat)
		if !g.reachable(&tt) {
			continue
		}
		if !d.parries(&r) {
			return engine.FormatMove(*q, gen.Steps(i, nil)), true
		}
		if d.gaveUp {
			t.Logf("gave up on a reply: %s", engine.FormatMove(*q, gen.Steps(i, nil)))
		}
	}
	return "", false
}
