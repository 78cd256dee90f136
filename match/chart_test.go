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

	"github.com/arimaalab/arimaalab/rating"
)

// pool returns a pool result of named players with the given generations
// (-1 for none) and ratings, each interval 50 Elo either side.
func pool(names []string, gens []int, elo []float64) *PoolResult {
	r := &PoolResult{Ratings: &rating.Ratings{}}
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
			img := chartPNG(t, tt.r)
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

// TestChartPNG fits the ratings of a pool of four players, each stronger
// than the one before, draws their chart and decodes it.
func TestChartPNG(t *testing.T) {
	const players = 4
	// Each pairing plays 40 game pairs. From I's view, J wins both games of
	// 8 pairs per step between them and the others are even (a win each, or
	// two draws): I scores 1/2 - (j-i)/10.
	var data []rating.PairingData
	for i := range players {
		for j := i + 1; j < players; j++ {
			d := rating.PairingData{I: i, J: j}
			for k := range 40 {
				u := rating.Unit{W: 1, L: 1}
				switch {
				case k < 8*(j-i):
					u = rating.Unit{L: 2}
				case k%2 == 1:
					u = rating.Unit{D: 2}
				}
				d.Units = append(d.Units, u)
			}
			data = append(data, d)
		}
	}
	r, err := rating.Fit(players, data, rating.FitOptions{Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	res := &PoolResult{Ratings: r}
	for g := range players {
		res.Players = append(res.Players, PoolPlayer{Name: "gen-" + string(rune('0'+g)), Generation: g})
	}
	res.Players[3] = PoolPlayer{Name: "random", Generation: -1} // drawn in a row of its own
	img := chartPNG(t, res)
	if got := img.Bounds().Size(); got.X != 768 || got.Y != 480 {
		t.Errorf("chart is %v, want 768x480", got)
	}
	// Something is drawn: not every pixel is white.
	white := 0
	for y := 0; y < 480; y += 4 {
		for x := 0; x < 768; x += 4 {
			if r, g, b, _ := img.At(x, y).RGBA(); r == 0xffff && g == 0xffff && b == 0xffff {
				white++
			}
		}
	}
	if white == 192*120 {
		t.Error("the chart is blank")
	}
	md := res.Markdown()
	if !bytes.Contains([]byte(md), []byte("| 1 | random | - |")) || !bytes.Contains([]byte(md), []byte("| 4 | gen-0 | 0 | +0.0 |")) {
		t.Errorf("the table does not rank random (the strongest) first and gen-0 (0) last:\n%s", md)
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
	img := chartPNG(t, pool(names, gens, elo))
	if h := img.Bounds().Dy(); h < 30*29 {
		t.Errorf("chart of 30 rows is %d pixels high, want at least %d", h, 30*29)
	}
}

// chartPNG draws r's chart at the default size and decodes it.
func chartPNG(t *testing.T, r *PoolResult) image.Image {
	t.Helper()
	b, err := r.Chart(ChartWidth, ChartHeight)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
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
