package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// Searcher runs searches on one tree that it keeps between searches, so that the
// statistics of positions already met carry over to the next move.
// A Searcher runs one search at a time.
type Searcher struct {
	cfg      Config
	eval     Evaluator
	tree     *tree
	searches uint64
	// sized is set when the config left MaxNodes to its default: a search
	// whose budget of simulations needs a larger tree then gets one (see
	// treeNodes).
	sized bool
	// workers holds each thread's worker, kept between searches and games:
	// its goal cache (whose answers depend on the position alone), its
	// capture search with its table, and its buffers, so that a search
	// allocates none of them again.
	workers []*worker
	// gen generates moves for the root's checks and the result (the
	// repetition check, the fewest steps of the top moves).
	gen *engine.MoveGen
	// walk is the result's walk of the moves below the root.
	walk moveWalk
	// step is the step search (ScanStep), made on first use and kept for
	// its table.
	step *stepSearch
}

// goalCacheBits sizes each thread's goal cache: 16,384 positions, 1.7 MB.
const goalCacheBits = 14

// worker returns thread i's worker for the search sr, made on first use,
// with the state of any earlier search cleared.
func (s *Searcher) worker(i int, sr *search) *worker {
	for len(s.workers) <= i {
		s.workers = append(s.workers, nil)
	}
	w := s.workers[i]
	if w == nil {
		w = sr.newWorker()
		w.goal.cache = newGoalCache(goalCacheBits)
		s.workers[i] = w
	}
	w.sr, w.depth, w.nodeBlock, w.edgeBlock = sr, 0, block{}, block{}
	return w
}

// New returns a searcher with the settings cfg and the evaluation ev.
func New(cfg Config, ev Evaluator) (*Searcher, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if ev == nil {
		return nil, errors.New("mcts: no evaluator")
	}
	return &Searcher{cfg: c, eval: ev, sized: cfg.MaxNodes == 0, gen: engine.NewMoveGen()}, nil
}

// maxSizedNodes caps the tree that a budget of simulations sizes: some 60 GB
// when full.
const maxSizedNodes = 1 << 26

// treeNodes returns the nodes of a new tree for a search of budget
// simulations (math.MaxInt64 for a search bounded by time alone): MaxNodes,
// or with MaxNodes left to its default, enough for the budget (a simulation
// adds at most one node), up to maxSizedNodes. A search bounded by time alone
// cannot be sized; a full tree ends it, and its Result says so (TreeFull).
func (s *Searcher) treeNodes(budget int64) int {
	n := s.cfg.MaxNodes
	if s.sized && budget < math.MaxInt64 {
		n = max(n, int(min(budget, maxSizedNodes-1))+1)
	}
	return n
}

// keepTree reports whether the tree may take a search of budget simulations:
// it is less than half full, and with a size of its own (Searcher.sized) it
// has room for the budget too.
func (s *Searcher) keepTree(budget int64) bool {
	t := s.tree
	if t == nil || t.size() > int64(s.treeNodes(budget))/2 {
		return false
	}
	return !s.sized || budget == math.MaxInt64 || t.size()+min(budget, maxSizedNodes)+1 <= t.nodes.limit
}

// freshTree gives the searcher an empty tree for a search of budget
// simulations: its own tree emptied when that has the size the budget
// needs, so that its memory, already mapped, is written again instead of
// new memory being allocated, zeroed and mapped page by page as it fills;
// a new one otherwise.
func (s *Searcher) freshTree(budget int64) {
	n := s.treeNodes(budget)
	if s.tree != nil && s.tree.maxNodes == n {
		s.tree.reset()
		return
	}
	s.tree = newTree(n)
}

// Config returns the settings in use, defaults filled in.
func (s *Searcher) Config() Config { return s.cfg }

// Reset drops the tree.
func (s *Searcher) Reset() { s.tree = nil }

// Restart makes the searcher as New made it with the seed seed: the same
// searches follow, with the same work, but its tree, its threads' caches and
// the step search's table and cache, emptied, keep their memory, which a new
// game then fills again without allocating it (self-play plays many games
// one after another).
func (s *Searcher) Restart(seed uint64) {
	s.cfg.Seed = seed
	s.searches = 0
	if s.tree != nil {
		s.tree.reset()
	}
	// The workers' caches are emptied too, so that the searches that follow
	// do the work a new searcher's would (their answers are the same either
	// way).
	for _, w := range s.workers {
		if w != nil && w.goal.cache != nil {
			w.goal.cache.clear()
		}
	}
	if s.step != nil {
		s.step.clear()
	}
}

// ErrGameOver is returned when the side to move has no legal move.
var ErrGameOver = errors.New("mcts: no legal move: the game is over")

// search is the state of one search shared by its workers.
type search struct {
	s        *Searcher
	t        *tree
	root     int64
	rootTurn engine.Turn
	hist     *engine.History
	priors   []float32    // root priors with noise, or nil
	_        [64]byte     // keep the counters below off the cache line of the fields above
	sims     atomic.Int64 // simulations started
	done     atomic.Int64 // simulations finished
	_        [48]byte
	limit    int64
	deadline time.Time
	// scanDeadline ends the scan of a search bounded by time (see checkPick).
	scanDeadline time.Time
	full         atomic.Bool
	ctx          context.Context
	maxDepth     atomic.Int32
	rootEdges    int64
	// deepStats is what the deep scan did, when it ran (see deepPick).
	deepStats *DeepStats
	// stepResult is what the step search found, when it ran.
	stepResult *StepResult
}

// worker holds one thread's scratch space.
type worker struct {
	// Workers are allocated one after the other, and each writes its own
	// fields at every step of a descent: the padding at both ends keeps
	// two threads' workers off a shared cache line.
	_       [64]byte
	sr      *search
	path    []int64 // nodes of the descent
	edges   []int64 // edges of the descent: edges[i] leads from path[i] to path[i+1]
	ends    []engine.BoardKey
	steps   []engine.Step
	goal    *goalSearch
	capture *captureSearch
	defence *goalDefence // made when the deep scan first needs it
	// defenceLeft is how many states the goal defence may still search
	// (see goalWon): 0 in the tree, set by each deep scan.
	defenceLeft int
	prior       []float32
	features    []float32 // scratch space of the learned priors
	order       []int
	depth       int32 // the longest descent
	nodeBlock   block // node and edge indices reserved for this worker
	edgeBlock   block
	// rootTaken lists the root's edges this descent took, when it meets the
	// root again (see selectEdge).
	rootTaken []int64
	// rootVisits and rootWsum are this thread's visits of the root and
	// their values not yet added to the root's counters (see backup).
	rootVisits int64
	rootWsum   int64
	turn       engine.Turn // the state of the descent
	next       engine.Turn // endValue's next turn
	_          [64]byte
}

// Search searches from pos, the position at the start of a turn, and returns the
// move to play. hist is the game's history including pos (nil for none): moves
// that would make a third repetition are never chosen.
func (s *Searcher) Search(ctx context.Context, pos engine.Position, hist *engine.History) (*Result, error) {
	return s.SearchWith(ctx, pos, hist, Override{})
}

// Override changes settings for one search.
type Override struct {
	// Visits replaces Config.Visits when positive.
	Visits int
	// NoNoise leaves out the root Dirichlet noise.
	NoNoise bool
}

// deadlines returns when the tree search of a search begun at start ends
// and when its scan must end (zero times for no bound). The search is bounded
// by the time budget t (0 for none) and by ctxDeadline, the deadline of its
// context (AEI's time control; zero for none), whichever comes first. A scan
// (scan) gets the last share percent of that time (see scanShare), so that
// the tree search ends before the context does: a search ended by its
// context answers without a scan.
func deadlines(start time.Time, t time.Duration, ctxDeadline time.Time, scan bool, share int) (search, scanEnd time.Time) {
	end := ctxDeadline
	if t > 0 && (end.IsZero() || start.Add(t).Before(end)) {
		end = start.Add(t)
	}
	if end.IsZero() || !scan {
		return end, time.Time{}
	}
	// Divided first: AEI's budget of 2^62 ns would overflow.
	total := end.Sub(start)
	return start.Add(total / 100 * time.Duration(100-share)), end
}

// SearchWith is Search with some settings overridden for this search only, as
// self-play needs for playout-cap randomization (cheap searches without noise).
func (s *Searcher) SearchWith(ctx context.Context, pos engine.Position, hist *engine.History, o Override) (*Result, error) {
	start := time.Now()
	rootTurn := engine.NewTurn(pos)
	if out := engine.EndOfTurn(&pos, hist, s.gen); out.Over() {
		return nil, fmt.Errorf("%w (%s)", ErrGameOver, out)
	}
	s.searches++
	// A goal this turn needs no search.
	gs := newGoalSearch()
	if steps, ok := gs.find(&rootTurn); ok {
		return s.provenResult(pos, steps, start)
	}
	budget := int64(math.MaxInt64) // the simulations, as sr.limit below
	if s.cfg.Visits > 0 {
		budget = int64(s.cfg.Visits)
	}
	if o.Visits > 0 {
		budget = int64(o.Visits)
	}
	if !s.keepTree(budget) {
		s.freshTree(budget)
	}
	sr := &search{s: s, t: s.tree, rootTurn: rootTurn, hist: hist, ctx: ctx}
	k, h := keyOf(&rootTurn)
	var rootBlock block
	sr.root = sr.t.find(&k, h, &rootBlock)
	if sr.root < 0 {
		s.freshTree(budget)
		sr.t = s.tree
		sr.root = sr.t.find(&k, h, &rootBlock)
	}
	sr.limit = math.MaxInt64
	if s.cfg.Visits > 0 {
		sr.limit = int64(s.cfg.Visits)
	}
	if o.Visits > 0 {
		sr.limit = int64(o.Visits)
	}
	ctxDeadline, _ := ctx.Deadline()
	sr.deadline, sr.scanDeadline = deadlines(start, s.cfg.Time, ctxDeadline, sr.scans(), sr.scanShare())
	w0 := s.worker(0, sr)
	root := sr.t.node(sr.root)
	if root.status.Load() != statusExpanded {
		if !root.status.CompareAndSwap(statusNew, statusExpanding) {
			return nil, errors.New("mcts: root node busy")
		}
		w0.expand(root, &rootTurn)
	}
	if root.nedges == 0 {
		return nil, ErrGameOver
	}
	if s.cfg.DirichletAlpha > 0 && !o.NoNoise {
		sr.priors = s.noisyPriors(root)
	}
	var wg sync.WaitGroup
	for i := range s.cfg.Threads {
		w := w0
		if i > 0 {
			w = s.worker(i, sr)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run()
		}()
	}
	wg.Wait()
	root.mm.Store(staleMinimax)
	if err := ctx.Err(); err != nil && sr.sims.Load() == 0 {
		return nil, err
	}
	return sr.result(start)
}

func (sr *search) newWorker() *worker {
	return &worker{sr: sr, steps: make([]engine.Step, 0, 128), goal: newGoalSearch(), capture: newCaptureSearch()}
}

// run simulates until the budget is spent. Simulations are claimed from the
// shared budget a few at a time, so that the threads touch the shared counters
// rarely.
func (w *worker) run() {
	const chunk = 8
	sr := w.sr
	root := sr.t.node(sr.root)
	defer func() {
		w.flushRoot()
		for d := sr.maxDepth.Load(); w.depth > d && !sr.maxDepth.CompareAndSwap(d, w.depth); d = sr.maxDepth.Load() {
		}
	}()
	for {
		end := sr.sims.Add(chunk)
		n := min(chunk, sr.limit-(end-chunk))
		// The first chunk runs whatever the clock says: a search bounded by
		// time always searches a little, however slow its start was.
		late := end > chunk && !sr.deadline.IsZero() && time.Now().After(sr.deadline)
		if n <= 0 || sr.ctx.Err() != nil || late {
			return
		}
		for i := range n {
			if sr.full.Load() || root.proven.Load() != 0 {
				sr.done.Add(i)
				return
			}
			w.simulate()
		}
		sr.done.Add(n)
	}
}

// simulate runs one descent from the root, expands a leaf and backs its value up.
func (w *worker) simulate() {
	sr := w.sr
	t := sr.t
	vl := int32(sr.s.cfg.VirtualLoss)
	turn := &w.turn // in the worker, not on the heap at every descent
	*turn = sr.rootTurn
	w.path = append(w.path[:0], sr.root)
	w.edges = w.edges[:0]
	w.ends = w.ends[:0]
	id := sr.root
	var value float32
	for {
		n := t.node(id)
		if p := n.proven.Load(); p != 0 {
			value = float32(p)
			break
		}
		if st := n.status.Load(); st != statusExpanded {
			if n.status.CompareAndSwap(statusNew, statusExpanding) {
				value = w.expand(n, turn)
				break
			}
			for n.status.Load() != statusExpanded {
				runtime.Gosched()
			}
			if p := n.proven.Load(); p != 0 {
				value = float32(p)
				break
			}
		}
		ei := w.selectEdge(n, id == sr.root, turn)
		if ei < 0 {
			value = -1
			break
		}
		e := t.edges.at(ei)
		if id != sr.root {
			// No virtual loss on the root's edges: every thread takes one
			// of them at every simulation, and against their visits a few
			// losses steer nothing (the threads part below).
			e.counts.Add(uint64(vl))
		}
		w.edges = append(w.edges, ei)
		if e.endsTurn() {
			end := turn.End()
			w.ends = append(w.ends, end.Key())
			*turn = engine.NewTurn(end)
		} else {
			turn.Play(e.step)
		}
		child := e.childNode()
		if child < 0 {
			k, h := keyOf(turn)
			c := t.find(&k, h, &w.nodeBlock)
			if c < 0 {
				sr.full.Store(true)
				value = w.mean(n, id == sr.root)
				break
			}
			child = e.setChild(c)
		}
		id = child
		w.path = append(w.path, id)
	}
	w.depth = max(w.depth, int32(len(w.path)))
	w.backup(value, vl)
}

// backup adds value, for the side to move at the last node of the path, to every
// node of the path, flipping its sign where the side to move changes, and
// refreshes the cached child statistics of every edge taken.
func (w *worker) backup(value float32, vl int32) {
	t := w.sr.t
	// What the edge below the node being backed up held before this backup:
	// whether it counted in its parent's minimax value (it had a visit) and
	// its minimax value then, and what it holds now.
	var had bool
	var old, now float32
	last := len(w.path) - 1
	for i := last; i >= 0; i-- {
		n := t.node(w.path[i])
		if i == 0 {
			// Every descent ends at the root: its counters, updated by
			// every thread at every simulation, were the line the threads
			// fought over most. Each thread adds its visits there a few at
			// a time and counts the rest itself (see mean), so that one
			// thread sees what it did.
			w.rootVisits++
			w.rootWsum += int64(value * valueScale)
			if w.rootVisits == rootFlush {
				w.flushRoot()
			}
			break
		}
		n.wsum.Add(int64(value * valueScale))
		visits := n.counts.Add(1<<32) >> 32
		e := t.edges.at(w.edges[i-1])
		q := n.q(n.value)
		p := n.proven.Load()
		var m float32
		// The root's value is stale while it is the root (see
		// staleMinimax).
		if i == last || visits%minimaxRefresh == 0 || w.path[i] == w.sr.root {
			m = w.minimax(n, p)
		} else {
			m = w.minimaxAfter(n, p, had, old, now)
		}
		if e.endsTurn() {
			value, q, p, m = -value, -q, -p, -m
		}
		// The edge's visit first, then its two values in one swap: each is
		// an atomic write to a line other threads read, and the visits the
		// add returns tell whether the edge counted in the parent's minimax
		// value before.
		var ec uint64
		if w.path[i-1] == w.sr.root {
			ec = e.counts.Add(1 << 32)
		} else {
			ec = e.counts.Add(1<<32 - uint64(vl))
		}
		had = ec>>32 > 1
		old = math.Float32frombits(uint32(e.qm.Swap(packQM(q, m)) >> 32))
		now = m
		if p != 0 {
			e.proven.Store(p)
		}
	}
}

// rootFlush is how many visits of the root a thread keeps before it adds
// them to the root's counters.
const rootFlush = 8

// flushRoot adds the thread's visits of the root to the root's counters.
func (w *worker) flushRoot() {
	if w.rootVisits == 0 {
		return
	}
	root := w.sr.t.node(w.sr.root)
	root.wsum.Add(w.rootWsum)
	root.counts.Add(uint64(w.rootVisits) << 32)
	w.rootVisits, w.rootWsum = 0, 0
}

// stats returns the visits of n and the sum of their values, with this
// thread's visits not yet added to the counters when n is the root.
func (w *worker) stats(n *node, isRoot bool) (visits int32, wsum int64) {
	visits, wsum = n.visits(), n.wsum.Load()
	if isRoot {
		visits += int32(w.rootVisits)
		wsum += w.rootWsum
	}
	return visits, wsum
}

// mean returns the mean value of n for its side to move as stats counts
// it, or its value at expansion when it has no visits.
func (w *worker) mean(n *node, isRoot bool) float32 {
	v, sum := w.stats(n, isRoot)
	return meanValue(v, sum, n.value)
}

// minimaxRefresh is how often, in visits of a node, backup recomputes its
// minimax value from all its edges instead of from the one edge that
// changed: another thread's update between the read and the write of an
// incremental one can leave the value stale, and this bounds how long.
const minimaxRefresh = 32

// staleMinimax, a NaN no computation makes, marks the minimax value of a
// search's root once the search ends: descents end at the root, so its
// edges change without its value being refreshed. Within the search,
// backup recomputes the root's value whenever a descent meets it again (the
// same position turns later); in a later search on the kept tree, the mark
// sends it to the same recomputation.
const staleMinimax = 0x7fc0_dead

// minimax refreshes and returns the implicit minimax value of n: the best, for
// its side to move, of its own value at expansion and the minimax values of the
// children already visited (cached on the edges), or the proven value p. The
// value at expansion counts as one of the choices because the tactical leaf
// value is made of real choices: ending the turn, or a capture line first.
// Selection mixes this value into the mean of the simulations (Config.Minimax):
// the mean alone lets a move that hangs a piece look good for as long as the
// opponent's replies below it have not yet found the capture, while the
// minimax value sees at once the capture that the leaf value of the
// opponent's turn already found (Lanctot et al. 2014, implicit minimax
// backups).
func (w *worker) minimax(n *node, p int32) float32 {
	if p != 0 {
		n.mm.Store(math.Float32bits(float32(p)))
		return float32(p)
	}
	m := n.value
	for i := range n.nedges {
		e := w.sr.t.edges.at(n.edges + int64(i))
		if e.counts.Load()>>32 == 0 {
			continue
		}
		m = max(m, e.m())
	}
	n.mm.Store(math.Float32bits(m))
	return m
}

// minimaxAfter is minimax when one edge of n changed since n's value was
// last computed, from old (counted only if had) to now: the maximum of the
// others is the value kept unless the edge held it, so the edges are read
// again only when the one that held the maximum went down. On one thread it
// returns what minimax does, bit for bit (max orders -0 below +0, and so
// does the comparison of bits here); on many, a value changed meanwhile by
// another thread sends it to minimax.
func (w *worker) minimaxAfter(n *node, p int32, had bool, old, now float32) float32 {
	if p != 0 {
		return w.minimax(n, p)
	}
	bits := n.mm.Load()
	if bits == staleMinimax {
		return w.minimax(n, p)
	}
	cur := math.Float32frombits(bits)
	var m float32
	switch {
	case !had || math.Float32bits(old) != bits:
		m = max(cur, now) // the edge did not hold the maximum
	case math.Float32bits(max(cur, now)) == math.Float32bits(now):
		m = now // it held it and did not go down
	default:
		return w.minimax(n, p)
	}
	if mb := math.Float32bits(m); mb != bits && !n.mm.CompareAndSwap(bits, mb) {
		return w.minimax(n, p)
	}
	return m
}

// selectEdge picks the action of n by PUCT, or returns -1 when n has none left to
// try (all lose, or all would repeat a position a third time).
func (w *worker) selectEdge(n *node, isRoot bool, turn *engine.Turn) int64 {
	sr := w.sr
	t := sr.t
	cfg := &sr.s.cfg
	// The node's visits and this descent's virtual losses on it. Virtual
	// losses are kept on the edges alone, where they steer the threads apart:
	// each node's own counter, which every descent through it updated twice,
	// was the line the threads fought over most on many cores, and the other
	// threads' descents under way weigh nothing beside the visits here.
	nv, _ := w.stats(n, isRoot)
	times := w.onPath()
	nv += int32(cfg.VirtualLoss) * times
	// The root's edges carry no virtual losses: a descent that meets the
	// root again counts its own on the edges it took there, as the losses
	// of the other edges count them.
	w.rootTaken = w.rootTaken[:0]
	if isRoot && times > 1 {
		for k, id := range w.path[:len(w.path)-1] {
			if id == sr.root {
				w.rootTaken = append(w.rootTaken, w.edges[k])
			}
		}
	}
	sqrtN := float32(math.Sqrt(float64(max(nv, 1))))
	cu := cfg.CPuct * sqrtN
	fpu := w.mean(n, isRoot) - cfg.FPUReduction
	mix := cfg.Minimax
	edges := t.edges.slice(n.edges, n.nedges)
	var priors []float32
	if isRoot {
		priors = sr.priors
	}
	var excluded [4]int // turn ends excluded as repetitions
	nex := 0
	for {
		best := -1
		bestScore := float32(math.Inf(-1))
		allLost := true
	edgeLoop:
		for i := range edges {
			e := &edges[i]
			for _, x := range excluded[:nex] {
				if x == i {
					allLost = false
					continue edgeLoop
				}
			}
			prior := e.prior
			if priors != nil {
				prior = priors[i]
			}
			q := fpu
			var nc float32
			ec := e.counts.Load()
			ev, el := int32(ec>>32), int32(uint32(ec))
			for _, x := range w.rootTaken {
				if x == n.edges+int64(i) {
					el += int32(cfg.VirtualLoss)
				}
			}
			if ev+el == 0 && e.child.Load() == 0 && priors == nil {
				// The first unvisited edge: it beats every unvisited edge after it.
				allLost = false
				if score := fpu + cu*prior; score > bestScore {
					best = i
				}
				break
			}
			if p := e.proven.Load(); p != 0 {
				if p > 0 && (!e.endsTurn() || !w.repeats(turn)) {
					// A proven win for the side to move here.
					n.proven.Store(1)
					return n.edges + int64(i)
				}
				continue
			}
			if ev+el > 0 {
				qm := e.qm.Load()
				q = (math.Float32frombits(uint32(qm))*float32(ev) - float32(el)) / float32(ev+el)
				if ev > 0 && mix > 0 {
					q = (1-mix)*q + mix*math.Float32frombits(uint32(qm>>32))
				}
				nc = float32(ev + el)
			}
			allLost = false
			score := q + cu*prior/(1+nc)
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		if best < 0 {
			if allLost {
				n.proven.Store(-1)
			}
			return -1
		}
		if edges[best].endsTurn() && w.repeats(turn) {
			if nex == len(excluded) {
				return -1
			}
			excluded[nex] = best
			nex++
			continue
		}
		return n.edges + int64(best)
	}
}

// onPath returns how many times this descent has reached the node it is at
// (a position can come back within a descent, turns later), so that
// selection counts this descent's virtual losses on the node.
func (w *worker) onPath() int32 {
	id := w.path[len(w.path)-1]
	k := int32(0)
	for _, x := range w.path {
		if x == id {
			k++
		}
	}
	return k
}

// repeats reports whether ending the turn now would make a third repetition,
// counting the game's history and the turn ends of this descent.
func (w *worker) repeats(turn *engine.Turn) bool {
	end := turn.End()
	n := w.sr.hist.Count(&end)
	if n == 0 && len(w.ends) == 0 {
		return false
	}
	k := end.Key()
	for i := range w.ends {
		if w.ends[i] == k {
			n++
		}
	}
	return n >= 2
}

// expand creates the actions of n, whose state is turn, and returns its value.
func (w *worker) expand(n *node, turn *engine.Turn) float32 {
	sr := w.sr
	var value float32
	switch {
	case turn.Used == 0 && turn.AtStart() && w.gameOver(turn, &value):
		n.proven.Store(int32(value))
	case turn.Used == 0 && w.goal.reachable(turn):
		// Only turn starts are searched: a position inside a turn reaches the goal
		// only if the start of its turn (already searched, or it would be proven
		// and never expanded) does.
		value = 1
		n.proven.Store(1)
	default:
		w.steps = turn.LegalSteps(w.steps[:0])
		canEnd := turn.CanEnd() == nil
		count := len(w.steps)
		if canEnd {
			count++
		}
		if count == 0 {
			value = -1
			n.proven.Store(-1)
			break
		}
		first := take(&w.edgeBlock, sr.t.edges, count, 1024)
		if first < 0 {
			sr.full.Store(true)
			value = sr.s.eval.Evaluate(&turn.Pos)
			break
		}
		priors := w.priors(turn, canEnd)
		if canEnd {
			w.steps = append(w.steps, engine.Step{Piece: engine.NoPiece})
		}
		// Edges go in order of falling prior: an unvisited edge never scores above
		// an unvisited edge before it, so selection can stop at the first one.
		order := w.order[:0]
		for i := range count {
			// Insertion sort, stable: the lists are short and often nearly sorted.
			j := len(order)
			order = append(order, i)
			for j > 0 && priors[order[j-1]] < priors[i] {
				order[j] = order[j-1]
				j--
			}
			order[j] = i
		}
		w.order = order
		edges := sr.t.edges.slice(first, int32(count))
		for k, i := range order {
			// Plain writes: no other thread reads these edges before the
			// node's status publishes them below, and an atomic store
			// apiece (five an edge) cost a noticeable share of each
			// expansion.
			edges[k] = edge{step: w.steps[i], prior: priors[i]}
		}
		n.edges, n.nedges = first, int32(count)
		var proven bool
		if value, proven = w.leafValue(turn); proven {
			n.proven.Store(int32(value))
		}
	}
	n.value = value
	n.status.Store(statusExpanded)
	return value
}

// gameOver applies the end-of-game rules to a position at the start of a turn.
// Repetition (check 6) is left to the move choice, which never repeats a third time.
func (w *worker) gameOver(turn *engine.Turn, value *float32) bool {
	out := engine.EndOfTurn(&turn.Pos, nil, nil)
	if !out.Over() {
		return false
	}
	*value = -1
	if out.Winner == turn.Pos.Side {
		*value = 1
	}
	return true
}

// noisyPriors mixes Dirichlet noise into the root priors.
func (s *Searcher) noisyPriors(root *node) []float32 {
	rng := rand.New(rand.NewPCG(s.cfg.Seed, s.searches))
	k := int(root.nedges)
	noise := dirichlet(rng, k, float64(s.cfg.DirichletAlpha))
	out := make([]float32, k)
	f := s.cfg.DirichletFraction
	for i := range k {
		e := s.tree.edges.at(root.edges + int64(i))
		out[i] = (1-f)*e.prior + f*float32(noise[i])
	}
	return out
}
