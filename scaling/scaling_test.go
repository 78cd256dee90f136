package scaling

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/selfplay"
)

func TestCounts(t *testing.T) {
	tests := []struct {
		n    int
		want []int
	}{
		{0, []int{1}},
		{1, []int{1}},
		{2, []int{1, 2}},
		{3, []int{1, 2, 3}},
		{4, []int{1, 2, 4}},
		{6, []int{1, 2, 4, 6}},
		{16, []int{1, 2, 4, 8, 16}},
		{20, []int{1, 2, 4, 8, 16, 20}},
	}
	for _, tc := range tests {
		if got := Counts(tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("Counts(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

func TestThousands(t *testing.T) {
	for x, want := range map[float64]string{0: "0", 7.4: "7", 999.5: "1,000", 1234: "1,234", 123456: "123,456", 1234567.2: "1,234,567"} {
		if got := thousands(x); got != want {
			t.Errorf("thousands(%v) = %q, want %q", x, got, want)
		}
	}
}

// tinyConfig is the self-play config with searches small enough for a test.
func tinyConfig(t *testing.T) selfplay.Config {
	t.Helper()
	c, err := selfplay.DefaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	c.MaxTurns = 6
	c.Search.Visits = 24
	c.CheapVisits = 8
	c.Search.MaxNodes = 1 << 14
	return c
}

// TestRunTiny measures with a tiny budget: every row of the table is there
// in order with its counts, the speed-ups are over the row of one, and the
// written table shows them.
func TestRunTiny(t *testing.T) {
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	profiles := t.TempDir()
	r, err := Run(context.Background(), Options{Cores: 3, Games: 3, Visits: 300, SelfPlay: tinyConfig(t), Weights: w, Seed: 5,
		Dir: t.TempDir(), ProfileDir: profiles, Progress: func(s string) { lines = append(lines, s) }})
	if err != nil {
		t.Fatal(err)
	}
	var what []string
	for _, m := range r.Rows {
		what = append(what, fmt.Sprintf("%s %d", m.What, m.N))
	}
	want := []string{"self-play rows/s 1", "self-play rows/s 2", "self-play rows/s 3"}
	for _, p := range []string{"opening", "middlegame"} {
		for n := 1; n <= 3; n++ {
			want = append(want, fmt.Sprintf("search simulations/s, %s, new searcher %d", p, n), fmt.Sprintf("search simulations/s, %s %d", p, n),
				fmt.Sprintf("search simulations/s, %s, searches apart %d", p, n))
		}
	}
	if !slices.Equal(what, want) {
		t.Fatalf("rows %q, want %q", what, want)
	}
	for i, m := range r.Rows {
		switch {
		case i < 3 && m.Count != r.Rows[0].Count:
			t.Errorf("%s %d: %d rows, but %d with one worker: the same games give the same rows", m.What, m.N, m.Count, r.Rows[0].Count)
		case i < 3 && (m.Count < 3 || m.Count > 3*10):
			t.Errorf("%s %d: %d rows of 3 games of at most 10 plies", m.What, m.N, m.Count)
		case i >= 3 && !strings.HasSuffix(m.What, "apart") && m.Count != 300:
			t.Errorf("%s %d: %d simulations, want 300", m.What, m.N, m.Count)
		case strings.HasSuffix(m.What, "apart") && m.Count != 300*int64(m.N):
			t.Errorf("%s %d: %d simulations, want 300 a search", m.What, m.N, m.Count)
		case m.Seconds <= 0 || m.Rate != float64(m.Count)/m.Seconds:
			t.Errorf("%s %d: rate %v of %d in %v s", m.What, m.N, m.Rate, m.Count, m.Seconds)
		case m.TreeFull:
			t.Errorf("%s %d: tree full", m.What, m.N)
		}
		if m.Faults < 0 {
			t.Errorf("%s %d: page faults unknown", m.What, m.N)
		}
		// The process ran on no more than the cores there are (the
		// system counts CPU time in ticks: a short search can show none);
		// self-play allocates its records.
		if m.CPU.Busy < 0 || m.CPU.Busy*float64(m.N)*m.Seconds > float64(runtime.NumCPU())*m.Seconds+0.05 || (i < 3 && m.CPU.AllocMBps <= 0) || m.CPU.MutexWait < 0 {
			t.Errorf("%s %d: CPU %+v", m.What, m.N, m.CPU)
		}
		one := r.Rows[0]
		if i >= 3 {
			// The rows of a position go by threads: new searcher,
			// reused, apart.
			one = r.Rows[3+(i-3)/9*9+(i-3)%3]
		}
		if d := m.Speedup - m.Rate/one.Rate; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s %d: speed-up %v, want %v / %v", m.What, m.N, m.Speedup, m.Rate, one.Rate)
		}
	}
	if r.WorkerSims <= 0 || r.SearchSims != (r.Rows[4].Rate+r.Rows[13].Rate)/2 {
		t.Errorf("worker %v simulations/s, search %v (want the mean of the reused searchers' %v and %v)", r.WorkerSims, r.SearchSims, r.Rows[4].Rate, r.Rows[13].Rate)
	}
	// Each position's tree on 3 threads beside 3 searches apart.
	wantTrees := []TreeShare{
		{"opening", 3, r.Rows[10].Rate, r.Rows[11].Rate, r.Rows[11].Speedup},
		{"middlegame", 3, r.Rows[19].Rate, r.Rows[20].Rate, r.Rows[20].Speedup},
	}
	if !slices.Equal(r.Trees, wantTrees) {
		t.Errorf("trees %+v, want %+v", r.Trees, wantTrees)
	}
	// A worker's searches alone are at least as fast as the worker, whose
	// time holds them and the rest of its work.
	if r.WorkerSearchSims < r.WorkerSims {
		t.Errorf("the worker's searches alone make %v simulations/s, the worker %v", r.WorkerSearchSims, r.WorkerSims)
	}
	// A profile of each measurement, named for it.
	var names []string
	for _, n := range []int{1, 2, 3} {
		names = append(names, fmt.Sprintf("selfplay-%02dw.pprof", n))
		for _, p := range []string{"opening", "middlegame"} {
			names = append(names, fmt.Sprintf("%s-%02dt.pprof", p, n), fmt.Sprintf("%s-%02dt-new.pprof", p, n), fmt.Sprintf("%s-%02dt-apart.pprof", p, n))
		}
	}
	for _, name := range names {
		if fi, err := os.Stat(filepath.Join(profiles, name)); err != nil || fi.Size() == 0 {
			t.Errorf("profile %s: %v", name, err)
		}
	}
	if ents, _ := os.ReadDir(profiles); len(ents) != len(names) {
		t.Errorf("%d profiles, want %d", len(ents), len(names))
	}
	if len(lines) != len(r.Rows) || !strings.HasPrefix(lines[1], "self-play, 2 workers: ") || !strings.HasPrefix(lines[3], "search of the opening, 1 thread, new searcher: ") ||
		!strings.HasPrefix(lines[4], "search of the opening, 1 thread, searcher reused: ") {
		t.Errorf("progress lines %q", lines)
	}
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{
		"machine   3 cores (GOMAXPROCS ",
		"self-play: 3 games",
		"search: 300 simulations a position",
		"| what | workers or threads | per second | speed-up | minor page faults | cores busy | GCs | allocated MB/s | lock waits |\n|---|---|---|---|---|---|---|---|---|\n| self-play rows/s | 1 | ",
		" | 1.00x | " + thousands(float64(r.Rows[0].Faults)) + " | " + percent(r.Rows[0].CPU.Busy) + " | " + strconv.FormatUint(r.Rows[0].CPU.GCs, 10) + " | " + thousands(r.Rows[0].CPU.AllocMBps) + " | " + waits(r.Rows[0].CPU.MutexWait) + " |\n| self-play rows/s | 2 | ",
		fmt.Sprintf("| search simulations/s, middlegame | 3 | %s | %.2fx | %s | %s | %d | %s | %s |\n", thousands(r.Rows[19].Rate), r.Rows[19].Speedup, thousands(float64(r.Rows[19].Faults)),
			percent(r.Rows[19].CPU.Busy), r.Rows[19].CPU.GCs, thousands(r.Rows[19].CPU.AllocMBps), waits(r.Rows[19].CPU.MutexWait)),
		fmt.Sprintf("\nthe opening on 3 threads: one tree %s simulations/s, %.0f %% of 3 one-thread searches apart at once (%s, %.2fx one alone)\n",
			thousands(r.Rows[10].Rate), 100*r.Rows[10].Rate/r.Rows[11].Rate, thousands(r.Rows[11].Rate), r.Rows[11].Speedup),
		"\none self-play worker: " + thousands(r.WorkerSims) + " simulations/s, ",
		fmt.Sprintf("\nits searches alone: %s simulations/s (the self-play config and positions); %.0f %% of the worker's time is in them\n", thousands(r.WorkerSearchSims), 100*r.WorkerSims/r.WorkerSearchSims),
	} {
		if !strings.Contains(out, s) {
			t.Errorf("the table does not contain %q:\n%s", s, out)
		}
	}
}

func TestRunErrors(t *testing.T) {
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	bad := tinyConfig(t)
	bad.MaxTurns = 0
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		{"no weights", Options{SelfPlay: tinyConfig(t)}, "no weights"},
		{"cores", Options{Cores: -1, SelfPlay: tinyConfig(t), Weights: w}, "cores -1"},
		{"games", Options{Games: -2, SelfPlay: tinyConfig(t), Weights: w}, "games -2"},
		{"visits", Options{Visits: -3, SelfPlay: tinyConfig(t), Weights: w}, "visits -3"},
		{"config", Options{Cores: 1, Games: 1, SelfPlay: bad, Weights: w, Dir: t.TempDir()}, "max_turns 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestRunRepeat: each measurement is made Repeat times; its row is the run
// of the median rate, with every run's rate, and the table gives the range.
func TestRunRepeat(t *testing.T) {
	w, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Options{Cores: 2, Games: 2, Visits: 200, Repeat: 3, SelfPlay: tinyConfig(t), Weights: w, Seed: 5,
		Dir: t.TempDir(), Positions: DefaultPositions()[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if r.Repeat != 3 || len(r.Rows) != 2+6 {
		t.Fatalf("repeat %d, %d rows", r.Repeat, len(r.Rows))
	}
	for _, m := range r.Rows {
		if len(m.Rates) != 3 {
			t.Fatalf("%s %d: rates %v, want 3", m.What, m.N, m.Rates)
		}
		sorted := slices.Sorted(slices.Values(m.Rates))
		if m.Rate != sorted[1] || m.Rate != float64(m.Count)/m.Seconds {
			t.Errorf("%s %d: rate %v of %d in %v s, want the median of %v", m.What, m.N, m.Rate, m.Count, m.Seconds, m.Rates)
		}
	}
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	m := r.Rows[1]
	for _, s := range []string{
		"runs      each measurement 3 times: the median, and the lowest and highest rates\n",
		fmt.Sprintf("| self-play rows/s | 2 | %s (%s to %s) | ", thousands(m.Rate), thousands(slices.Min(m.Rates)), thousands(slices.Max(m.Rates))),
	} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("the table does not contain %q:\n%s", s, b.String())
		}
	}
	if _, err := Run(context.Background(), Options{Repeat: -1, Weights: w}); err == nil || !strings.Contains(err.Error(), "repeat -1") {
		t.Errorf("repeat -1: %v", err)
	}
}
