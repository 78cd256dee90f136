package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/arimaalab/arimaalab/progress"

	"github.com/arimaalab/arimaalab/data"
)

// dataVerb summarizes datasets of self-play shards.
func dataVerb(fs *flag.FlagSet) func(env, []string) error {
	return func(e env, args []string) error {
		if len(args) == 0 {
			return usageError("want at least one PATH (a shard, a directory or a glob)")
		}
		r, err := data.Open(args...)
		if err != nil {
			return err
		}
		defer r.Close()
		bar := progress.New(e.stderr, r.Rows(), "reading", false)
		var s dataSummary
		s.init(r)
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				bar.Finish()
				return err
			}
			c, err := data.ColumnsOf(rec)
			if err != nil {
				bar.Finish()
				return fmt.Errorf("%s: %w", r.Files()[r.File()], err)
			}
			s.add(c)
			bar.Add(int64(c.Len))
		}
		bar.Finish()
		out := newOutWriter(e.stdout, nil)
		s.print(out)
		return out.flush()
	}
}

// dataSummary gathers the figures of a dataset.
type dataSummary struct {
	shards      int
	featureSet  string
	names       []string
	rows        int64
	fullSearch  int64
	featureSums []float64
	games       map[uint64]*gameSummary
	order       []uint64 // game ids in the order first seen
}

// gameSummary is what the summary keeps of one game.
type gameSummary struct {
	rows        int
	length      int  // plies: its first row's ply (2g is 0) and plies_left
	winner      int8 // 0 gold, 1 silver, -1 none
	termination string
}

func (s *dataSummary) init(r *data.Reader) {
	s.shards = len(r.Files())
	m := r.Meta(0)
	s.featureSet = m.FeatureVersion
	s.names = m.FeatureNames
	s.featureSums = make([]float64, len(s.names))
	s.games = make(map[uint64]*gameSummary)
}

// add counts the rows of c.
func (s *dataSummary) add(c *data.Columns) {
	s.rows += int64(c.Len)
	f := c.NumFeatures
	for i := range c.Len {
		if c.FullSearch.Value(i) {
			s.fullSearch++
		}
		for k, v := range c.Features[i*f : (i+1)*f] {
			s.featureSums[k] += float64(v)
		}
		id := c.GameID[i]
		g := s.games[id]
		if g == nil {
			// A labelled shard (analyze label) holds some of a game's
			// plies: its length is where its first row stands and
			// plies_left, the rows of a self-play game.
			ply := 2*(int(c.Turn[i])-2) + int(c.Side[i])
			g = &gameSummary{winner: -1, termination: c.TerminationOf(i), length: ply + int(c.PliesLeft[i])}
			switch c.Result[i] {
			case 1:
				g.winner = int8(c.Side[i])
			case -1:
				g.winner = int8(1 - c.Side[i])
			}
			s.games[id] = g
			s.order = append(s.order, id)
		}
		g.rows++
	}
}

// print writes the summary.
func (s *dataSummary) print(w io.Writer) {
	games := len(s.games)
	var gold, silver, unfinished int
	terms := map[string]int{}
	lengths := make([]int, 0, games)
	plies := 0
	for _, id := range s.order {
		g := s.games[id]
		switch g.winner {
		case 0:
			gold++
		case 1:
			silver++
		default:
			unfinished++
		}
		terms[g.termination]++
		lengths = append(lengths, g.length)
		plies += g.length
	}
	fmt.Fprintf(w, "shards        %d\n", s.shards)
	fmt.Fprintf(w, "rows          %d\n", s.rows)
	fmt.Fprintf(w, "games         %d\n", games)
	if games > 0 {
		fmt.Fprintf(w, "plies/game    %.1f\n", float64(plies)/float64(games))
	}
	fmt.Fprintf(w, "results       gold wins %d (%s), silver wins %d (%s), unfinished %d (%s)\n",
		gold, pct(gold, games), silver, pct(silver, games), unfinished, pct(unfinished, games))
	var tl []string
	for _, t := range data.Terminations() {
		if n := terms[t]; n > 0 {
			tl = append(tl, fmt.Sprintf("%s %d", t, n))
		}
	}
	if len(tl) == 0 {
		tl = []string{"none"}
	}
	fmt.Fprintf(w, "terminations  %s\n", strings.Join(tl, ", "))
	fmt.Fprintf(w, "full search   %s of rows (%d)\n", pct64(s.fullSearch, s.rows), s.fullSearch)
	if len(lengths) > 0 {
		fmt.Fprintln(w, "\ngame length (plies: moves after the setups)")
		histogram(w, lengths, 12, 40)
	}
	fmt.Fprintf(w, "\nfeature means (%s, %d features)\n", s.featureSet, len(s.names))
	width := 0
	for _, n := range s.names {
		width = max(width, len(n))
	}
	for k, n := range s.names {
		mean := math.NaN()
		if s.rows > 0 {
			mean = s.featureSums[k] / float64(s.rows)
		}
		if math.Abs(mean) < 1e6 {
			fmt.Fprintf(w, "  %-*s  %10.4f\n", width, n, mean)
		} else {
			fmt.Fprintf(w, "  %-*s  %10.4g\n", width, n, mean)
		}
	}
}

// histogram writes a histogram of the values xs in at most nbins bins of a
// round width, with bars of at most barWidth characters.
func histogram(w io.Writer, xs []int, nbins, barWidth int) {
	lo, hi := slices.Min(xs), slices.Max(xs)
	width := niceWidth((hi - lo + nbins) / nbins)
	start := lo / width * width
	counts := make([]int, (hi-start)/width+1)
	for _, x := range xs {
		counts[(x-start)/width]++
	}
	top := slices.Max(counts)
	label := func(i int) string {
		a := start + i*width
		if width == 1 {
			return fmt.Sprint(a)
		}
		return fmt.Sprintf("%d-%d", a, a+width-1)
	}
	lw := len(label(len(counts) - 1))
	for i, n := range counts {
		bar := strings.Repeat("#", (n*barWidth+top-1)/top)
		fmt.Fprintf(w, "  %*s | %-*s %d\n", lw, label(i), barWidth, bar, n)
	}
}

// niceWidth returns the smallest of 1, 2, 5, 10, 20, 50, ... at least n.
func niceWidth(n int) int {
	for w := 1; ; w *= 10 {
		for _, m := range []int{1, 2, 5} {
			if w*m >= n {
				return w * m
			}
		}
	}
}

// pct formats n/total as a percentage.
func pct(n, total int) string { return pct64(int64(n), int64(total)) }

func pct64(n, total int64) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(total))
}
