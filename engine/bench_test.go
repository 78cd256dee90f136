package engine

import "testing"

// standardOpening is the setup the rules suggest (the pieces in front of the
// rabbits) on both sides, Gold to move: 3353 moves.
const standardOpening = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]"

func mustPosition(tb testing.TB, s string) Position {
	tb.Helper()
	p, err := ParsePosition(s)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestStandardOpeningCount(t *testing.T) {
	p := mustPosition(t, standardOpening)
	if n := NewMoveGen().Generate(&p, nil); n != 3353 {
		t.Fatalf("standard opening: %d moves, want 3353", n)
	}
}

// TestNoAllocation checks that the hot paths allocate nothing once warmed up.
func TestNoAllocation(t *testing.T) {
	cases := loadClueless(t)
	g := NewMoveGen()
	for i := range cases {
		g.Generate(&cases[i].pos, nil)
	}
	buf := make([]Step, 0, 256)
	tests := []struct {
		name string
		f    func()
	}{
		{"Generate", func() {
			for i := range cases {
				g.Generate(&cases[i].pos, nil)
			}
		}},
		{"LegalSteps", func() {
			for i := range cases {
				tr := NewTurn(cases[i].pos)
				buf = tr.LegalSteps(buf[:0])
			}
		}},
		{"Play", func() {
			tr := NewTurn(cases[0].pos)
			buf = tr.LegalSteps(buf[:0])
			tr.Play(buf[0])
		}},
		{"EndOfTurn", func() {
			for i := range cases {
				EndOfTurn(&cases[i].pos, nil, g)
			}
		}},
	}
	for _, tc := range tests {
		if n := testing.AllocsPerRun(3, tc.f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", tc.name, n)
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	for _, tc := range []struct{ name, pos string }{
		{"opening", standardOpening},
		{"middlegame", "g [rrr  rr r mcchrr d    d     E            H  e D R C  C RRRRDMRRR]"},
		{"open", "g [       r E M C       x  x   D H D    H C     R x  x   R R RR R R]"},
	} {
		p := mustPosition(b, tc.pos)
		g := NewMoveGen()
		b.Run(tc.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				n += g.Generate(&p, nil)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

func BenchmarkLegalSteps(b *testing.B) {
	cases := loadClueless(b)
	buf := make([]Step, 0, 256)
	n := 0
	for b.Loop() {
		for i := range cases {
			tr := NewTurn(cases[i].pos)
			buf = tr.LegalSteps(buf[:0])
			n += len(buf)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "steps/s")
}

func BenchmarkPlayStep(b *testing.B) {
	cases := loadClueless(b)
	var steps [][]Step
	for i := range cases {
		tr := NewTurn(cases[i].pos)
		steps = append(steps, tr.LegalSteps(nil))
	}
	n := 0
	for b.Loop() {
		for i := range cases {
			for _, s := range steps[i] {
				tr := NewTurn(cases[i].pos)
				tr.Play(s)
				n++
			}
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "steps/s")
}

func BenchmarkComputeHash(b *testing.B) {
	cases := loadClueless(b)
	var h uint64
	for b.Loop() {
		for i := range cases {
			h ^= cases[i].pos.ComputeHash()
		}
	}
	_ = h
}

func BenchmarkFrozen(b *testing.B) {
	cases := loadClueless(b)
	var f Bitboard
	for b.Loop() {
		for i := range cases {
			f ^= cases[i].pos.Frozen(cases[i].pos.Side)
		}
	}
	_ = f
}

// BenchmarkEndOfTurn times the end-of-game checks of the clueless32
// positions, without a history and with one where a position has been seen
// twice, which makes the repetition check run (a single step that repeats
// nothing settles it; before, every move was generated).
func BenchmarkEndOfTurn(b *testing.B) {
	cases := loadClueless(b)
	hot := NewHistory()
	other := mustPosition(b, standardOpening)
	hot.Add(&other)
	hot.Add(&other)
	for _, bc := range []struct {
		name string
		hist *History
	}{{"cold", nil}, {"hot", hot}} {
		b.Run(bc.name, func(b *testing.B) {
			g := NewMoveGen()
			over := 0
			for b.Loop() {
				over = 0
				for i := range cases {
					if EndOfTurn(&cases[i].pos, bc.hist, g).Over() {
						over++
					}
				}
			}
			b.ReportMetric(float64(over), "over")
		})
	}
}
