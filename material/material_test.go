package material

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// readArchive reads an archive file of the repository's games.
func readArchive(t *testing.T, path string) []engine.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := engine.ReadArchive(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestMeasureAgreesWithNotation replays the games against Sharp kept in
// docs/strength and checks what Measure counts against the capture marks of
// the notation ("Rc6x"), which the rules engine checked when the games were
// written: the pieces each side lost, the turn of the first loss and the net
// material to turn 15.
func TestMeasureAgreesWithNotation(t *testing.T) {
	files, err := filepath.Glob("../docs/strength/*sharp4.games.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no game files: %v", err)
	}
	const at = 15
	games, allMoves, allShort := 0, 0, 0
	for _, file := range files {
		for _, rec := range readArchive(t, file) {
			player := rec.Gold
			if strings.HasPrefix(player, "sharp") {
				player = rec.Silver
			}
			m, err := Measure(rec, player, at)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			games++
			var lost, taken, first, last, moves, short int
			var net float64
			for _, turn := range rec.Moves {
				fields := strings.Fields(turn)
				if len(fields) == 0 {
					continue
				}
				n, _ := strconv.Atoi(fields[0][:len(fields[0])-1])
				if len(fields) > 1 {
					last = n
				}
				if side := fields[0][len(fields[0])-1]; n > 1 && len(fields) > 1 && (side == 'w') == (m.Color == engine.Gold) {
					moves++
					steps := 0
					for _, s := range fields[1:] {
						if !strings.HasSuffix(s, "x") {
							steps++
						}
					}
					if steps < 4 {
						short++
					}
				}
				for _, s := range fields[1:] {
					if !strings.HasSuffix(s, "x") {
						continue
					}
					pc, err := engine.PieceFromLetter(s[0])
					if err != nil {
						t.Fatalf("%s: %q: %v", rec.Label(), s, err)
					}
					v := Value(pc.Type())
					if pc.Color() == m.Color {
						lost++
						if first == 0 {
							first = n
						}
						if n <= at {
							net -= v
						}
					} else {
						taken++
						if n <= at {
							net += v
						}
					}
				}
			}
			if first == 0 {
				first = last + 1
			}
			if m.Lost != lost || m.Taken != taken || m.FirstLoss != first || m.Turns != last || math.Abs(m.NetAt-net) > 1e-9 {
				t.Errorf("%s %s: lost %d, taken %d, first loss %d, turns %d, net %.1f; the notation says %d, %d, %d, %d, %.1f",
					file, rec.Label(), m.Lost, m.Taken, m.FirstLoss, m.Turns, m.NetAt, lost, taken, first, last, net)
			}
			if m.Moves != moves || m.Short != short {
				t.Errorf("%s %s: %d moves, %d of fewer than four steps; the notation says %d, %d", file, rec.Label(), m.Moves, m.Short, moves, short)
			}
			allMoves += moves
			allShort += short
			// An unfinished game (stopped at eval's ply limit) is won by
			// neither side: its result column is empty.
			wantWon := rec.Termination != engine.NotOver && rec.Result == m.Color
			if m.Won != wantWon {
				t.Errorf("%s %s: won %v, the record's result is %s", file, rec.Label(), m.Won, rec.Result.Name())
			}
		}
	}
	if games < 90 {
		t.Errorf("%d games measured, want the 90 and more of docs/strength", games)
	}
	// The bot leaves steps unused in about one move in eight against Sharp;
	// a count of none or of all would be a broken count, not a measure.
	if allShort == 0 || allShort == allMoves {
		t.Errorf("%d of %d moves of fewer than four steps", allShort, allMoves)
	}
}

func TestMeasureRefuses(t *testing.T) {
	rec := readArchive(t, "../docs/strength/sixth-rabbits-1s-vs-sharp4.games.txt")[0]
	tests := []struct {
		name   string
		rec    engine.Record
		player string
		want   string
	}{
		{"no such player", rec, "nobody", `no player "nobody"`},
		{"both sides", func() engine.Record { r := rec; r.Silver = r.Gold; return r }(), rec.Gold, "plays both sides"},
		{"illegal move", func() engine.Record {
			r := rec
			r.Moves = append(append([]string(nil), r.Moves[:3]...), "3w Ee2w Ee2w")
			return r
		}(), rec.Gold, "turn 3w"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Measure(tt.rec, tt.player, 15)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one naming %q", err, tt.want)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name            string
		xs              []float64
		mean, low, high float64
	}{
		{"none", nil, 0, 0, 0},
		{"one", []float64{4}, 4, 4, 4},
		// sd sqrt(2.5), t(4) 2.776445: half-width 2.776445 * 1.581139 / sqrt(5).
		{"five", []float64{1, 2, 3, 4, 5}, 3, 3 - 1.963243, 3 + 1.963243},
		{"constant", []float64{2, 2, 2}, 2, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(tt.xs)
			if s.N != len(tt.xs) || math.Abs(s.Mean-tt.mean) > 1e-9 || math.Abs(s.Low-tt.low) > 1e-4 || math.Abs(s.High-tt.high) > 1e-4 {
				t.Errorf("got %+v, want mean %v from %v to %v", s, tt.mean, tt.low, tt.high)
			}
		})
	}
	// 201 values: t(200) is 1.971896.
	xs := make([]float64, 201)
	for i := range xs {
		xs[i] = float64(i % 2)
	}
	s := Summarize(xs)
	if want := 1.971896 * s.Deviations / math.Sqrt(201); math.Abs(s.High-s.Mean-want) > 1e-6 {
		t.Errorf("half-width %.6f over 201 values, want %.6f", s.High-s.Mean, want)
	}
}

// TestDetectable checks Detectable against its promise by simulation: of
// many samples drawn with a true mean of the detectable difference (the
// spread and size of the summary it came from), about four in five have a
// 95 % interval without 0; with half of it far fewer, with none about one
// in forty on each side.
func TestDetectable(t *testing.T) {
	if d := (Summary{N: 1, Mean: 3}).Detectable(); d != 0 {
		t.Errorf("one value: detectable %v, want 0", d)
	}
	// t(79) at 0.975 and 0.8: 1.990450 and 0.846137.
	if d, want := (Summary{N: 80, Deviations: 3.5}).Detectable(), (1.990450+0.846137)*3.5/math.Sqrt(80); math.Abs(d-want) > 1e-4 {
		t.Errorf("80 values of sd 3.5: detectable %.6f, want %.6f", d, want)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const n, sd, runs = 20, 2.0, 4000
	d := Summary{N: n, Deviations: sd}.Detectable()
	seen := func(mean float64) float64 {
		hits := 0
		xs := make([]float64, n)
		for range runs {
			for i := range xs {
				xs[i] = mean + sd*rng.NormFloat64()
			}
			if s := Summarize(xs); s.Low > 0 || s.High < 0 {
				hits++
			}
		}
		return float64(hits) / runs
	}
	for _, tt := range []struct {
		mean     float64
		low, top float64
	}{
		{d, 0.77, 0.83},
		{d / 2, 0.25, 0.38},
		{0, 0.035, 0.065},
	} {
		got := seen(tt.mean)
		t.Logf("true mean %.3f: interval without 0 in %.3f of samples", tt.mean, got)
		if got < tt.low || got > tt.top {
			t.Errorf("true mean %.3f (detectable %.3f): interval without 0 in %.3f of samples, want %.2f to %.2f", tt.mean, d, got, tt.low, tt.top)
		}
	}
}

func TestPaired(t *testing.T) {
	a := []Game{{Color: engine.Gold, FirstLoss: 10, Turns: 20, Lost: 2}, {Color: engine.Silver, FirstLoss: 8, Turns: 30, Lost: 6}}
	b := []Game{{Color: engine.Gold, FirstLoss: 6, Turns: 20, Lost: 4}, {Color: engine.Silver, FirstLoss: 6, Turns: 30, Lost: 6}}
	rows, sums, err := Paired(a, b, 15)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0] != "first loss (turn)" || sums[0].Mean != 3 || rows[1] != "net material at turn 15 (rabbits)" {
		t.Errorf("rows %q, first loss difference %v, want 3", rows, sums[0].Mean)
	}
	if sums[2].Mean != -0.5 {
		t.Errorf("pieces lost per 10 turns: difference %v, want -0.5", sums[2].Mean)
	}
	a[0].Moves, a[0].Short, b[0].Moves, b[0].Short = 20, 5, 20, 1
	if rows, sums, _ := Paired(a, b, 15); rows[5] != "moves of fewer than 4 steps (%)" || sums[5].Mean != 10 {
		t.Errorf("%q: difference %v, want 10 (25 %% against 5 %% in one game, equal in the other)", rows[5], sums[5].Mean)
	}
	if _, _, err := Paired(a, b[:1], 15); err == nil {
		t.Error("lists of different lengths paired")
	}
	b[1].Color = engine.Gold
	if _, _, err := Paired(a, b, 15); err == nil || !strings.Contains(err.Error(), "game 2") {
		t.Errorf("error %v, want one naming game 2's colours", err)
	}
}
