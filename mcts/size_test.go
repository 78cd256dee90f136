package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/arimaalab/arimaalab/engine"
)

// TestLayout: a node fills one cache line and an edge half of one, so that
// neither spans two lines (the arenas' chunks start on a page).
func TestLayout(t *testing.T) {
	if n, e := unsafe.Sizeof(node{}), unsafe.Sizeof(edge{}); n != 64 || e != 32 {
		t.Errorf("a node takes %d bytes, an edge %d: want 64 and 32", n, e)
	}
	if _, err := New(Config{MaxNodes: maxTreeNodes + 1}, materialEval{}); err == nil || !strings.Contains(err.Error(), "max_nodes") {
		t.Errorf("max_nodes beyond %d: %v", maxTreeNodes, err)
	}
}

// TestPackQM: an edge's word gives back the mean and the minimax value it
// was written with, bit for bit, each from its own half (signed zeros and
// the extremes included).
func TestPackQM(t *testing.T) {
	tests := []struct{ q, m float32 }{
		{0, 0},
		{0.25, -0.75},
		{-1, 1},
		{float32(math.Copysign(0, -1)), 0},
		{0, float32(math.Copysign(0, -1))},
		{math.MaxFloat32, -math.SmallestNonzeroFloat32},
	}
	for _, tc := range tests {
		var e edge
		e.qm.Store(packQM(tc.q, tc.m))
		if q, m := e.q(), e.m(); math.Float32bits(q) != math.Float32bits(tc.q) || math.Float32bits(m) != math.Float32bits(tc.m) {
			t.Errorf("packQM(%v, %v): read back q %v, m %v", tc.q, tc.m, q, m)
		}
	}
}

// TestTreeSizedToBudget: a searcher that leaves MaxNodes to its default
// makes a tree large enough for a budget of simulations beyond the default
// tree (a simulation adds at most one node), and a new one when a reused
// tree has no room left for the budget; a MaxNodes that is set is kept, as
// is the default for small budgets and for searches bounded by time alone.
func TestTreeSizedToBudget(t *testing.T) {
	const def = 1 << 20
	tests := []struct {
		name     string
		maxNodes int
		budget   int64
		want     int
	}{
		{"default, small budget", 0, 800, def},
		{"default, budget of the default tree", 0, def - 1, def},
		{"default, budget beyond the default tree", 0, 3 << 20, 3<<20 + 1},
		{"default, time alone", 0, math.MaxInt64, def},
		{"default, beyond the cap", 0, 1 << 40, maxSizedNodes},
		{"set, budget beyond it", 1 << 14, 3 << 20, 1 << 14},
		{"set, small budget", 1 << 14, 100, 1 << 14},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(Config{MaxNodes: tc.maxNodes}, materialEval{})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.treeNodes(tc.budget); got != tc.want {
				t.Errorf("treeNodes(%d) = %d, want %d", tc.budget, got, tc.want)
			}
		})
	}

	// A real search of a budget beyond the default tree gets the tree (here
	// one cancelled before its first simulation, so that it costs nothing).
	p := mustPosition(t, "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		maxNodes, visits int
		want             int64
	}{{0, 3 << 20, 3<<20 + 1}, {0, 2000, def}, {1 << 15, 3 << 20, 1 << 15}} {
		s, err := New(Config{Visits: tc.visits, MaxNodes: tc.maxNodes}, materialEval{})
		if err != nil {
			t.Fatal(err)
		}
		if res, err := s.Search(ctx, p, nil); err != nil && !errors.Is(err, context.Canceled) || err == nil && res.Simulations != 0 {
			t.Fatalf("search cancelled before it started: %v", err)
		}
		if got := s.tree.nodes.limit; got < tc.want || got >= tc.want+chunkSize {
			t.Errorf("max_nodes %d, %d visits: a tree of %d nodes, want %d rounded up to whole chunks", tc.maxNodes, tc.visits, got, tc.want)
		}
	}

	// A reused tree without room for the next budget is replaced.
	s, err := New(Config{Visits: 5000}, materialEval{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Search(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	used := s.tree.size()
	if !s.keepTree(5000) {
		t.Errorf("a tree of %d nodes of %d not kept for 5,000 more simulations", used, s.tree.nodes.limit)
	}
	if s.keepTree(s.tree.nodes.limit - used) {
		t.Errorf("a tree of %d nodes of %d kept for %d more simulations", used, s.tree.nodes.limit, s.tree.nodes.limit-used)
	}
	if !s.keepTree(math.MaxInt64) {
		t.Errorf("a tree of %d nodes of %d not kept for a search bounded by time", used, s.tree.nodes.limit)
	}
}

// TestLargeBudgetNotCut searches a budget beyond the default tree (1,048,576
// nodes) with the default MaxNodes: it runs every simulation and the tree
// is not full. Some seconds and about a gigabyte: skipped with -short.
func TestLargeBudgetNotCut(t *testing.T) {
	if testing.Short() {
		t.Skip("1.1 M simulations")
	}
	p := mustPosition(t, "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]")
	const visits = 1<<20 + 50000
	s, err := New(Config{Visits: visits, Leaf: LeafStatic, Scan: ScanOff, Threads: 2, Seed: 1}, materialEval{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Search(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.TreeFull || res.Simulations != visits {
		t.Errorf("%d of %d simulations, %d nodes, tree full %v", res.Simulations, visits, res.Nodes, res.TreeFull)
	}
}

// TestRestartIsNew: a searcher restarted with a seed, its tree and caches
// emptied but their memory kept from other searches, searches a game exactly
// as a new searcher with that seed does, with nothing cached in advance
// (self-play restarts one per game).
func TestRestartIsNew(t *testing.T) {
	tree := Config{Visits: 300, Seed: 11, DirichletAlpha: 0.3, Minimax: 0.5, MaxNodes: 1 << 14}
	step := tree
	step.Scan = ScanStep
	for _, c := range []struct {
		name string
		cfg  Config
	}{{"tree", tree}, {"step search", step}} {
		t.Run(c.name, func(t *testing.T) { testRestartIsNew(t, c.cfg) })
	}
}

// testRestartIsNew is TestRestartIsNew with the configuration cfg.
func testRestartIsNew(t *testing.T, cfg Config) {
	game := func(s *Searcher) []string {
		var out []string
		g := engine.NewGame()
		for c := range engine.Color(2) {
			if err := g.PlaySetup(standardSetup[c]); err != nil {
				t.Fatal(err)
			}
		}
		for range 6 {
			res, err := s.SearchWith(context.Background(), g.Position(), g.History(), Override{Visits: 120 + 60*len(out)%200, NoNoise: len(out)%3 == 1})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s %v %d %d %d %v", res.Move, res.Value, res.Visits, res.Simulations, res.Nodes, res.Top))
			if err := g.Play(res.Move); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	want := game(newTestSearcher(t, cfg))
	other := cfg
	other.Seed = 5
	s := newTestSearcher(t, other)
	game(s) // fills the tree and the caches with another game
	cached := func() int {
		n := 0
		for _, w := range s.workers {
			for _, st := range w.goal.cache.state {
				if st != 0 {
					n++
				}
			}
		}
		if ss := s.step; ss != nil {
			for i := range ss.tt {
				if ss.tt[i].valid {
					n++
				}
			}
			for i := range ss.cache {
				if ss.cache[i].valid {
					n++
				}
			}
		}
		return n
	}
	if cached() == 0 {
		t.Fatal("a game left nothing in the goal caches")
	}
	if cfg.Scan == ScanStep && s.step == nil {
		t.Fatal("a game with scan=step ran no step search")
	}
	s.Restart(cfg.Seed)
	// The same work as a new searcher's: nothing known in advance.
	if n := cached(); n != 0 {
		t.Errorf("%d positions still cached after Restart", n)
	}
	if got := game(s); !slices.Equal(got, want) {
		t.Errorf("restarted searcher:\n%s\nnew searcher:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFreshTreeReusesMemory checks that a search whose kept tree is too full
// empties that tree rather than making a new one when the size is the same,
// and that it finds what a new tree finds.
func TestFreshTreeReusesMemory(t *testing.T) {
	cfg := Config{Visits: 1500, Seed: 3, Minimax: 0.5, MaxNodes: 2048}
	first := mustPosition(t, "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]")
	second := mustPosition(t, "g [rr mr rrrcdc dr  h eE h                R H    H   D DCC RRR M RR]")
	run := func(drop bool) (string, *tree, *tree) {
		s := newTestSearcher(t, cfg)
		if _, err := s.Search(context.Background(), first, nil); err != nil {
			t.Fatal(err)
		}
		before := s.tree
		if before.size() <= int64(cfg.MaxNodes)/2 {
			t.Fatalf("the first search left %d nodes: not enough to need a fresh tree", before.size())
		}
		if drop {
			s.Reset()
		}
		res, err := s.Search(context.Background(), second, nil)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%s %v %d %d %d %v", res.Move, res.Value, res.Visits, res.Simulations, res.Nodes, res.Top), before, s.tree
	}
	got, before, after := run(false)
	if before != after {
		t.Error("the full tree was replaced by a new one of the same size, not emptied")
	}
	if want, _, _ := run(true); got != want {
		t.Errorf("emptied tree:\n%s\nnew tree:\n%s", got, want)
	}
}
