package rating

import (
	"fmt"
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsInf(want, 0) || math.IsNaN(want) {
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
		return
	}
	if !(math.Abs(got-want) <= tol) { // NaN fails too
		t.Errorf("%s = %.6f, want %.6f (within %g)", what, got, want, tol)
	}
}

// TestTrinomialByHand checks the trinomial estimate of 6 wins, 2 losses and
// 2 draws against the published formulas worked by hand:
//
//	N = 10, mu = (6 + 2/2)/10 = 0.7
//	sigma^2 = 0.6 (1-0.7)^2 + 0.2 (0.5-0.7)^2 + 0.2 (0-0.7)^2
//	        = 0.054 + 0.008 + 0.098 = 0.16
//	sd of the mean = sqrt(0.16/10) = 0.1264911
//	Elo = -400 log10(1/0.7 - 1) = -400 log10(0.4285714) = 147.19071
//	interval: mu -/+ 1.959964 * 0.1264911 = 0.4520818 .. 0.9479182
//	  Elo(0.4520818) = -400 log10(1.2119870) = -33.39935
//	  Elo(0.9479182) = -400 log10(0.0549434) = 504.03329
//	  +/- = (504.03329 + 33.39935)/2 = 268.71632
//	nElo = (0.7 - 0.5)/sqrt(0.16) * 800/ln(10) = 0.5 * 347.43558 = 173.71779
//	nElo +/- = 1.959964 * 0.1264911/0.4 * 347.43558 = 215.33885
//	LOS = Phi(0.2/0.1264911) = Phi(1.5811388) = 0.9430769
func TestTrinomialByHand(t *testing.T) {
	s := Stats{Wins: 6, Losses: 2, Draws: 2}
	e := s.Trinomial()
	near(t, "score", e.Score, 0.7, 1e-12)
	near(t, "variance", e.Variance, 0.16, 1e-12)
	near(t, "Elo", e.Elo, 147.19071, 1e-4)
	near(t, "EloLow", e.EloLow, -33.39935, 1e-4)
	near(t, "EloHigh", e.EloHigh, 504.03329, 1e-4)
	near(t, "EloError", e.EloError, 268.71632, 1e-4)
	near(t, "nElo", e.NElo, 173.71779, 1e-4)
	near(t, "nElo error", e.NEloError, 215.33885, 1e-4)
	near(t, "LOS", e.LOS, 0.9430769, 1e-6)
	// cutechess's LOS ignores draws: 1/2 + 1/2 erf((6-2)/sqrt(2*8)) = 1/2 + 1/2 erf(1)
	// = 0.9213504.
	near(t, "LOS (wins, losses)", LOSWinsLosses(6, 2), 0.9213504, 1e-6)
}

// TestPentanomialByHand checks the pentanomial estimate of 10 pairs: LL 1,
// LD 1, WL 2, DD 1, WD 3, WW 2 (pair scores per game 0, 1/4, 1/2, 3/4, 1 with
// counts 1, 1, 3, 3, 2):
//
//	mu = (0 + 0.25 + 3*0.5 + 3*0.75 + 2*1)/10 = 6/10 = 0.6
//	sigma^2 = (0.36 + 0.1225 + 3*0.01 + 3*0.0225 + 2*0.16)/10 = 0.9/10 = 0.09
//	sd of the mean = sqrt(0.09/10) = 0.0948683
//	Elo = -400 log10(1/0.6 - 1) = 400 log10(1.5) = 70.43650
//	interval: 0.6 -/+ 1.959964 * 0.0948683 = 0.4140594 .. 0.7859406
//	  Elo(0.4140594) = -60.31488, Elo(0.7859406) = 225.94001, +/- = 143.12745
//	nElo = (0.6 - 0.5)/sqrt(2 * 0.09) * 347.43558 = 0.2357023 * 347.43558 = 81.89135
//	nElo +/- = 1.959964 * 0.0948683/sqrt(0.18) * 347.43558 = 152.26756
//	LOS = Phi(0.1/0.0948683) = Phi(1.0540926) = 0.8540797
func TestPentanomialByHand(t *testing.T) {
	var s Stats
	for _, pair := range [][2]float64{{0, 0}, {0.5, 0}, {1, 0}, {0, 1}, {0.5, 0.5}, {1, 0.5}, {0.5, 1}, {1, 0.5}, {1, 1}, {1, 1}} {
		s.AddGame(pair[0])
		s.AddGame(pair[1])
		s.AddPair(pair[0], pair[1])
	}
	if got, want := s.Ptnml(), [5]int{1, 1, 3, 3, 2}; got != want || s.WL != 2 || s.DD != 1 {
		t.Fatalf("ptnml %v (WL %d, DD %d), want %v (WL 2, DD 1)", got, s.WL, s.DD, want)
	}
	if s.Wins != 9 || s.Losses != 5 || s.Draws != 6 {
		t.Errorf("W/L/D %d/%d/%d, want 9/5/6", s.Wins, s.Losses, s.Draws)
	}
	e := s.Pentanomial()
	near(t, "score", e.Score, 0.6, 1e-12)
	near(t, "variance", e.Variance, 0.09, 1e-12)
	near(t, "Elo", e.Elo, 70.43650, 1e-4)
	near(t, "EloLow", e.EloLow, -60.31488, 1e-4)
	near(t, "EloHigh", e.EloHigh, 225.94001, 1e-4)
	near(t, "EloError", e.EloError, 143.12745, 1e-4)
	near(t, "nElo", e.NElo, 81.89135, 1e-4)
	near(t, "nElo error", e.NEloError, 152.26756, 1e-4)
	near(t, "LOS", e.LOS, 0.8540797, 1e-6)
}

// TestFastchessElo compares with the values of fastchess's own tests
// (app/tests/elo_test.cpp; Stats(W, L, D) and Stats(LL, LD, WL, DD, WD, WW)).
func TestFastchessElo(t *testing.T) {
	tri := []struct {
		s                      Stats
		nelo, neloErr, elo, er float64
		los                    string
	}{
		{Stats{Wins: 76, Losses: 89, Draws: 123}, -20.76, 40.13, math.NaN(), math.NaN(), "15.53"},
		{Stats{Wins: 136, Losses: 96, Draws: 111}, 49.77, 36.77, 40.70, 30.43, "99.60"},
		{Stats{Wins: 34, Losses: 356}, -508.44, 34.48, math.NaN(), math.NaN(), ""},
	}
	for _, c := range tri {
		e := c.s.Trinomial()
		near(t, fmt.Sprint(c.s, " nElo"), e.NElo, c.nelo, 0.01)
		near(t, fmt.Sprint(c.s, " nElo error"), e.NEloError, c.neloErr, 0.01)
		if !math.IsNaN(c.elo) {
			near(t, fmt.Sprint(c.s, " Elo"), e.Elo, c.elo, 0.01)
			near(t, fmt.Sprint(c.s, " Elo error"), e.EloError, c.er, 0.01)
		}
		if got := fmt.Sprintf("%.2f", 100*e.LOS); c.los != "" && got != c.los {
			t.Errorf("%v: LOS %s %%, want %s %%", c.s, got, c.los)
		}
	}
	penta := []struct {
		s                      Stats
		nelo, neloErr, elo, er float64
		los                    string
	}{
		{Stats{LL: 34, LD: 54, WL: 31, DD: 32, WD: 64, WW: 75}, 57.94, 28.28, 55.58, 27.65, "100.00"},
		{Stats{LL: 332, LD: 433, WL: 457, DD: 41, WD: 333, WW: 334}, -9.17, 10.96, -8.64, 10.33, "5.05"},
		{Stats{LL: 7895, LD: 8757, WL: 5485, DD: 200, WD: 568, WW: 9999}, -19.01, 2.65, -21.04, 2.95, "0.00"},
	}
	for _, c := range penta {
		e := c.s.Pentanomial()
		near(t, fmt.Sprint(c.s, " nElo"), e.NElo, c.nelo, 0.01)
		near(t, fmt.Sprint(c.s, " nElo error"), e.NEloError, c.neloErr, 0.01)
		near(t, fmt.Sprint(c.s, " Elo"), e.Elo, c.elo, 0.01)
		near(t, fmt.Sprint(c.s, " Elo error"), e.EloError, c.er, 0.01)
		if got := fmt.Sprintf("%.2f", 100*e.LOS); got != c.los {
			t.Errorf("%v: LOS %s %%, want %s %%", c.s, got, c.los)
		}
	}
}

func TestEstimateEnds(t *testing.T) {
	e := Stats{Wins: 4, WW: 2}.Pentanomial()
	if !math.IsInf(e.Elo, 1) || e.LOS != 1 {
		t.Errorf("a perfect score: Elo %v, LOS %v; want +Inf, 1", e.Elo, e.LOS)
	}
	if e := (Stats{}).Trinomial(); !math.IsNaN(e.Elo) {
		t.Errorf("no games: Elo %v, want NaN", e.Elo)
	}
	if e := (Stats{Wins: 1, Losses: 1}).Trinomial(); e.Elo != 0 || math.Signbit(e.Elo) {
		t.Errorf("an even score: Elo %v, want +0", e.Elo)
	}
	if x := ScoreToElo(EloToScore(123.4)); !(math.Abs(x-123.4) <= 1e-9) {
		t.Errorf("ScoreToElo(EloToScore(123.4)) = %v", x)
	}
}

// TestLLRLogisticByHand works the GSPRT of 6 wins, 2 draws, 2 losses by hand,
// logistic model, elo0 = 0 and elo1 = 400 log10(1.5) = 70.4365 (expected
// scores s0 = 1/2, s1 = 0.6). The observed shares on the scores (0, 1/2, 1)
// are phat = (0.2, 0.2, 0.6); the maximum-likelihood distribution with mean s
// is p_i = phat_i/(1 + theta (a_i - s)), theta the root of
// sum phat_i (a_i - s)/(1 + theta (a_i - s)) = 0, which for three scores is a
// quadratic:
//
//	s0 = 0.5: -0.1/(1 - 0.5 theta) + 0.3/(1 + 0.5 theta) = 0  =>  theta = 1,
//	          p0 = (0.2/0.5, 0.2/1, 0.6/1.5) = (0.4, 0.2, 0.4)
//	s1 = 0.6: -0.12/(1 - 0.6 theta) - 0.02/(1 - 0.1 theta) + 0.24/(1 + 0.4 theta) = 0
//	          =>  0.024 theta^2 - 0.2 theta + 0.1 = 0
//	          =>  theta = (0.2 - sqrt(0.0304))/0.048 = 0.5342509 (the root with
//	              every 1 + theta (a_i - s) > 0)
//	          p1 = (0.2/0.6794495, 0.2/0.9465749, 0.6/1.2137004)
//	             = (0.2943560, 0.2112881, 0.4943560)
//	LLR = N sum phat_i ln(p1_i/p0_i)
//	    = 10 (0.2 ln(0.7358899) + 0.2 ln(1.0564404) + 0.6 ln(1.2358899))
//	    = 10 (-0.0613336 + 0.0109809 + 0.1270611) = 0.7672084
//
// and the bounds for alpha = beta = 0.05 are ln(0.05/0.95) = -2.9444390 and
// ln(0.95/0.05) = 2.9444390.
func TestLLRLogisticByHand(t *testing.T) {
	sp := SPRT{Elo0: 0, Elo1: 400 * math.Log10(1.5), Alpha: 0.05, Beta: 0.05, Model: Logistic}
	near(t, "LLR", sp.LLRTrinomial(Stats{Wins: 6, Losses: 2, Draws: 2}), 0.7672084, 1e-6)
	lo, hi := sp.Bounds()
	near(t, "lower bound", lo, -2.9444390, 1e-6)
	near(t, "upper bound", hi, 2.9444390, 1e-6)
	for _, c := range []struct {
		llr  float64
		want Verdict
	}{{0.77, Continue}, {2.95, AcceptH1}, {-2.95, AcceptH0}} {
		if got := sp.Verdict(c.llr); got != c.want {
			t.Errorf("Verdict(%v) = %v, want %v", c.llr, got, c.want)
		}
	}
}

// TestLLRFastchess compares the GSPRT with the values of fastchess's tests
// (app/tests/sprt_test.cpp), both models, trinomial and pentanomial. Two of
// its cases are left out: all draws, and all pairs won, where the observed
// distribution sits on one score. There fastchess's iteration stops at a
// tolerance of 1e-4 on the probabilities, which are near 1e-5, and gives
// +2.97 and +2.94; iterated to convergence the LLR of 16,700 draws under
// normalized [0, 5] is -3.45, as it must be at most 0 when the sample (mean
// exactly 1/2) fits H0 (nElo 0) exactly (see TestLLRNormalizedFitsH0).
func TestLLRFastchess(t *testing.T) {
	p := func(ll, ld, wl, dd, wd, ww int) Stats { return Stats{LL: ll, LD: ld, WL: wl, DD: dd, WD: wd, WW: ww} }
	cases := []struct {
		s          Stats
		trinomial  bool
		elo0, elo1 float64
		model      SPRTModel
		want       float64
	}{
		{Stats{Wins: 36433, Losses: 36027, Draws: 68692}, true, 0, 2, Normalized, 0.92},
		{Stats{Wins: 10871, Losses: 10650, Draws: 20431}, true, -1.75, 0.25, Normalized, 2.30},
		{Stats{Wins: 21404, Losses: 21184, Draws: 40708}, true, 0.5, 2.5, Logistic, -1.57},
		{Stats{Wins: 57433, Losses: 57030, Draws: 106593}, true, 0, 2, Logistic, -2.59},
		{p(365, 16618, 36029, 200, 16974, 390), false, 0, 2, Normalized, 2.25},
		{p(127, 4883, 10311, 401, 5150, 104), false, -1.75, 0.25, Normalized, 3.01},
		{p(223, 9863, 20279, 1000, 10037, 246), false, 0.5, 2.5, Logistic, -3.07},
		{p(871, 26175, 55003, 980, 26678, 821), false, 0, 2, Logistic, -4.98},
	}
	for _, c := range cases {
		sp := SPRT{Elo0: c.elo0, Elo1: c.elo1, Alpha: 0.05, Beta: 0.05, Model: c.model}
		got := sp.LLR(c.s)
		if c.trinomial {
			got = sp.LLRTrinomial(c.s)
		}
		// doctest's Approx(x).epsilon(0.01): within 1% of the value.
		if !(math.Abs(got-c.want) <= 0.01*math.Abs(c.want)) {
			t.Errorf("%+v %s [%g, %g]: LLR %.4f, want %.2f", c.s, c.model, c.elo0, c.elo1, got, c.want)
		}
	}
}

// TestLLRNormalizedFitsH0: a sample whose mean is exactly 1/2 is the
// unconstrained maximum-likelihood distribution and has nElo 0, so under
// H0: nElo = 0 its likelihood cannot be beaten and the LLR is at most 0; and a
// symmetric swap of the hypotheses changes the LLR's sign.
func TestLLRNormalizedFitsH0(t *testing.T) {
	for _, s := range []Stats{{Draws: 16700}, {LL: 3, LD: 10, WL: 20, DD: 4, WD: 10, WW: 3}} {
		sp := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: Normalized}
		llr := sp.LLR(s)
		if s.Pairs() == 0 {
			llr = sp.LLRTrinomial(s)
		}
		if llr > 1e-9 {
			t.Errorf("%+v: LLR %v > 0 for a sample that fits H0 exactly", s, llr)
		}
	}
	s := Stats{LL: 5, LD: 12, WL: 20, DD: 4, WD: 15, WW: 8}
	for _, m := range []SPRTModel{Logistic, Normalized} {
		a := SPRT{Elo0: -5, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: m}.LLR(s)
		b := SPRT{Elo0: 5, Elo1: -5, Alpha: 0.05, Beta: 0.05, Model: m}.LLR(s)
		near(t, string(m)+" LLR with the hypotheses swapped", b, -a, 1e-9)
	}
}

func TestParseSPRT(t *testing.T) {
	sp, err := ParseSPRT("0, 10, 0.05, 0.1", Normalized)
	if err != nil || sp != (SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.1, Model: Normalized}) {
		t.Errorf("ParseSPRT: %+v, %v", sp, err)
	}
	for _, bad := range []string{"0,10,0.05", "10,0,0.05,0.05", "0,10,0,0.05", "0,10,0.6,0.5", "0,x,0.05,0.05"} {
		if _, err := ParseSPRT(bad, Logistic); err == nil {
			t.Errorf("ParseSPRT(%q) accepted", bad)
		}
	}
	if _, err := ParseSPRT("0,10,0.05,0.05", "bayesian"); err == nil {
		t.Error("an unknown model was accepted")
	}
}
