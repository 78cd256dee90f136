package mcts

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/arimaalab/arimaalab/engine"
)

const (
	chunkBits = 14
	chunkSize = 1 << chunkBits
	// valueScale turns values into fixed point so that sums can be atomic integers.
	valueScale = 1 << 20
)

// arena hands out elements of T by index, in chunks made on demand, so that
// indices stay valid while it grows and the garbage collector sees few objects.
type arena[T any] struct {
	mu     sync.Mutex
	chunks []atomic.Pointer[[chunkSize]T] // read at every access
	limit  int64
	// next is written at every allocation: on a cache line of its own, so
	// that the threads' reads of chunks do not miss each time one of them
	// takes a block (on 16 cores the opening search spent a tenth of its
	// time reading the chunk table so).
	_    [64]byte
	next atomic.Int64
	_    [56]byte
}

func newArena[T any](limit int) *arena[T] {
	n := (limit + chunkSize - 1) / chunkSize
	return &arena[T]{chunks: make([]atomic.Pointer[[chunkSize]T], n), limit: int64(n) * chunkSize}
}

// alloc reserves n consecutive elements inside one chunk and returns the first
// index, or -1 when the arena is full. The elements may hold old values.
func (a *arena[T]) alloc(n int) int64 {
	for {
		cur := a.next.Load()
		start := cur
		if start>>chunkBits != (start+int64(n)-1)>>chunkBits {
			start = (start>>chunkBits + 1) << chunkBits
		}
		if start+int64(n) > a.limit {
			return -1
		}
		if a.next.CompareAndSwap(cur, start+int64(n)) {
			a.ensure(start >> chunkBits)
			return start
		}
	}
}

// ensure makes chunk c if it does not exist yet.
func (a *arena[T]) ensure(c int64) {
	if a.chunks[c].Load() != nil {
		return
	}
	a.mu.Lock()
	if a.chunks[c].Load() == nil {
		a.chunks[c].Store(new([chunkSize]T))
	}
	a.mu.Unlock()
}

func (a *arena[T]) at(i int64) *T { return &a.chunks[i>>chunkBits].Load()[i&(chunkSize-1)] }

// slice returns the n elements from i, which alloc placed inside one chunk.
func (a *arena[T]) slice(i int64, n int32) []T {
	off := i & (chunkSize - 1)
	return a.chunks[i>>chunkBits].Load()[off : off+int64(n)]
}

// used returns the number of elements handed out.
func (a *arena[T]) used() int64 { return a.next.Load() }

// stateKey identifies a node exactly: the board, the side to move, the state of
// the turn (steps used, push or pull in progress) and the board the turn started
// from. The start matters: whether ending the turn is allowed (the board must
// have changed) depends on it, for the node and for every node after it in the
// turn, so states of different turns are different nodes.
type stateKey struct {
	bits  [12]engine.Bitboard
	start [12]engine.Bitboard
	state uint32
	side  engine.Color
}

func keyOf(t *engine.Turn) (stateKey, uint64) {
	k := stateKey{bits: t.Pos.Bits, start: t.StartBits(), state: t.StateKey(), side: t.Pos.Side}
	s := t.StartHash()
	h := t.Pos.Hash ^ (s<<23 | s>>41) ^ (uint64(k.state)+1)*0x9E3779B97F4A7C15
	return k, h
}

// Node status values.
const (
	statusNew int32 = iota
	statusExpanding
	statusExpanded
)

// node is a state of the tree: a position within a turn. It fills one
// 64-byte cache line exactly (the 8-byte fields first, so that no padding
// falls between them): at 72 bytes, as it once was, most nodes spanned two
// lines.
type node struct {
	// counts holds the completed visits in its high 32 bits (the low 32 bits
	// are 0: virtual losses are kept on the edges alone, see selectEdge).
	counts atomic.Uint64
	wsum   atomic.Int64 // sum of backed-up values for the side to move, times valueScale
	edges  int64        // index of the first edge
	hash   uint64       // of the state; the state itself is in tree.keys
	status atomic.Int32
	proven atomic.Int32 // +1 a proven win for the side to move, -1 a proven loss
	nedges int32
	value  float32       // the evaluation at expansion
	mm     atomic.Uint32 // float32 bits: the implicit minimax value for the side to move (see backup)
	_      [12]byte
}

// visits returns the completed visits of n.
func (n *node) visits() int32 { return int32(n.counts.Load() >> 32) }

// q returns the mean value for the side to move, or def when unvisited.
func (n *node) q(def float32) float32 {
	return meanValue(n.visits(), n.wsum.Load(), def)
}

// meanValue returns the mean of v values summing to wsum (fixed point), or
// def when v is 0.
func meanValue(v int32, wsum int64, def float32) float32 {
	if v == 0 {
		return def
	}
	return float32(float64(wsum) / valueScale / float64(v))
}

// edge is an action of a node: a step, or ending the turn when step.Piece is NoPiece.
// It caches what selection needs of its child, so that choosing among the actions
// of a node reads its edges alone: the visits through the edge and the virtual
// losses on it, and the child's mean value (shared by every path that transposes
// into the child) as it stood when the edge was last taken.
//
// An edge takes 32 bytes, two to a cache line and never across two: the
// selection at a node reads all its edges, and on many threads each line
// another thread wrote since is a miss (at 40 bytes, five edges in eight
// straddled two lines).
type edge struct {
	step   engine.Step
	prior  float32
	child  atomic.Int32  // node index + 1, 0 until first taken (see maxTreeNodes)
	proven atomic.Int32  // +1 the child is a proven win for the side to move here, -1 a loss
	counts atomic.Uint64 // visits << 32 | virtual losses
	// qm holds two float32s' bits for the side to move here: the child's
	// mean value in the low 32 bits, its minimax value in the high 32. A
	// backup writes both with one atomic swap (see packQM).
	qm atomic.Uint64
}

// packQM packs a mean value q and a minimax value m into an edge's qm word.
func packQM(q, m float32) uint64 {
	return uint64(math.Float32bits(m))<<32 | uint64(math.Float32bits(q))
}

// q returns the child's mean value as the edge's last backup left it.
func (e *edge) q() float32 { return math.Float32frombits(uint32(e.qm.Load())) }

// m returns the child's minimax value as the edge's last backup left it.
func (e *edge) m() float32 { return math.Float32frombits(uint32(e.qm.Load() >> 32)) }

// maxTreeNodes bounds a tree's nodes (Config.MaxNodes): an edge keeps its
// child's index in 32 bits.
const maxTreeNodes = 1 << 30

func (e *edge) endsTurn() bool { return e.step.Piece == engine.NoPiece }

// childNode returns the index of the node e leads to, or -1 when e was
// never taken.
func (e *edge) childNode() int64 { return int64(e.child.Load()) - 1 }

// setChild makes c the node e leads to unless another thread did first,
// and returns the node e leads to.
func (e *edge) setChild(c int64) int64 {
	if e.child.CompareAndSwap(0, int32(c+1)) {
		return c
	}
	return e.childNode()
}

// tree is the shared search graph: nodes, edges and the transposition table.
type tree struct {
	nodes *arena[node]
	keys  *arena[stateKey] // the exact state of each node, read only by find
	edges *arena[edge]
	// slots is a lock-free open-addressing table of node index + 1, probed
	// linearly from the state's hash; it is never more than half full.
	slots []atomic.Int64
	mask  uint64
	// maxNodes is the size newTree was asked for.
	maxNodes int
}

func newTree(maxNodes int) *tree {
	nodes := newArena[node](maxNodes)
	// The arena rounds its capacity up to whole chunks: the slot table is sized
	// from that capacity, so that it stays at most half full and a probe always
	// meets an empty slot (sized from maxNodes, a small tree filled every slot
	// before the arena and the probe loop never ended).
	n := 1
	for int64(n) < 2*nodes.limit {
		n <<= 1
	}
	return &tree{
		nodes:    nodes,
		keys:     newArena[stateKey](maxNodes),
		edges:    newArena[edge](maxNodes * 16),
		slots:    make([]atomic.Int64, n),
		mask:     uint64(n - 1),
		maxNodes: maxNodes,
	}
}

func (t *tree) node(i int64) *node { return t.nodes.at(i) }

// block hands out indices of an arena from a range reserved for one thread, so
// that threads do not contend for the arena's counter on every node.
type block struct {
	next, end int64
}

// take returns n consecutive indices of a (from a block of at least size), or -1
// when the arena is full.
func take[T any](b *block, a *arena[T], n, size int) int64 {
	if b.end-b.next < int64(n) {
		first := a.alloc(max(n, size))
		if first < 0 {
			return -1
		}
		b.next, b.end = first, first+int64(max(n, size))
	}
	i := b.next
	b.next += int64(n)
	return i
}

// find returns the node of state k (hash h), creating it (from the block b)
// when absent; -1 when full.
func (t *tree) find(k *stateKey, h uint64, b *block) int64 {
	created := int64(-1)
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i].Load()
		if v == 0 {
			if created < 0 {
				created = t.newNode(k, h, b)
				if created < 0 {
					return -1
				}
			}
			if t.slots[i].CompareAndSwap(0, created+1) {
				return created
			}
			v = t.slots[i].Load() // another thread filled the slot first
		}
		n := t.node(v - 1)
		if n.hash == h && *t.keys.at(v - 1) == *k {
			// Found (a node made here and not published is simply never used).
			return v - 1
		}
	}
}

// lookup returns the node of state k (hash h), or -1 when the tree has none.
func (t *tree) lookup(k *stateKey, h uint64) int64 {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i].Load()
		if v == 0 {
			return -1
		}
		if n := t.node(v - 1); n.hash == h && *t.keys.at(v - 1) == *k {
			return v - 1
		}
	}
}

func (t *tree) newNode(k *stateKey, h uint64, b *block) int64 {
	i := take(b, t.nodes, 1, 64)
	if i < 0 {
		return -1
	}
	n := t.node(i)
	t.keys.ensure(i >> chunkBits) // keys are indexed like nodes
	*t.keys.at(i) = *k
	n.hash = h
	n.counts.Store(0)
	n.wsum.Store(0)
	n.proven.Store(0)
	n.edges, n.nedges, n.value = 0, 0, 0
	n.mm.Store(0)
	n.status.Store(statusNew)
	return i
}

// size returns the number of nodes.
func (t *tree) size() int64 { return t.nodes.used() }

// reset empties the tree and keeps its chunks: nodes and edges handed out
// again are initialized by newNode and expand, every field, as fresh ones
// are.
func (t *tree) reset() {
	t.nodes.next.Store(0)
	t.keys.next.Store(0)
	t.edges.next.Store(0)
	clear(t.slots)
}
