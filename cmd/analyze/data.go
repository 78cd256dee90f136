package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/progress"
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
		s := data.NewSummary(r)
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
			s.Add(c)
			bar.Add(int64(c.Len))
		}
		bar.Finish()
		out := newOutWriter(e.stdout, nil)
		printSummary(out, s)
		return out.flush()
	}
}

// printSummary writes the summary s.
func printSummary(w io.Writer, s *data.Summary) {
	games := len(s.Games)
	gold, silver, unfinished := s.Results()
	terms := s.Terminations()
	lengths := make([]int, 0, games)
	plies := 0
	for _, g := range s.Games {
		lengths = append(lengths, g.Length)
		plies += g.Length
	}
	fmt.Fprintf(w, "shards        %d\n", s.Shards)
	fmt.Fprintf(w, "rows          %d\n", s.Rows)
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
	fmt.Fprintf(w, "full search   %s of rows (%d)\n", pct64(s.FullSearch, s.Rows), s.FullSearch)
	if len(lengths) > 0 {
		fmt.Fprintln(w, "\ngame length (plies: moves after the setups)")
		histogram(w, lengths, 12, 40)
	}
	fmt.Fprintf(w, "\nfeature means (%s, %d features)\n", s.FeatureSet, len(s.FeatureNames))
	width := 0
	for _, n := range s.FeatureNames {
		width = max(width, len(n))
	}
	for k, n := range s.FeatureNames {
		mean := math.NaN()
		if s.Rows > 0 {
			mean = s.FeatureSums[k] / float64(s.Rows)
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
