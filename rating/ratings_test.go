package rating

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// synthetic plays game pairs between players of known ratings, drawn from the
// Davidson model with draw parameter nu (0: Bradley-Terry without draws), in a
// round robin or a gauntlet against player 0.
func synthetic(rng *rand.Rand, truth []float64, pairs int, nu float64, roundRobin bool) []PairingData {
	var data []PairingData
	for i := range truth {
		for j := i + 1; j < len(truth); j++ {
			if !roundRobin && i != 0 {
				continue
			}
			d := PairingData{I: i, J: j}
			pi, pj := math.Pow(10, truth[i]/400), math.Pow(10, truth[j]/400)
			pd := nu * math.Sqrt(pi*pj)
			win, draw := pi/(pi+pj+pd), pd/(pi+pj+pd)
			for range pairs {
				var u Unit
				for range 2 {
					switch x := rng.Float64(); {
					case x < win:
						u.W++
					case x < win+draw:
						u.D++
					default:
						u.L++
					}
				}
				d.Units = append(d.Units, u)
			}
			data = append(data, d)
		}
	}
	return data
}

// TestFitRecoversOrdering fits ratings to synthetic round-robin results of
// six generations 60 Elo apart and checks the ordering, the anchor, and that
// the 95% intervals hold the true ratings (at most one miss in five).
func TestFitRecoversOrdering(t *testing.T) {
	truth := []float64{0, 60, 120, 180, 240, 300}
	for _, c := range []struct {
		opt FitOptions
		nu  float64
	}{
		{FitOptions{Model: BradleyTerry}, 0},
		{FitOptions{Model: BradleyTerry, Prior: 1}, 0},
		{FitOptions{Model: Davidson, Prior: 1}, 0.3},
		{FitOptions{Model: BradleyTerry, Prior: 1, Bootstrap: 200, Seed: 3}, 0},
	} {
		opt := c.opt
		data := synthetic(rand.New(rand.NewPCG(7, 8)), truth, 100, c.nu, true)
		r, err := Fit(len(truth), data, opt)
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		t.Logf("%s %s: %.1f (se %.1f, nu %.3f)", opt.Model, r.Interval, r.Elo, r.SE, r.DrawNu)
		if r.Elo[0] != 0 || r.SE[0] != 0 {
			t.Errorf("%+v: the anchor has %v ± %v", opt, r.Elo[0], r.SE[0])
		}
		misses := 0
		for i := 1; i < len(truth); i++ {
			if r.Elo[i] <= r.Elo[i-1] {
				t.Errorf("%+v: player %d rated %.1f, not above player %d (%.1f)", opt, i, r.Elo[i], i-1, r.Elo[i-1])
			}
			if truth[i] < r.Low[i] || truth[i] > r.High[i] {
				misses++
				t.Logf("%+v: player %d: true rating %v outside [%.1f, %.1f]", opt, i, truth[i], r.Low[i], r.High[i])
			}
			if r.SE[i] <= 5 || r.SE[i] > 40 {
				t.Errorf("%+v: player %d: standard error %.1f", opt, i, r.SE[i])
			}
		}
		if misses > 1 {
			t.Errorf("%+v: %d true ratings of 5 outside their 95%% intervals", opt, misses)
		}
		if opt.Model == Davidson && !(math.Abs(r.DrawNu-c.nu) <= 0.1) {
			t.Errorf("Davidson nu = %v, want about %v", r.DrawNu, c.nu)
		}
	}
}

// TestFitTwoPlayers: with two players and no prior, Bradley-Terry gives the
// Elo of the score, and the Fisher standard error is
// 1/(k sqrt(N p (1-p))) with k = ln(10)/400 (the trinomial interval without
// the draws' smaller variance).
func TestFitTwoPlayers(t *testing.T) {
	data := []PairingData{{I: 0, J: 1, Units: []Unit{{W: 30, D: 0, L: 70}}}}
	r, err := Fit(2, data, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Score of player 1 against 0: 0.7.
	near(t, "Elo", r.Elo[1], ScoreToElo(0.7), 1e-6)
	k := math.Ln10 / 400
	near(t, "SE", r.SE[1], 1/(k*math.Sqrt(100*0.7*0.3)), 1e-6)
	// Anchoring the other player mirrors the ratings.
	r2, err := Fit(2, data, FitOptions{Anchor: 1})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "mirrored Elo", r2.Elo[0], -r.Elo[1], 1e-6)
}

func TestFitErrors(t *testing.T) {
	perfect := []PairingData{{I: 0, J: 1, Units: []Unit{{W: 10}}}}
	if _, err := Fit(2, perfect, FitOptions{}); err == nil {
		t.Error("a perfect score without a prior was fitted")
	}
	r, err := Fit(2, perfect, FitOptions{Prior: 1})
	if err != nil || r.Elo[1] > -300 {
		t.Errorf("a perfect score with a prior: %v, %v", r, err)
	}
	if _, err := Fit(3, perfect, FitOptions{Prior: 1}); err == nil {
		t.Error("a player without games was rated")
	}
	if _, err := Fit(2, []PairingData{{I: 0, J: 1, Units: []Unit{{W: 3, L: 4}}}}, FitOptions{Model: Davidson}); err == nil {
		t.Error("Davidson without draws was fitted")
	}
}

// TestFitGauntlet fits a gauntlet (every player against player 0 only).
func TestFitGauntlet(t *testing.T) {
	truth := []float64{0, -150, 50, 200}
	data := synthetic(rand.New(rand.NewPCG(1, 2)), truth, 150, 0, false)
	r, err := Fit(len(truth), data, FitOptions{Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	order := []int{0, 1, 2, 3}
	slices.SortFunc(order, func(a, b int) int { return int(math.Copysign(1, r.Elo[a]-r.Elo[b])) })
	if want := []int{1, 0, 2, 3}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v (ratings %.1f)", order, want, r.Elo)
	}
}

func TestBootstrapReproducible(t *testing.T) {
	data := synthetic(rand.New(rand.NewPCG(5, 6)), []float64{0, 100, 200}, 30, 0.1, true)
	opt := FitOptions{Prior: 1, Bootstrap: 50, Seed: 9}
	a, err := Fit(3, data, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Fit(3, data, opt)
	if !slices.Equal(a.Low, b.Low) || !slices.Equal(a.High, b.High) {
		t.Errorf("the same seed gave %v-%v and %v-%v", a.Low, a.High, b.Low, b.High)
	}
	if a.Replicates != 50 || a.Interval != "bootstrap" {
		t.Errorf("%d replicates, interval %q", a.Replicates, a.Interval)
	}
}
