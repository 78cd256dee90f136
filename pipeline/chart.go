package pipeline

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The size of report.png: 12 x 8 inches at 96 dots per inch, 1152 x 768
// pixels.
const (
	reportWidth  = 12 * vg.Inch
	reportHeight = 8 * vg.Inch
)

var (
	colBlue   = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	colGreen  = color.RGBA{R: 44, G: 160, B: 44, A: 255}
	colRed    = color.RGBA{R: 214, G: 39, B: 40, A: 255}
	colGrey   = color.RGBA{R: 110, G: 110, B: 110, A: 255}
	colOrange = color.RGBA{R: 255, G: 127, B: 14, A: 255}
	colPurple = color.RGBA{R: 148, G: 103, B: 189, A: 255}
	colGold   = color.RGBA{R: 230, G: 170, B: 0, A: 255}
)

// Chart draws report.png: a title, then four panels by generation: the pool
// ratings with their 95% intervals (promoted, rejected, the best by the gates
// and by the pool marked; the anchors as dashed lines), the training and
// validation log-losses, the self-play game length, and Gold's share of the
// self-play wins.
func (r *Report) Chart() ([]byte, error) {
	img := vgimg.New(reportWidth, reportHeight)
	dc := draw.New(img)
	// A white page, the title inside a band of its own with a margin above.
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	titleH := vg.Points(40)
	title := draw.TextStyle{Color: color.Black, Font: font.From(plot.DefaultFont, 15), XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: plot.DefaultTextHandler}
	n := len(r.Generations) - 1
	text := fmt.Sprintf("arimaalab run %s: %d generations, best %d by the gates, %d by the pool", r.Out, n, r.Best, r.PoolBest)
	dc.FillText(title, vg.Point{X: reportWidth / 2, Y: reportHeight - titleH/2 - vg.Points(4)}, text)
	body := draw.Crop(dc, vg.Points(4), -vg.Points(4), vg.Points(4), -titleH)

	panels := []func() (*plot.Plot, error){r.ratingPanel, r.lossPanel, r.lengthPanel, r.goldPanel}
	tiles := draw.Tiles{Rows: 2, Cols: 2, PadX: vg.Points(12), PadY: vg.Points(12)}
	for i, mk := range panels {
		p, err := mk()
		if err != nil {
			return nil, fmt.Errorf("report chart: %w", err)
		}
		p.Draw(tiles.At(body, i%2, i/2))
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report chart: %w", err)
	}
	return buf.Bytes(), nil
}

// newPanel returns a plot with the generation axis of the report.
func (r *Report) newPanel(title, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = "generation"
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	p.X.Min, p.X.Max = -0.5, float64(len(r.Generations)-1)+0.5
	p.X.Tick.Marker = wholeTicks{}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.Padding = vg.Points(3)
	p.Legend.ThumbnailWidth = vg.Points(22)
	return p
}

// errorXYs are points with asymmetric vertical error bars.
type errorXYs struct {
	plotter.XYs
	low, high []float64
}

func (e errorXYs) YError(i int) (float64, float64) { return e.low[i], e.high[i] }

// glyphs adds points drawn with a glyph and a legend entry (none when empty).
func glyphs(p *plot.Plot, xys plotter.XYs, shape draw.GlyphDrawer, c color.Color, radius vg.Length, legend string) error {
	if len(xys) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	s.Shape, s.Color, s.Radius = shape, c, radius
	p.Add(s)
	if legend != "" {
		p.Legend.Add(legend, s)
	}
	return nil
}

func (r *Report) ratingPanel() (*plot.Plot, error) {
	p := r.newPanel(fmt.Sprintf("Pool rating (%s = 0, 95%% intervals)", r.RatedZero), "Elo")
	var all errorXYs
	var start, promoted, rejected, best, poolBest plotter.XYs
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, g := range r.Generations {
		if g.Rating == nil {
			continue
		}
		pt := plotter.XY{X: float64(g.Generation), Y: g.Rating.Elo}
		all.XYs = append(all.XYs, pt)
		all.low = append(all.low, g.Rating.Elo-g.Rating.Low)
		all.high = append(all.high, g.Rating.High-g.Rating.Elo)
		ymin, ymax = math.Min(ymin, g.Rating.Low), math.Max(ymax, g.Rating.High)
		switch {
		case g.Gate == nil:
			start = append(start, pt)
		case g.Gate.Promoted:
			promoted = append(promoted, pt)
		default:
			rejected = append(rejected, pt)
		}
		if g.IsBest {
			best = append(best, pt)
		}
		if g.IsPoolBest {
			poolBest = append(poolBest, pt)
		}
	}
	if len(all.XYs) > 0 {
		line, err := plotter.NewLine(all.XYs)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = colGrey, vg.Points(1)
		bars, err := plotter.NewYErrorBars(all)
		if err != nil {
			return nil, err
		}
		bars.Color, bars.Width, bars.CapWidth = colBlue, vg.Points(1), vg.Points(6)
		p.Add(line, bars)
	}
	for _, a := range r.Anchors {
		ymin, ymax = math.Min(ymin, a.Elo), math.Max(ymax, a.Elo)
	}
	if len(r.Anchors) > 0 {
		for i, a := range r.Anchors {
			l, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: a.Elo}, {X: p.X.Max, Y: a.Elo}})
			if err != nil {
				return nil, err
			}
			l.Color = []color.Color{colPurple, colOrange, colGrey, colRed}[i%4]
			l.Width, l.Dashes = vg.Points(1.2), []vg.Length{vg.Points(5), vg.Points(3)}
			p.Add(l)
			p.Legend.Add(fmt.Sprintf("anchor %s (%s)", a.Name, eloText(a.Elo)), l)
		}
	}
	if err := glyphs(p, start, draw.CircleGlyph{}, colGrey, vg.Points(4), "generation 0"); err != nil {
		return nil, err
	}
	if err := glyphs(p, promoted, draw.CircleGlyph{}, colGreen, vg.Points(4), "promoted by its gate"); err != nil {
		return nil, err
	}
	if err := glyphs(p, rejected, draw.CrossGlyph{}, colRed, vg.Points(5), "rejected by its gate"); err != nil {
		return nil, err
	}
	if err := glyphs(p, best, draw.RingGlyph{}, colGold, vg.Points(8), "best by the gates"); err != nil {
		return nil, err
	}
	if err := glyphs(p, poolBest, draw.SquareGlyph{}, colBlue, vg.Points(6), "best by the pool"); err != nil {
		return nil, err
	}
	if !math.IsInf(ymin, 0) {
		pad := math.Max(10, (ymax-ymin)*0.1)
		p.Y.Min, p.Y.Max = ymin-pad, ymax+pad
	}
	n := len(r.Anchors)
	for _, xys := range []plotter.XYs{start, promoted, rejected, best, poolBest} {
		if len(xys) > 0 {
			n++
		}
	}
	legendRoom(p, n)
	return p, nil
}

// series adds a line with points of the generations that have a value.
func series(p *plot.Plot, xys plotter.XYs, c color.Color, shape draw.GlyphDrawer, dashed bool, legend string) error {
	if len(xys) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	l.Color, l.Width = c, vg.Points(1.5)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	s.Color, s.Shape, s.Radius = c, shape, vg.Points(3)
	p.Add(l, s)
	p.Legend.Add(legend, l, s)
	return nil
}

func (r *Report) lossPanel() (*plot.Plot, error) {
	p := r.newPanel("Log-loss of each generation's candidate", "log-loss (nats)")
	var trainL, own, fixed plotter.XYs
	for _, g := range r.Generations {
		x := float64(g.Generation)
		if v, ok := g.Train["train_logloss"]; ok {
			trainL = append(trainL, plotter.XY{X: x, Y: v})
		}
		if v, ok := g.Train["val_logloss"]; ok {
			own = append(own, plotter.XY{X: x, Y: v})
		}
		if g.FixedValLogLoss != nil {
			fixed = append(fixed, plotter.XY{X: x, Y: *g.FixedValLogLoss})
		}
	}
	if err := series(p, trainL, colBlue, draw.CircleGlyph{}, false, "training rows (the fit)"); err != nil {
		return nil, err
	}
	if err := series(p, own, colOrange, draw.TriangleGlyph{}, true, "held out of its own window (a new set each time)"); err != nil {
		return nil, err
	}
	if err := series(p, fixed, colGreen, draw.SquareGlyph{}, false, "fixed validation set (comparable)"); err != nil {
		return nil, err
	}
	n := 0
	for _, xys := range []plotter.XYs{trainL, own, fixed} {
		if len(xys) > 0 {
			n++
		}
	}
	padY(p, n)
	return p, nil
}

func (r *Report) lengthPanel() (*plot.Plot, error) {
	p := r.newPanel("Self-play game length (of each generation's best weights)", "turns a game (one side's)")
	var xys plotter.XYs
	for _, g := range r.Generations {
		if g.SelfPlay != nil {
			xys = append(xys, plotter.XY{X: float64(g.Generation), Y: g.SelfPlay.MeanTurns})
		}
	}
	if err := series(p, xys, colBlue, draw.CircleGlyph{}, false, "mean turns a game"); err != nil {
		return nil, err
	}
	p.Y.Min = 0
	padY(p, 1)
	return p, nil
}

func (r *Report) goldPanel() (*plot.Plot, error) {
	p := r.newPanel("Gold's share of the self-play wins", "share of decided games")
	half, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: 0.5}, {X: p.X.Max, Y: 0.5}})
	if err != nil {
		return nil, err
	}
	half.Color, half.Dashes = colGrey, []vg.Length{vg.Points(5), vg.Points(3)}
	p.Add(half)
	p.Legend.Add("even (0.5)", half)
	var xys plotter.XYs
	for _, g := range r.Generations {
		if g.SelfPlay != nil && g.SelfPlay.GoldWins+g.SelfPlay.SilverWins > 0 {
			xys = append(xys, plotter.XY{X: float64(g.Generation), Y: g.SelfPlay.GoldShare})
		}
	}
	if err := series(p, xys, colGold, draw.CircleGlyph{}, false, "Gold's share"); err != nil {
		return nil, err
	}
	p.Y.Min, p.Y.Max = 0, 1
	legendRoom(p, 2)
	p.Y.Tick.Marker = shareTicks{}
	return p, nil
}

// padY widens the y range of p around its data, with room for a legend of n
// entries.
func padY(p *plot.Plot, n int) {
	lo, hi := p.Y.Min, p.Y.Max
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || hi < lo {
		return
	}
	span := math.Max(hi-lo, math.Max(math.Abs(hi)*0.05, 1e-3))
	p.Y.Min = math.Max(0, lo-span*0.1)
	if lo == 0 {
		p.Y.Min = 0
	}
	p.Y.Max = hi + span*0.1
	legendRoom(p, n)
}

// legendRoom raises the top of the y axis so that a legend of n entries, in
// the top left corner, sits above the data: a share of the height for each.
func legendRoom(p *plot.Plot, n int) {
	f := min(0.6, 0.03+0.055*float64(n))
	lo, hi := p.Y.Min, p.Y.Max
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || hi <= lo {
		return
	}
	p.Y.Max = (hi - f*lo) / (1 - f)
}

// wholeTicks marks whole generations, about ten labels at most.
type wholeTicks struct{}

func (wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	a, b := math.Ceil(lo), math.Floor(hi)
	step := math.Max(1, math.Ceil((b-a+1)/10))
	var ts []plot.Tick
	for g := a + 0; g <= b; g++ {
		t := plot.Tick{Value: g}
		if math.Mod(g-a, step) == 0 {
			t.Label = fmt.Sprint(g)
		}
		ts = append(ts, t)
	}
	return ts
}

// shareTicks marks 0 to 1 by tenths, labelled by fifths.
type shareTicks struct{}

func (shareTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for i := 0; i <= 10; i++ {
		t := plot.Tick{Value: float64(i) / 10}
		if i%2 == 0 {
			t.Label = fmt.Sprintf("%.1f", t.Value)
		}
		ts = append(ts, t)
	}
	return ts
}
