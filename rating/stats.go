package rating

import (
	"fmt"
	"math"
)

// Z95 is the two-sided 95% quantile of the standard normal distribution,
// as fastchess uses it (CI95ZSCORE).
const Z95 = 1.959963984540054

// neloScale is 800/ln(10): the slope of the logistic Elo curve at a score of 1/2
// times 2, which turns a standardized score into normalized Elo.
const neloScale = 800 / math.Ln10

// Stats counts the results of a match from the first player's view: games won,
// lost and drawn, and the pentanomial counts over game pairs (the two games of a
// pair share their setups with colours swapped). A pair scores 0 (LL), 0.5 (LD),
// 1 (WL or DD), 1.5 (WD) or 2 (WW) points.
type Stats struct {
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Draws  int `json:"draws"`
	LL     int `json:"ll"`
	LD     int `json:"ld"`
	WL     int `json:"wl"`
	DD     int `json:"dd"`
	WD     int `json:"wd"`
	WW     int `json:"ww"`
}

// Games returns the number of games.
func (s Stats) Games() int { return s.Wins + s.Losses + s.Draws }

// Pairs returns the number of finished game pairs.
func (s Stats) Pairs() int { return s.LL + s.LD + s.WL + s.DD + s.WD + s.WW }

// Points returns the first player's points: a win counts 1, a draw 1/2.
func (s Stats) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Ptnml returns the pentanomial counts by pair score, from 0 to 2 points:
// LL, LD, WL+DD, WD, WW.
func (s Stats) Ptnml() [5]int { return [5]int{s.LL, s.LD, s.WL + s.DD, s.WD, s.WW} }

// AddGame counts one game with the first player's score (1, 1/2 or 0).
func (s *Stats) AddGame(score float64) {
	switch score {
	case 1:
		s.Wins++
	case 0:
		s.Losses++
	default:
		s.Draws++
	}
}

// AddPair counts one finished pair from the first player's scores in its two
// games (the games are counted by AddGame, not here).
func (s *Stats) AddPair(a, b float64) {
	switch {
	case a+b == 2:
		s.WW++
	case a+b == 1.5:
		s.WD++
	case a+b == 1 && a == 0.5:
		s.DD++
	case a+b == 1:
		s.WL++
	case a+b == 0.5:
		s.LD++
	default:
		s.LL++
	}
}

// Estimate is what a sample of results says of the strength difference, from
// the first player's view, with fastchess's formulas. The trinomial estimate
// treats games as independent; the pentanomial one takes game pairs as the unit,
// which accounts for the correlation the shared setups bring.
type Estimate struct {
	// N is the number of units: games (trinomial) or pairs (pentanomial).
	N int
	// Score is the mean score per game, in [0, 1].
	Score float64
	// Variance is the variance of one unit's score (per game for the
	// trinomial estimate, per pair in mean score per game for the pentanomial).
	Variance float64
	// Elo is the logistic Elo difference of Score: -400 log10(1/Score - 1).
	Elo float64
	// EloLow and EloHigh bound the 95% interval: the Elo of
	// Score -/+ Z95 sqrt(Variance/N), clamped to [0, 1].
	EloLow, EloHigh float64
	// EloError is fastchess's "+/-": (EloHigh - EloLow) / 2.
	EloError float64
	// NElo is the normalized Elo: (Score - 1/2) / sqrt(Variance) * 800/ln(10)
	// for games, with sqrt(2 Variance) for pairs; NEloError its "+/-".
	NElo, NEloError float64
	// LOS is the likelihood of superiority: the probability that the first
	// player is the stronger, Phi((Score - 1/2) / sqrt(Variance/N)).
	LOS float64
}

// ScoreToElo returns the logistic Elo difference of a mean score:
// -400 log10(1/score - 1); +Inf for 1 and -Inf for 0.
func ScoreToElo(score float64) float64 {
	switch {
	case score >= 1:
		return math.Inf(1)
	case score <= 0:
		return math.Inf(-1)
	}
	return -400*math.Log10(1/score-1) + 0 // + 0: no "-0.00" at a score of 1/2
}

// EloToScore returns the expected score of a logistic Elo difference:
// 1 / (1 + 10^(-elo/400)).
func EloToScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Trinomial returns the estimate from wins, losses and draws, as fastchess's
// EloWDL (and cutechess) compute it: score mu = (W + D/2)/N, variance
// sigma^2 = w(1-mu)^2 + d(1/2-mu)^2 + l mu^2 with w, d, l the shares, and the
// interval mu -/+ Z95 sigma/sqrt(N) turned into Elo.
func (s Stats) Trinomial() Estimate {
	n := s.Games()
	if n == 0 {
		return emptyEstimate()
	}
	scores := []float64{0, 0.5, 1}
	counts := []int{s.Losses, s.Draws, s.Wins}
	return estimate(scores, counts, 1)
}

// Pentanomial returns the estimate from the pair counts, as fastchess's
// EloPentanomial computes it: pair scores 0, 1/4, 1/2, 3/4, 1 (per game) with
// the shares of LL, LD, WL+DD, WD, WW; mu and sigma^2 as for Trinomial but over
// pairs; normalized Elo divides by sqrt(2 sigma^2), the per-game deviation.
func (s Stats) Pentanomial() Estimate {
	if s.Pairs() == 0 {
		return emptyEstimate()
	}
	p := s.Ptnml()
	return estimate([]float64{0, 0.25, 0.5, 0.75, 1}, p[:], 2)
}

// EstimateJSON is an Estimate with non-finite values as null.
type EstimateJSON struct {
	Score     *float64 `json:"score"`
	Elo       *float64 `json:"elo"`
	EloLow    *float64 `json:"elo_low"`
	EloHigh   *float64 `json:"elo_high"`
	EloError  *float64 `json:"elo_error"`
	NElo      *float64 `json:"nelo"`
	NEloError *float64 `json:"nelo_error"`
	LOS       *float64 `json:"los"`
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// JSON returns the estimate with non-finite values as null.
func (e Estimate) JSON() EstimateJSON {
	return EstimateJSON{finite(e.Score), finite(e.Elo), finite(e.EloLow), finite(e.EloHigh), finite(e.EloError), finite(e.NElo), finite(e.NEloError), finite(e.LOS)}
}

func emptyEstimate() Estimate {
	nan := math.NaN()
	return Estimate{Score: nan, Variance: nan, Elo: nan, EloLow: nan, EloHigh: nan, EloError: nan, NElo: nan, NEloError: nan, LOS: nan}
}

// estimate computes an Estimate from the counts of each unit score; games is
// the number of games in a unit (1 or 2), which scales normalized Elo.
func estimate(scores []float64, counts []int, games float64) Estimate {
	var n int
	for _, c := range counts {
		n += c
	}
	var mu float64
	for i, c := range counts {
		mu += float64(c) / float64(n) * scores[i]
	}
	var v float64
	for i, c := range counts {
		d := scores[i] - mu
		v += float64(c) / float64(n) * d * d
	}
	sd := math.Sqrt(v / float64(n)) // of the mean score
	lo := math.Max(0, mu-Z95*sd)
	hi := math.Min(1, mu+Z95*sd)
	e := Estimate{N: n, Score: mu, Variance: v, Elo: ScoreToElo(mu), EloLow: ScoreToElo(lo), EloHigh: ScoreToElo(hi)}
	e.EloError = (e.EloHigh - e.EloLow) / 2
	nelo := func(x float64) float64 { return (x - 0.5) / math.Sqrt(games*v) * neloScale }
	e.NElo = nelo(mu)
	e.NEloError = (nelo(mu+Z95*sd) - nelo(mu-Z95*sd)) / 2
	switch {
	case sd > 0:
		e.LOS = 0.5 * (1 + math.Erf((mu-0.5)/(math.Sqrt2*sd)))
	case mu > 0.5:
		e.LOS = 1
	case mu < 0.5:
		e.LOS = 0
	default:
		e.LOS = 0.5
	}
	return e
}

// LOSWinsLosses is cutechess's likelihood of superiority, which ignores draws:
// 1/2 + 1/2 erf((W - L) / sqrt(2 (W + L))).
func LOSWinsLosses(wins, losses int) float64 {
	if wins+losses == 0 {
		return 0.5
	}
	return 0.5 + 0.5*math.Erf(float64(wins-losses)/math.Sqrt(2*float64(wins+losses)))
}

// FormatElo writes an Elo value with two decimals, "inf" and "-inf" at the
// ends and "nan" for NaN.
func FormatElo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%.2f", x)
}
