// Package scaling measures how self-play and the search use the cores of a
// machine: self-play rows per second with 1, 2, 4, ... workers, and search
// simulations per second with 1, 2, 4, ... threads on an opening and a
// middlegame, each with its speed-up over one, and how many simulations a
// second one self-play worker makes beside the search alone. Each search is
// measured twice: by a new searcher, whose tree and thread state are
// allocated and mapped while it searches, and by the same searcher again,
// restarted with its memory kept, as the AEI engine searches move after move
// and self-play's workers game after game. Beside the one tree on N threads,
// N one-thread searches, each on a tree of its own, run apart at once: what
// the machine gives N searches that share nothing (its clock falls as more
// of its cores work), against which the shared tree's speed-up is read. The same games
// are played at every worker count, and the shards they write must be the
// same bytes: Run checks that too.
package scaling

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/selfplay"
	"github.com/arimaalab/arimaalab/weights"
)

// Position is a named position the search is measured on.
type Position struct {
	Name string
	Pos  engine.Position
}

// The default positions: the standard opening, and a middlegame of the
// clueless32 set (pieces exchanged, both sides' rabbits advanced).
const (
	OpeningAEI    = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]"
	MiddlegameAEI = "g [rr mr rrrcdc dr  h eE h                R H    H   D DCC RRR M RR]"
)

// DefaultPositions returns the opening and the middlegame.
func DefaultPositions() []Position {
	var ps []Position
	for _, p := range [][2]string{{"opening", OpeningAEI}, {"middlegame", MiddlegameAEI}} {
		pos, err := engine.ParsePosition(p[1])
		if err != nil {
			panic("scaling: bad built-in position: " + err.Error())
		}
		ps = append(ps, Position{p[0], pos})
	}
	return ps
}

// Options says what to measure.
type Options struct {
	// Cores is the most workers and threads measured (0: runtime.NumCPU()).
	Cores int
	// Games is the number of self-play games of each measurement (0: 12 per
	// core of Cores, at least 8).
	Games int
	// Visits is the number of simulations of each search (0: 200,000).
	Visits int
	// SelfPlay is the self-play config; its search settings, without root
	// noise and without the scan, are also the search's.
	SelfPlay selfplay.Config
	// Weights is the evaluation.
	Weights *weights.Weights
	// Seed seeds the self-play run and the searches.
	Seed uint64
	// Positions are searched (nil: DefaultPositions).
	Positions []Position
	// Dir holds the self-play shards while they are compared (empty: a
	// temporary directory, removed at the end).
	Dir string
	// Repeat is how many times each measurement is made (0: once); the
	// table gives the median run, and the rates of all of them.
	Repeat int
	// ProfileDir, when set, receives a CPU profile of each measurement
	// (selfplay-04w.pprof, opening-16t.pprof, opening-16t-new.pprof, ...).
	ProfileDir string
	// Progress, when set, receives a line after each measurement.
	Progress func(string)
}

// Measurement is one line of the table.
type Measurement struct {
	// What is "self-play rows/s" or "search simulations/s, POSITION".
	What string `json:"what"`
	// N is the number of workers or threads.
	N int `json:"n"`
	// Count is the rows or simulations done, in Seconds.
	Count   int64   `json:"count"`
	Seconds float64 `json:"seconds"`
	// Rate is Count per second, Speedup the rate over that of N = 1.
	Rate    float64 `json:"rate"`
	Speedup float64 `json:"speedup"`
	// TreeFull says that a full tree ended a search before its budget.
	TreeFull bool `json:"tree_full,omitempty"`
	// Faults is the minor page faults of the process during the
	// measurement (memory mapped on first touch), -1 where the system does
	// not say.
	Faults int64 `json:"minor_faults"`
	// CPU is where the N cores' time went.
	CPU CPU `json:"cpu"`
	// Rates holds the rate of every run when the measurement was repeated
	// (Options.Repeat); the measurement is the run of the median rate.
	Rates []float64 `json:"rates,omitempty"`
}

// median makes a measurement n times and returns the run of the median rate
// (the lower middle one of an even count) with the rates of all runs, and
// that run's index.
func median(n int, f func() (Measurement, error)) (Measurement, int, error) {
	n = max(n, 1)
	runs := make([]Measurement, 0, n)
	for range n {
		m, err := f()
		if err != nil {
			return Measurement{}, 0, err
		}
		if m.Seconds > 0 {
			m.Rate = float64(m.Count) / m.Seconds
		}
		runs = append(runs, m)
	}
	if n == 1 {
		return runs[0], 0, nil
	}
	order := make([]int, n)
	rates := make([]float64, n)
	for i := range runs {
		order[i], rates[i] = i, runs[i].Rate
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(runs[a].Rate, runs[b].Rate) })
	i := order[(n-1)/2]
	m := runs[i]
	m.Rates = rates
	return m, i, nil
}

// Report is what Run measured.
type Report struct {
	Cores      int    `json:"cores"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Platform   string `json:"platform"`
	Games      int    `json:"games"`
	Visits     int    `json:"visits"`
	// Repeat is how many times each measurement was made.
	Repeat int `json:"repeat"`
	// LoadBefore and LoadAfter are the machine's load averages over the
	// last minute before and after the measurements (-1 where unknown).
	LoadBefore float64 `json:"load_before"`
	LoadAfter  float64 `json:"load_after"`
	// Rows lists self-play first, then each position's search.
	Rows []Measurement `json:"rows"`
	// WorkerSims is the simulations per second of one self-play worker,
	// SearchSims the mean over the positions of the search's on one thread
	// (the searcher reused, as a self-play worker's is).
	WorkerSims float64 `json:"worker_simulations_per_second"`
	SearchSims float64 `json:"search_simulations_per_second"`
	// WorkerSearchSims is the simulations per second of that worker's
	// searches alone (their simulations over the time they took): the
	// search's own speed on the self-play config and positions, so that
	// WorkerSims over it is the share of the worker's time spent searching.
	WorkerSearchSims float64 `json:"worker_search_simulations_per_second"`
	// Trees compares, for each position at the most threads, the one
	// tree's simulations a second (the searcher reused) with as many
	// one-thread searches running apart at once: what the machine gives
	// that many searches that share nothing.
	Trees []TreeShare `json:"trees,omitempty"`
}

// TreeShare is the one tree's rate on N threads beside N one-thread
// searches apart, on one position.
type TreeShare struct {
	Position string  `json:"position"`
	N        int     `json:"n"`
	Tree     float64 `json:"tree"`
	Apart    float64 `json:"apart"`
	// ApartSpeedup is Apart over one search alone.
	ApartSpeedup float64 `json:"apart_speedup"`
}

// Counts returns 1, 2, 4, ... up to n, and n.
func Counts(n int) []int {
	var out []int
	for k := 1; k < n; k *= 2 {
		out = append(out, k)
	}
	return append(out, max(n, 1))
}

// Run measures self-play at each count of workers of Counts(Cores), then the
// search at each count of threads on each position: a new searcher, the
// same searcher again, and as many one-thread searches apart.
func Run(ctx context.Context, opt Options) (*Report, error) {
	if opt.Weights == nil {
		return nil, errors.New("scaling: no weights")
	}
	switch {
	case opt.Cores < 0:
		return nil, fmt.Errorf("scaling: cores %d: want at least 1 (0: one per core)", opt.Cores)
	case opt.Games < 0:
		return nil, fmt.Errorf("scaling: games %d: want at least 1", opt.Games)
	case opt.Visits < 0:
		return nil, fmt.Errorf("scaling: visits %d: want at least 1", opt.Visits)
	case opt.Repeat < 0:
		return nil, fmt.Errorf("scaling: repeat %d: want at least 1", opt.Repeat)
	}
	cores := opt.Cores
	if cores == 0 {
		cores = runtime.NumCPU()
	}
	games := opt.Games
	if games == 0 {
		games = max(8, 12*cores)
	}
	visits := opt.Visits
	if visits == 0 {
		visits = 200000
	}
	positions := opt.Positions
	if positions == nil {
		positions = DefaultPositions()
	}
	dir := opt.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "arimaalab-scaling-")
		if err != nil {
			return nil, fmt.Errorf("scaling: %w", err)
		}
		defer os.RemoveAll(d)
		dir = d
	}
	progress := opt.Progress
	if progress == nil {
		progress = func(string) {}
	}
	r := &Report{
		Cores: cores, GOMAXPROCS: runtime.GOMAXPROCS(0),
		Platform: runtime.GOOS + "/" + runtime.GOARCH + ", " + runtime.Version(),
		Games:    games, Visits: visits, Repeat: max(opt.Repeat, 1), LoadBefore: loadAverage(),
	}
	counts := Counts(cores)

	var first []byte
	for _, w := range counts {
		var sums []*selfplay.Summary
		m, i, err := median(opt.Repeat, func() (Measurement, error) {
			out := filepath.Join(dir, "workers-"+strconv.Itoa(w))
			stop, err := profile(opt.ProfileDir, fmt.Sprintf("selfplay-%02dw", w))
			if err != nil {
				return Measurement{}, err
			}
			u0 := readUsage()
			sum, err := selfplay.Run(ctx, opt.SelfPlay, selfplay.Options{Out: out, Seed: opt.Seed, Games: games, Shards: 1,
				Shard: -1, Workers: w, Weights: opt.Weights, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				stop()
				return Measurement{}, fmt.Errorf("scaling: self-play, %d workers: %w", w, err)
			}
			m := Measurement{What: "self-play rows/s", N: w, Count: sum.Rows, Seconds: sum.Elapsed.Seconds(), TreeFull: sum.TreeFull > 0}
			m.Faults, m.CPU = u0.since(w, m.Seconds)
			if err := stop(); err != nil {
				return Measurement{}, err
			}
			sums = append(sums, sum)
			// The same games whatever the workers: the same bytes.
			b, err := os.ReadFile(selfplay.ShardPath(out, 0))
			if err != nil {
				return Measurement{}, fmt.Errorf("scaling: %w", err)
			}
			if first == nil {
				first = b
			} else if !bytes.Equal(b, first) {
				return Measurement{}, fmt.Errorf("scaling: the shard of %d workers differs from that of %d: self-play is not reproducible across workers", w, counts[0])
			}
			if err := os.RemoveAll(out); err != nil {
				return Measurement{}, fmt.Errorf("scaling: %w", err)
			}
			return m, nil
		})
		if err != nil {
			return nil, err
		}
		if sum := sums[i]; w == 1 {
			r.WorkerSims = float64(sum.Simulations) / sum.Elapsed.Seconds()
			if sum.Searching > 0 {
				r.WorkerSearchSims = float64(sum.Simulations) / sum.Searching.Seconds()
			}
		}
		m = r.add(m)
		progress(fmt.Sprintf("self-play, %s: %s rows/s", plural(w, "worker"), thousands(m.Rate)))
	}

	ev, err := weights.NewLinear(opt.Weights)
	if err != nil {
		return nil, fmt.Errorf("scaling: %w", err)
	}
	cfg := opt.SelfPlay.Search
	cfg.Visits, cfg.Time = visits, 0
	cfg.DirichletAlpha, cfg.DirichletFraction, cfg.Temperature = 0, 0, 0
	cfg.Scan = mcts.ScanOff
	cfg.MaxNodes = 0 // the default tree, sized for the visits
	cfg.Seed = opt.Seed
	var one float64
	for _, p := range positions {
		// The one-thread searchers that search apart, warmed once: a
		// search each, all at once, maps their trees.
		apart := make([]*mcts.Searcher, counts[len(counts)-1])
		for i := range apart {
			c := cfg
			c.Threads = 1
			if apart[i], err = mcts.New(c, ev); err != nil {
				return nil, fmt.Errorf("scaling: %w", err)
			}
		}
		restartAll(apart, opt.Seed)
		if _, _, err := searchApart(ctx, apart, p.Pos); err != nil {
			return nil, fmt.Errorf("scaling: search of the %s: %w", p.Name, err)
		}
		for _, t := range counts {
			cfg.Threads = t
			// The new searcher first, then the same one restarted: the
			// same simulations in memory already mapped.
			var s *mcts.Searcher
			for _, reused := range []bool{false, true} {
				what := "search simulations/s, " + p.Name + ", new searcher"
				name := fmt.Sprintf("%s-%02dt-new", p.Name, t)
				if reused {
					what = "search simulations/s, " + p.Name
					name = strings.TrimSuffix(name, "-new")
				}
				m, _, err := median(opt.Repeat, func() (Measurement, error) {
					if reused {
						s.Restart(opt.Seed)
					} else {
						var err error
						if s, err = mcts.New(cfg, ev); err != nil {
							return Measurement{}, fmt.Errorf("scaling: %w", err)
						}
					}
					stop, err := profile(opt.ProfileDir, name)
					if err != nil {
						return Measurement{}, err
					}
					u0 := readUsage()
					res, err := s.Search(ctx, p.Pos, nil)
					if err != nil {
						stop()
						return Measurement{}, fmt.Errorf("scaling: search of the %s, %d threads: %w", p.Name, t, err)
					}
					m := Measurement{What: what, N: t, Count: res.Simulations, Seconds: res.Elapsed.Seconds(), TreeFull: res.TreeFull}
					m.Faults, m.CPU = u0.since(t, m.Seconds)
					return m, stop()
				})
				if err != nil {
					return nil, err
				}
				m = r.add(m)
				if t == 1 && reused {
					one += m.Rate
				}
				kind := "new searcher"
				if reused {
					kind = "searcher reused"
				}
				progress(fmt.Sprintf("search of the %s, %s, %s: %s simulations/s", p.Name, plural(t, "thread"), kind, thousands(m.Rate)))
			}
			m, _, err := median(opt.Repeat, func() (Measurement, error) {
				// Restarted before the measurement, as the reused
				// searcher is: clearing the trees is not the search's
				// work, and its CPU time would count in Busy.
				restartAll(apart[:t], opt.Seed)
				stop, err := profile(opt.ProfileDir, fmt.Sprintf("%s-%02dt-apart", p.Name, t))
				if err != nil {
					return Measurement{}, err
				}
				u0 := readUsage()
				sims, elapsed, err := searchApart(ctx, apart[:t], p.Pos)
				if err != nil {
					stop()
					return Measurement{}, fmt.Errorf("scaling: %d searches of the %s apart: %w", t, p.Name, err)
				}
				m := Measurement{What: "search simulations/s, " + p.Name + ", searches apart", N: t, Count: sims, Seconds: elapsed.Seconds()}
				m.Faults, m.CPU = u0.since(t, m.Seconds)
				return m, stop()
			})
			if err != nil {
				return nil, err
			}
			m = r.add(m)
			progress(fmt.Sprintf("search of the %s, %d one-thread searches apart: %s simulations/s", p.Name, t, thousands(m.Rate)))
		}
	}
	if len(positions) > 0 {
		r.SearchSims = one / float64(len(positions))
	}
	n := counts[len(counts)-1]
	for _, p := range positions {
		ts := TreeShare{Position: p.Name, N: n}
		for _, m := range r.Rows {
			switch {
			case m.N != n:
			case m.What == "search simulations/s, "+p.Name:
				ts.Tree = m.Rate
			case m.What == "search simulations/s, "+p.Name+", searches apart":
				ts.Apart, ts.ApartSpeedup = m.Rate, m.Speedup
			}
		}
		r.Trees = append(r.Trees, ts)
	}
	r.LoadAfter = loadAverage()
	return r, nil
}

// restartAll restarts each searcher of ss with seed.
func restartAll(ss []*mcts.Searcher, seed uint64) {
	for _, s := range ss {
		s.Restart(seed)
	}
}

// searchApart runs one search of pos on each searcher (restarted by the
// caller, outside what it measures), all at once, and returns their
// simulations together and the time from the start of the first to the end
// of the last.
func searchApart(ctx context.Context, ss []*mcts.Searcher, pos engine.Position) (int64, time.Duration, error) {
	sims := make([]int64, len(ss))
	errs := make([]error, len(ss))
	var wg sync.WaitGroup
	start := time.Now()
	for i, s := range ss {
		wg.Go(func() {
			res, err := s.Search(ctx, pos, nil)
			if err != nil {
				errs[i] = err
				return
			}
			sims[i] = res.Simulations
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	var total int64
	for _, n := range sims {
		total += n
	}
	return total, elapsed, errors.Join(errs...)
}

// add appends m with its rate and its speed-up over the row of the same kind
// with N = 1, and returns it.
func (r *Report) add(m Measurement) Measurement {
	if m.Seconds > 0 {
		m.Rate = float64(m.Count) / m.Seconds
	}
	m.Speedup = 1
	for _, o := range r.Rows {
		if o.What == m.What && o.N == 1 && o.Rate > 0 {
			m.Speedup = m.Rate / o.Rate
			break
		}
	}
	r.Rows = append(r.Rows, m)
	return m
}

// plural returns "1 worker" or "2 workers".
func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// Write prints the report: a line on the machine, a Markdown table with the
// speed-up column, the share of one self-play worker's simulations in
// the search's own, and each position's tree on the most threads beside as
// many searches apart.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "machine   %d cores (GOMAXPROCS %d), %s, load average %s before, %s after\n",
		r.Cores, r.GOMAXPROCS, r.Platform, formatLoad(r.LoadBefore), formatLoad(r.LoadAfter))
	fmt.Fprintf(&b, "work      self-play: %d games, one shard, the same bytes at every worker count; search: %d simulations a position, the self-play search settings without noise or scan\n",
		r.Games, r.Visits)
	if r.Repeat > 1 {
		fmt.Fprintf(&b, "runs      each measurement %d times: the median, and the lowest and highest rates\n", r.Repeat)
	}
	b.WriteString("\n")
	fmt.Fprintln(&b, "| what | workers or threads | per second | speed-up | minor page faults | cores busy | GCs | allocated MB/s | lock waits |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|---|---|---|")
	for _, m := range r.Rows {
		note := ""
		if m.TreeFull {
			note = " (tree full: ended early)"
		}
		faults := "unknown"
		if m.Faults >= 0 {
			faults = thousands(float64(m.Faults))
		}
		if len(m.Rates) > 1 {
			note = fmt.Sprintf(" (%s to %s)%s", thousands(slices.Min(m.Rates)), thousands(slices.Max(m.Rates)), note)
		}
		fmt.Fprintf(&b, "| %s | %d | %s%s | %.2fx | %s | %s | %d | %s | %s |\n", m.What, m.N, thousands(m.Rate), note, m.Speedup, faults,
			percent(m.CPU.Busy), m.CPU.GCs, thousands(m.CPU.AllocMBps), waits(m.CPU.MutexWait))
	}
	if r.SearchSims > 0 && r.WorkerSims > 0 {
		fmt.Fprintf(&b, "\none self-play worker: %s simulations/s, %.0f %% of the search's own on one thread (%s, the mean of the positions)\n",
			thousands(r.WorkerSims), 100*r.WorkerSims/r.SearchSims, thousands(r.SearchSims))
	}
	if r.WorkerSearchSims > 0 && r.WorkerSims > 0 {
		fmt.Fprintf(&b, "its searches alone: %s simulations/s (the self-play config and positions); %.0f %% of the worker's time is in them\n",
			thousands(r.WorkerSearchSims), 100*r.WorkerSims/r.WorkerSearchSims)
	}
	for _, ts := range r.Trees {
		if ts.N > 1 && ts.Apart > 0 {
			fmt.Fprintf(&b, "the %s on %d threads: one tree %s simulations/s, %.0f %% of %d one-thread searches apart at once (%s, %.2fx one alone)\n",
				ts.Position, ts.N, thousands(ts.Tree), 100*ts.Tree/ts.Apart, ts.N, thousands(ts.Apart), ts.ApartSpeedup)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// thousands formats x rounded, with commas between thousands.
func thousands(x float64) string {
	s := strconv.FormatInt(int64(x+0.5), 10)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// percent formats a share as a percentage, or "unknown".
func percent(x float64) string {
	if x < 0 {
		return "unknown"
	}
	return strconv.FormatFloat(100*x, 'f', 0, 64) + " %"
}

// waits formats seconds waited on locks, or "unknown".
func waits(s float64) string {
	if s < 0 {
		return "unknown"
	}
	return strconv.FormatFloat(s, 'f', 3, 64) + " s"
}

func formatLoad(x float64) string {
	if x < 0 {
		return "unknown"
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// loadAverage returns the load average over the last minute, or -1 where
// the system does not say (it is read from /proc/loadavg).
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	x, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return x
}
