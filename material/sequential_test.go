package material

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestParseSequential(t *testing.T) {
	tests := []struct {
		in      string
		want    Sequential
		wantErr bool
	}{
		{in: "0,0.5", want: Sequential{D0: 0, D1: 0.5, Alpha: 0.05, Beta: 0.05}},
		{in: "0, -0.3, 0.05, 0.1", want: Sequential{D0: 0, D1: -0.3, Alpha: 0.05, Beta: 0.1}},
		{in: "0,0", wantErr: true},
		{in: "1", wantErr: true},
		{in: "0,1,0.05", wantErr: true},
		{in: "0,1,0.5,0.6", wantErr: true},
		{in: "0,1,0,0.05", wantErr: true},
		{in: "a,1", wantErr: true},
	}
	for _, tc := range tests {
		got, err := ParseSequential(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseSequential(%q): error %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		if err == nil && got != tc.want {
			t.Errorf("ParseSequential(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestSequentialLLR(t *testing.T) {
	s := Sequential{D0: 0, D1: 1, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		d    []float64
		want float64
	}{
		{d: []float64{0, 2}, want: math.Log(2)},                  // s0 = 4, s1 = 2, n/2 = 1
		{d: []float64{0.5, 0.5, 0.5}, want: 0},                   // halfway: no evidence
		{d: []float64{-1, 1, 0, 0}, want: 2 * math.Log(2.0/6.0)}, // s0 = 2, s1 = 6
		{d: []float64{1, 1, 1}, want: math.MaxFloat64},
		{d: []float64{0, 0}, want: -math.MaxFloat64},
		{d: []float64{3}, want: 0},
	}
	for _, tc := range tests {
		if got := s.LLR(tc.d); math.Abs(got-tc.want) > 1e-12 && got != tc.want {
			t.Errorf("LLR(%v) = %v, want %v", tc.d, got, tc.want)
		}
	}
	lo, hi := s.Bounds()
	if math.Abs(lo+math.Log(19)) > 1e-12 || math.Abs(hi-math.Log(19)) > 1e-12 {
		t.Errorf("Bounds() = %v, %v, want -ln 19 and ln 19", lo, hi)
	}
}

// TestSequentialRun checks Run on a walk whose verdict is known: the first
// pairs would reach the bound, but no verdict comes before MinPairs.
func TestSequentialRun(t *testing.T) {
	s := Sequential{D0: 0, D1: 1, Alpha: 0.05, Beta: 0.05, MinPairs: 4}
	d := []float64{1.1, 0.9, 1.2, 0.8, 1.0, 5}
	got := s.Run(d)
	if got.Verdict != "H1" || got.Pairs != 4 {
		t.Fatalf("Run = %+v, want H1 at pair 4", got)
	}
	if want := s.LLR(d[:4]); math.Abs(got.LLR-want) > 1e-9 {
		t.Errorf("Run's LLR %v, want LLR of the first 4 pairs %v", got.LLR, want)
	}
	if got := s.Run(d[:3]); got.Verdict != "" || got.Pairs != 3 {
		t.Errorf("Run of 3 pairs = %+v, want no verdict before MinPairs", got)
	}
	if got := s.Run([]float64{-0.1, 0.1, 0, 0.05, -0.05}); got.Verdict != "H0" || got.Pairs != 4 {
		t.Errorf("Run near 0 = %+v, want H0 at pair 4", got)
	}
}

// TestSequentialErrorRates plays the test many times on normal differences
// spread as the net material at turn 25 against Sharp (a standard deviation
// of 3.5 rabbits, docs/strength.md's fifty-first round), H0 a mean of 0 and
// H1 one of a rabbit, at the true mean of each: it must accept the wrong
// hypothesis about as often as alpha and beta say, and stop on average well
// before the fixed number of pairs with the same error rates.
func TestSequentialErrorRates(t *testing.T) {
	const (
		sd    = 3.5
		runs  = 2000
		limit = 1000 // pairs; a run that reaches it counts as undecided
	)
	s := Sequential{D0: 0, D1: 1, Alpha: 0.05, Beta: 0.05}
	// One-sided tests at 5 % with power 95 %: (1.645 + 1.645)^2 sd^2 / 1^2.
	fixed := math.Pow(2*1.6449*sd, 2)
	rng := rand.New(rand.NewPCG(52, 1))
	d := make([]float64, limit)
	for _, tc := range []struct {
		mean  float64
		wrong string
		rate  float64
	}{
		{mean: 0, wrong: "H1", rate: s.Alpha},
		{mean: 1, wrong: "H0", rate: s.Beta},
	} {
		wrong, undecided, pairs := 0, 0, 0
		for range runs {
			for i := range d {
				d[i] = tc.mean + sd*rng.NormFloat64()
			}
			out := s.Run(d)
			switch out.Verdict {
			case tc.wrong:
				wrong++
			case "":
				undecided++
			}
			pairs += out.Pairs
		}
		rate := float64(wrong) / runs
		mean := float64(pairs) / runs
		t.Logf("true mean %g: %s accepted in %.1f %%, undecided %d, %.1f pairs on average (fixed test: %.0f)", tc.mean, tc.wrong, 100*rate, undecided, mean, fixed)
		// The plug-in variance makes the test a little liberal; Wald's
		// bounds ignore the overshoot, which makes it conservative.
		if rate > tc.rate+0.02 {
			t.Errorf("true mean %g: the wrong hypothesis %s accepted in %.1f %% of runs, want at most %.0f %%", tc.mean, tc.wrong, 100*rate, 100*(tc.rate+0.02))
		}
		if undecided > 0 {
			t.Errorf("true mean %g: %d runs undecided after %d pairs", tc.mean, undecided, limit)
		}
		if mean > 0.8*fixed {
			t.Errorf("true mean %g: %.1f pairs on average, want well below the fixed test's %.0f", tc.mean, mean, fixed)
		}
	}
}

func TestDifferences(t *testing.T) {
	a := []Game{{FirstLoss: 10, NetAt: 1, Turns: 30, Taken: 2}, {FirstLoss: 12, NetAt: -1, Turns: 40}}
	b := []Game{{FirstLoss: 8, NetAt: 0, Turns: 30, Taken: 1}, {FirstLoss: 15, NetAt: -2, Turns: 35}}
	d, err := Differences(a, b, MeasureIndex("net"))
	if err != nil || len(d) != 2 || d[0] != 1 || d[1] != 1 {
		t.Errorf("Differences(net) = %v, %v; want [1 1]", d, err)
	}
	d, err = Differences(a, b, MeasureIndex("first-loss"))
	if err != nil || d[0] != 2 || d[1] != -3 {
		t.Errorf("Differences(first-loss) = %v, %v; want [2 -3]", d, err)
	}
	if _, err := Differences(a, b[:1], 1); err == nil {
		t.Error("Differences of 2 games against 1: no error")
	}
	swapped := []Game{b[0], {FirstLoss: 15, Color: 1}}
	if _, err := Differences(a, swapped, 1); err == nil {
		t.Error("Differences of games with the player on other sides: no error")
	}
	if _, err := Differences(a, b, MeasureIndex("siege")); err == nil {
		t.Error("Differences of the siege in games without it: no error")
	}
	for _, name := range []string{"first-loss", "net", "lost", "taken", "turns", "short", "siege"} {
		if MeasureIndex(name) < 0 {
			t.Errorf("MeasureIndex(%q) = -1", name)
		}
	}
	if MeasureIndex("elo") != -1 {
		t.Error("MeasureIndex(elo) found a measure")
	}
}
