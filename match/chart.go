package match

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	_ "gonum.org/v1/plot/vg/vgimg" // the png format of draw.NewFormattedCanvas
)

// The size of the rating chart: 8 x 5 inches at gonum/plot's 96 dots per
// inch, 768 x 480 pixels. A chart of many players by name grows taller.
const (
	ChartWidth  = 8 * vg.Inch
	ChartHeight = 5 * vg.Inch
)

// chartMargin is the blank border around the chart, so that the title does
// not touch the top edge.
const chartMargin = 10 // points

// rowHeight is the least height of a player's row in a chart by name.
const rowHeight = 0.3 * vg.Inch

// chartBlue is the colour of the points and intervals.
var chartBlue = color.RGBA{R: 31, G: 119, B: 180, A: 255}

// mark is one player on the chart: its place on the axis of players (the
// generation, or the row), its rating and 95% interval (any of them may be
// infinite or NaN), and its name.
type mark struct {
	at            float64
	elo, low, hi  float64
	name, caption string
}

// Chart draws the players' ratings with their 95% intervals and returns the
// PNG; nil when there are no ratings. When every player has a generation of
// its own, the ratings are drawn against the generation, joined by a line,
// each point named; otherwise each player has a row named after it, the best
// at the top (w x h at least, taller when the rows need it). A rating or a
// bound that is not finite (a player who won or lost every game, fitted
// without a prior) is drawn at the edge of the chart as an arrow, marked +inf
// or -inf.
func (r *PoolResult) Chart(w, h vg.Length) ([]byte, error) {
	if r.Ratings == nil || len(r.Players) == 0 {
		return nil, nil
	}
	marks, byGen := r.chartMarks()
	anchor := r.Players[r.Ratings.Anchor].Name
	pl := plot.New()
	pl.Title.Padding = vg.Points(8)
	pl.Add(plotter.NewGrid())
	lo, hi := eloRange(marks)
	if byGen {
		pl.Title.Text = fmt.Sprintf("Rating by generation (%s = 0, 95%% intervals)", anchor)
		pl.X.Label.Text = "generation"
		pl.Y.Label.Text = "Elo"
		pl.X.Min, pl.X.Max = marks[0].at-0.5, marks[len(marks)-1].at+0.5
		pl.X.Tick.Marker = generationTicks{}
		pl.Y.Min, pl.Y.Max = lo, hi
		pl.Y.Tick.Marker = eloTicks{}
		var line plotter.XYs
		for _, m := range marks {
			if isFinite(m.elo) {
				line = append(line, plotter.XY{X: m.at, Y: m.elo})
			}
		}
		if len(line) > 1 {
			l, err := plotter.NewLine(line)
			if err != nil {
				return nil, fmt.Errorf("chart: %w", err)
			}
			l.Color, l.Width = chartBlue, vg.Points(1.5)
			pl.Add(l)
		}
		pl.Add(&ratingMarks{marks: marks, vertical: true})
	} else {
		names := make([]plot.Tick, len(marks))
		for i, m := range marks {
			names[i] = plot.Tick{Value: m.at, Label: m.name}
		}
		pl.Title.Text = fmt.Sprintf("Ratings (%s = 0, 95%% intervals)", anchor)
		pl.X.Label.Text = "Elo"
		pl.X.Min, pl.X.Max = lo, hi
		pl.X.Tick.Marker = eloTicks{}
		pl.Y.Min, pl.Y.Max = -0.6, float64(len(marks))-0.4
		pl.Y.Tick.Marker = plot.ConstantTicks(names)
		h = max(h, vg.Length(len(marks))*rowHeight+1.6*vg.Inch)
		pl.Add(&ratingMarks{marks: marks})
	}

	c, err := draw.NewFormattedCanvas(w, h, "png")
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	m := vg.Points(chartMargin)
	pl.Draw(draw.Crop(draw.New(c), m, -m, m, -m))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	return buf.Bytes(), nil
}

// chartMarks places the players: by generation when every player has a
// generation of its own (sorted by it), else in rows from the best at the top
// (row len-1) to the worst at the bottom (row 0; a NaN rating sorts last),
// each captioned with its rating.
func (r *PoolResult) chartMarks() ([]mark, bool) {
	marks := make([]mark, len(r.Players))
	byGen := true
	gens := map[int]bool{}
	for i, p := range r.Players {
		marks[i] = mark{at: float64(p.Generation), elo: r.Ratings.Elo[i], low: r.Ratings.Low[i], hi: r.Ratings.High[i], name: p.Name}
		if p.Generation < 0 || gens[p.Generation] {
			byGen = false
		}
		gens[p.Generation] = true
	}
	if byGen {
		slices.SortStableFunc(marks, func(a, b mark) int { return cmp.Compare(a.at, b.at) })
		return marks, true
	}
	slices.SortStableFunc(marks, func(a, b mark) int { return -cmpNaNLow(a.elo, b.elo) })
	for i := range marks {
		marks[i].at = float64(len(marks) - 1 - i)
		marks[i].caption = captionElo(marks[i].elo)
	}
	return marks, false
}

func isFinite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// cmpNaNLow compares a and b with NaN below everything.
func cmpNaNLow(a, b float64) int {
	switch {
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return -1
	case math.IsNaN(b):
		return 1
	}
	return cmp.Compare(a, b)
}

// captionElo writes a rating for a caption, such as "+120", "-45" or "+inf".
func captionElo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "?"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", x)
}

// eloRange returns the Elo axis's range: the finite ratings and bounds with
// a margin, and room at the edges for the arrows of the infinite ones.
func eloRange(ms []mark) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	infinite := false
	for _, m := range ms {
		for _, v := range []float64{m.elo, m.low, m.hi} {
			if isFinite(v) {
				lo, hi = min(lo, v), max(hi, v)
			} else {
				infinite = true
			}
		}
	}
	if lo > hi { // nothing finite
		lo, hi = -100, 100
	}
	pad := max(10, (hi-lo)*0.08)
	if infinite {
		pad = max(pad, (hi-lo)*0.15)
	}
	return lo - pad, hi + pad
}

// ratingMarks draws each player's rating as a point with its 95% interval,
// the Elo axis vertical (by generation, the names above the intervals) or
// horizontal (by row, the ratings written above the points). What lies beyond
// the axis's range is drawn to its edge and ends in an arrow.
type ratingMarks struct {
	marks    []mark
	vertical bool
}

// Plot implements plot.Plotter.
func (rm *ratingMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	eloAxis, at := p.X, trY
	toElo := trX
	if rm.vertical {
		eloAxis, at, toElo = p.Y, trX, trY
	}
	pt := func(pos, elo vg.Length) vg.Point {
		if rm.vertical {
			return vg.Point{X: pos, Y: elo}
		}
		return vg.Point{X: elo, Y: pos}
	}
	// clamp places an Elo value on the axis and says whether it was beyond it.
	clamp := func(v float64, dflt float64) (vg.Length, bool) {
		switch {
		case math.IsNaN(v):
			v = dflt
		case v > eloAxis.Max:
			return toElo(eloAxis.Max), true
		case v < eloAxis.Min:
			return toElo(eloAxis.Min), true
		}
		return toElo(v), false
	}
	line := draw.LineStyle{Color: chartBlue, Width: vg.Points(1.2)}
	capW := vg.Points(6)
	small := text.Style{Font: font.From(plot.DefaultFont, vg.Points(9)), Handler: plot.DefaultTextHandler, Color: color.Black}
	for _, m := range rm.marks {
		pos := at(m.at)
		mid, midOut := clamp(m.elo, 0)
		lo, loOut := clamp(m.low, m.elo)
		hi, hiOut := clamp(m.hi, m.elo)
		if !isFinite(m.elo) {
			// The interval of an infinite rating says nothing: an arrow
			// from the last finite place to the edge.
			lo, hi = mid, mid
			loOut, hiOut = false, false
		}
		c.StrokeLines(line, []vg.Point{pt(pos, lo), pt(pos, hi)})
		for _, end := range []struct {
			v   vg.Length
			out bool
			dir vg.Length
		}{{lo, loOut, -1}, {hi, hiOut, 1}} {
			if end.out {
				arrowHead(&c, line, pt, pos, end.v, end.dir)
			} else {
				c.StrokeLines(line, []vg.Point{pt(pos-capW/2, end.v), pt(pos+capW/2, end.v)})
			}
		}
		if midOut || !isFinite(m.elo) {
			dir := vg.Length(1)
			if m.elo < 0 {
				dir = -1
			}
			stem := vg.Points(22)
			c.StrokeLines(draw.LineStyle{Color: chartBlue, Width: vg.Points(2)}, []vg.Point{pt(pos, mid-dir*stem), pt(pos, mid)})
			arrowHead(&c, draw.LineStyle{Color: chartBlue, Width: vg.Points(2)}, pt, pos, mid, dir)
			lbl := captionElo(m.elo)
			if rm.vertical {
				sty := small
				sty.XAlign, sty.YAlign = text.XLeft, text.YCenter
				c.FillText(sty, pt(pos+vg.Points(5), mid-dir*stem/2), m.name+" "+lbl)
			} else {
				sty := small
				sty.XAlign, sty.YAlign = text.XCenter, text.YBottom
				c.FillText(sty, pt(pos+vg.Points(5), mid-dir*stem/2), lbl)
			}
			continue
		}
		c.DrawGlyph(draw.GlyphStyle{Color: chartBlue, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}, pt(pos, mid))
		sty := small
		if rm.vertical {
			sty.XAlign, sty.YAlign = text.XCenter, text.YBottom
			c.FillText(sty, pt(pos, hi+vg.Points(6)), m.name)
		} else {
			sty.XAlign, sty.YAlign = text.XCenter, text.YBottom
			c.FillText(sty, pt(pos+vg.Points(5), mid), m.caption)
		}
	}
}

// arrowHead draws an arrow's head at Elo position v on the line at pos,
// pointing toward larger Elo when dir is 1, smaller when -1.
func arrowHead(c *draw.Canvas, sty draw.LineStyle, pt func(pos, elo vg.Length) vg.Point, pos, v, dir vg.Length) {
	l, wd := vg.Points(7), vg.Points(4)
	c.StrokeLines(sty, []vg.Point{pt(pos-wd, v-dir*l), pt(pos, v), pt(pos+wd, v-dir*l)})
}

// DataRange implements plot.DataRanger: the ranges the chart sets.
func (rm *ratingMarks) DataRange() (xmin, xmax, ymin, ymax float64) {
	lo, hi := eloRange(rm.marks)
	amin, amax := math.Inf(1), math.Inf(-1)
	for _, m := range rm.marks {
		amin, amax = min(amin, m.at), max(amax, m.at)
	}
	if rm.vertical {
		return amin, amax, lo, hi
	}
	return lo, hi, amin, amax
}

// generationTicks marks whole generations, labelling each up to 20 of them,
// else every second, fifth, ... so that about 20 are labelled.
type generationTicks struct{}

// Ticks implements plot.Ticker.
func (generationTicks) Ticks(min, max float64) []plot.Tick {
	lo, hi := math.Ceil(min), math.Floor(max)
	step := niceStep((hi - lo + 1) / 20)
	step = math.Max(1, step)
	var ts []plot.Tick
	for g := lo + 0; g <= hi; g++ { // + 0: no "-0"
		t := plot.Tick{Value: g}
		if math.Mod(g, step) == 0 {
			t.Label = strconv.FormatFloat(g, 'f', -1, 64)
		}
		ts = append(ts, t)
	}
	return ts
}

// eloTicks labels about twelve round Elo values over the range (steps of 1, 2 or
// 5 times a power of ten), with a minor tick between each two.
type eloTicks struct{}

// Ticks implements plot.Ticker.
func (eloTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return nil
	}
	step := niceStep((max - min) / 12)
	var ts []plot.Tick
	for v := math.Ceil(min/step*2) * step / 2; v <= max; v += step / 2 {
		v := math.Round(v/step*2) * step / 2
		t := plot.Tick{Value: v}
		if k := math.Round(v / step); math.Abs(v-k*step) < step*1e-9 {
			t.Label = strconv.FormatFloat(math.Round(v*1e6)/1e6+0, 'f', -1, 64) // + 0: no "-0"
		}
		ts = append(ts, t)
	}
	return ts
}

// niceStep returns the least of 1, 2, 5, 10, 20, 50, ... times a power of ten
// that is at least x.
func niceStep(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}
