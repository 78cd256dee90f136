package mcts

import (
	"os"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// TestScanAgainstEveryMove checks the scan's pruning: its best value is the
// best tactical value of all the moves, each valued in full, and every move it
// leaves unvalued is more than the margin below that best.
func TestScanAgainstEveryMove(t *testing.T) {
	if testing.Short() {
		t.Skip("values every move of three positions: seconds")
	}
	const n = 3
	s, err := New(Config{Visits: 1}, gen0(t))
	if err != nil {
		t.Fatal(err)
	}
	w := (&search{s: s}).newWorker()
	// The tree's capture search as the deep one, so that valuing every move
	// for the check stays fast; the pruning does not depend on which it is.
	sc := &turnScan{gen: engine.NewMoveGen(), deep: newCaptureSearch()}
	all := engine.NewMoveGen()
	const margin = 0.03
	for i, p := range testPositions(t, 40)[:n*5] {
		if i%5 != 0 {
			continue
		}
		if !w.scan(sc, &p, nil, margin) {
			t.Fatalf("position %d: no move", i)
		}
		want := float32(-2)
		k := all.Generate(&p, nil)
		for j := range k {
			q := all.Position(j)
			v := w.turnEndValue(&q, sc.deep)
			want = max(want, v)
			if sc.level[j] == scanDone && sc.bound[j] != v {
				t.Fatalf("position %d move %d: scanned %v, valued alone %v", i, j, sc.bound[j], v)
			}
			if !sc.capped && sc.level[j] != scanDone && v >= sc.best-margin {
				t.Fatalf("position %d move %d: value %v within the margin of the best %v, left unvalued", i, j, v, sc.best)
			}
		}
		if sc.capped && sc.best > want || !sc.capped && sc.best != want {
			t.Errorf("position %d %s: scan's best %v, every move valued %v", i, p.String(), sc.best, want)
		}
	}
}

func BenchmarkScan(b *testing.B) {
	ps := testPositions(&testing.T{}, 40)
	s, _ := New(Config{Visits: 1}, gen0(b))
	w := (&search{s: s}).newWorker()
	sc := &turnScan{gen: engine.NewMoveGen(), deep: newCaptureSearch()}
	sc.deep.extra = engine.MaxSteps
	b.ResetTimer()
	for i := range b.N {
		p := ps[i%len(ps)]
		w.scan(sc, &p, nil, scanMargin)
	}
}

// hangingPositions reads testdata/hanging.aei.
func hangingPositions(t *testing.T) []engine.Position {
	t.Helper()
	b, err := os.ReadFile("testdata/hanging.aei")
	if err != nil {
		t.Fatal(err)
	}
	var out []engine.Position
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := engine.ParsePosition(line)
		if err != nil {
			t.Fatalf("testdata/hanging.aei:%d: %v", i+1, err)
		}
		out = append(out, p)
	}
	return out
}

// hangs returns the material that the move steps from p leaves to the
// opponent's best capture line (found by the exhaustive capture search), net of
// what the move itself captured.
func hangs(p engine.Position, steps []engine.Step, cs *captureSearch) int {
	turn := engine.NewTurn(p)
	for _, s := range steps {
		turn.Play(s)
	}
	after := turn.End()
	next := engine.NewTurn(after)
	gain, _ := cs.find(&next)
	return gain - (material(&after, p.Side) - material(&p, p.Side))
}

// TestHangingPieces plays the search on the positions where an earlier
// version hung a piece against Sharp although safe moves existed: the scan and
// the scan must leave material hanging in at most three quarters as many of
// them as the search without it. (In many of them every move
// leaves something to a capture line that the tree's capture search misses.)
func TestHangingPieces(t *testing.T) {
	if testing.Short() {
		t.Skip("57 searches of 300 simulations, twice, and 57 scans: seconds")
	}
	ps := hangingPositions(t)
	deep := newCaptureSearch()
	deep.extra = engine.MaxSteps
	count := func(cfg Config) int {
		n := 0
		for _, p := range ps {
			s, err := New(cfg, gen0(t))
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Search(t.Context(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if hangs(p, r.Steps, deep) > 0 {
				n++
			}
		}
		return n
	}
	plain := count(Config{Visits: 300, Scan: ScanOff})
	now := count(Config{Visits: 300, Scan: ScanOn})
	t.Logf("material left hanging in %d of %d positions, %d without the scan", now, len(ps), plain)
	if 4*now > 3*plain {
		t.Errorf("material left hanging in %d of %d positions, without the scan %d: want at most three quarters as many", now, len(ps), plain)
	}
}

// countingEval counts the positions it evaluates (one goroutine only).
type countingEval struct {
	Evaluator
	calls int
}

func (c *countingEval) Evaluate(p *engine.Position) float32 {
	c.calls++
	return c.Evaluator.Evaluate(p)
}

// TestScanTakesFirstRefutation checks that a scan looking for a refutation
// stops at the first it finds while it bounds the moves: with a cut that
// every reply reaches, it ends after a handful of evaluations, where
// bounding every reply first took one for each, and its best reaches the
// cut. Without the cut it bounds them all.
func TestScanTakesFirstRefutation(t *testing.T) {
	ev := &countingEval{Evaluator: gen0(t)}
	s, err := New(Config{Visits: 1, Scan: ScanDeep}, ev)
	if err != nil {
		t.Fatal(err)
	}
	w := (&search{s: s}).newWorker()
	cs := newCaptureSearch()
	cs.extra = engine.MaxSteps
	sc := &turnScan{gen: engine.NewMoveGen(), deep: cs, threat: deepThreat}
	for i, p := range testPositions(t, 40)[:8] {
		n := engine.NewMoveGen().Generate(&p, nil)
		sc.refute, sc.cut = true, -1
		ev.calls = 0
		if !w.scan(sc, &p, nil, 0) {
			t.Fatalf("position %d: no move", i)
		}
		if sc.best < sc.cut {
			t.Errorf("position %d: best %v below the cut %v that every move reaches", i, sc.best, sc.cut)
		}
		if ev.calls > 64 {
			t.Errorf("position %d: %d evaluations of %d moves before the refutation, want a handful", i, ev.calls, n)
		}
		sc.refute = false
		ev.calls = 0
		w.scan(sc, &p, nil, 0)
		if ev.calls < n-64 {
			t.Errorf("position %d: %d evaluations of %d moves without a cut, want one for nearly every move", i, ev.calls, n)
		}
	}
}
