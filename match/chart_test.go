package match

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// pool returns a pool result of named players with the given generations
// (-1 for none) and ratings, each interval 50 Elo either side.
func pool(names []string, gens []int, elo []float64) *PoolResult {
	r := &PoolResult{Ratings: &Ratings{}}
	for i, n := range names {
		r.Players = append(r.Players, PoolPlayer{Name: n, Generation: gens[i]})
		r.Ratings.Elo = append(r.Ratings.Elo, elo[i])
		r.Ratings.Low = append(r.Ratings.Low, elo[i]-50)
		r.Ratings.High = append(r.Ratings.High, elo[i]+50)
	}
	return r
}

func TestChartMarks(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name  string
		r     *PoolResult
		byGen bool
		want  string // each mark as name@at caption
	}{
		{
			name:  "generations",
			r:     pool([]string{"gen2", "gen0", "gen1"}, []int{2, 0, 1}, []float64{80, 0, 30}),
			byGen: true,
			want:  "gen0@0 gen1@1 gen2@2",
		},
		{
			// Two players of generation 0 (the README's pool) and one
			// without: rows by name, the best at the top.
			name: "named players",
			r:    pool([]string{"gen0", "gen0-20", "random"}, []int{0, 0, -1}, []float64{0, -59, -413}),
			want: "gen0@2+0 gen0-20@1-59 random@0-413",
		},
		{
			name: "infinite and unknown ratings",
			r:    pool([]string{"a", "b", "c", "d"}, []int{-1, 0, 1, 2}, []float64{0, inf, math.NaN(), -inf}),
			want: "b@3+inf a@2+0 d@1-inf c@0?",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			marks, byGen := tt.r.chartMarks()
			var got []string
			for _, m := range marks {
				got = append(got, fmt.Sprintf("%s@%g%s", m.name, m.at, m.caption))
			}
			if byGen != tt.byGen || strings.Join(got, " ") != tt.want {
				t.Errorf("by generation %v, marks %s; want %v, %s", byGen, strings.Join(got, " "), tt.byGen, tt.want)
			}
			b, err := tt.r.Chart(ChartWidth, ChartHeight)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Bounds().Size(); got.X != 768 || got.Y != 480 {
				t.Errorf("chart is %v, want 768x480", got)
			}
			if n := bluePixels(img); n < 200 {
				t.Errorf("%d pixels of the points' blue: the ratings are not drawn", n)
			}
			// The margin: the top rows of pixels are blank (the title does not
			// touch the edge).
			if !blankRows(img, 0, 8) {
				t.Error("the top edge is not blank")
			}
		})
	}
}

// TestChartTall checks that a pool of many named players grows the chart so
// that each row keeps its height.
func TestChartTall(t *testing.T) {
	var names []string
	var gens []int
	var elo []float64
	for i := range 30 {
		names = append(names, fmt.Sprintf("player-%d", i))
		gens = append(gens, -1)
		elo = append(elo, float64(10*i))
	}
	b, err := pool(names, gens, elo).Chart(ChartWidth, ChartHeight)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if h := img.Bounds().Dy(); h < 30*29 {
		t.Errorf("chart of 30 rows is %d pixels high, want at least %d", h, 30*29)
	}
}

// bluePixels counts the pixels of about the colour of the points.
func bluePixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 < 60 && g>>8 > 90 && g>>8 < 150 && bl>>8 > 150 {
				n++
			}
		}
	}
	return n
}

// blankRows reports whether rows y0 to y1-1 are all white.
func blankRows(img image.Image, y0, y1 int) bool {
	for y := y0; y < y1; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff {
				return false
			}
		}
	}
	return true
}

func TestTicks(t *testing.T) {
	labels := func(ts []plot.Tick) string {
		var s []string
		for _, t := range ts {
			if t.Label != "" {
				s = append(s, t.Label)
			}
		}
		return strings.Join(s, " ")
	}
	tests := []struct {
		name     string
		ticker   plot.Ticker
		min, max float64
		want     string
	}{
		{"elo", eloTicks{}, -440, 250, "-400 -300 -200 -100 0 100 200"},
		{"elo small", eloTicks{}, -12, 13, "-10 -5 0 5 10"},
		{"elo fine", eloTicks{}, 3, 41, "5 10 15 20 25 30 35 40"},
		{"generations", generationTicks{}, -0.5, 4.5, "0 1 2 3 4"},
		{"many generations", generationTicks{}, -0.5, 45.5, "0 5 10 15 20 25 30 35 40 45"},
	}
	for _, tt := range tests {
		if got := labels(tt.ticker.Ticks(tt.min, tt.max)); got != tt.want {
			t.Errorf("%s: labels %q, want %q", tt.name, got, tt.want)
		}
	}
	// Minor ticks between the labelled ones.
	if ts := (eloTicks{}).Ticks(-440, 250); len(ts) != 14 {
		t.Errorf("%d elo ticks, want 14 (7 labelled, 7 minor)", len(ts))
	}
}
