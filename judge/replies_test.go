package judge

import (
	"slices"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

// TestReplies checks the positions after the deep scan's replies: each the
// reply mcts.ReplyLeaf finds for its successor, a move of the successor's
// side to move, with the successor's source, rank and value kept and in
// order; a successor whose side to move scores a goal is left out; one and
// three workers give the same result, and progress counts every successor.
func TestReplies(t *testing.T) {
	lin := gen0Linear(t)
	succ, err := Successors(successorSources(t)[:2], lin, SuccessorConfig{Top: 10, Pick: 3, Random: 1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	// A successor whose side to move has a rabbit one step from its goal,
	// the goal square empty: the rules decide it.
	goal, err := engine.ParsePosition(board(t, engine.Silver, "Ed4 Rb2 ra2 ee5"))
	if err != nil {
		t.Fatal(err)
	}
	succ = append(succ, Successor{Pos: goal, Source: 9, Rank: 0})
	r, err := mcts.NewReplyLeaf(lin)
	if err != nil {
		t.Fatal(err)
	}
	var want []Successor
	for _, s := range succ {
		if q, ok := r.Reply(&s.Pos); ok {
			isMove := false
			for _, m := range engine.GenMoves(s.Pos, nil) {
				isMove = isMove || m.Pos == q
			}
			if !isMove || q.Side == s.Pos.Side {
				t.Errorf("reply %v is no move from %v", q.String(), s.Pos.String())
			}
			s.Pos = q
			want = append(want, s)
		} else if s.Source != 9 {
			t.Errorf("successor %v of source %d has no reply", s.Pos.String(), s.Source)
		}
	}
	if len(want) != len(succ)-1 {
		t.Fatalf("%d of %d successors with a reply, want all but the goal", len(want), len(succ))
	}
	for _, workers := range []int{1, 3} {
		var calls []int
		got, err := Replies(succ, lin, workers, func(done, total int) {
			if total != len(succ) {
				t.Errorf("progress total %d, want %d", total, len(succ))
			}
			calls = append(calls, done)
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d workers: %d replies, not those of ReplyLeaf (%d)", workers, len(got), len(want))
		}
		slices.Sort(calls)
		if len(calls) != len(succ) || calls[len(calls)-1] != len(succ) {
			t.Errorf("%d workers: progress %v, want 1 to %d", workers, calls, len(succ))
		}
	}
	if _, err := Replies(succ, lin, 0, nil); err == nil {
		t.Error("no error for 0 workers")
	}
}
