package engine

// MoveGen generates full-turn moves: every distinct position a side can reach in
// one turn of 1 to 4 steps, each once, excluding the unchanged position.
//
// It searches breadth first by steps used, pushes and pulls taken as two-step
// actions, and keeps every position it meets in a hash table checked exactly
// (hash, then the full board), so a position is expanded only from the fewest steps
// that reach it and counted once. A MoveGen keeps its buffers between calls:
// after the first few calls it allocates nothing. It is not safe for concurrent use.
type MoveGen struct {
	nodes   []genNode
	table   []genSlot
	mask    uint64
	stamp   uint32
	results []int32
	root    Color
}


type genNode struct {
	pos    Position
	parent int32
	depth  int8
	a, b   Step // b.Piece == NoPiece for a single step
}

type genSlot struct {
	hash  uint64
	idx   int32
	stamp uint32
}

// NewMoveGen returns a generator with room for typical positions.
func NewMoveGen() *MoveGen {
	g := &MoveGen{}
	g.resize(1 << 14)
	return g
}

func (g *MoveGen) resize(n int) {
	g.table = make([]genSlot, n)
	g.mask = uint64(n - 1)
	g.stamp = 1
	for i := range g.nodes {
		g.place(g.nodes[i].pos.Hash, int32(i))
	}
}

// place puts node idx in the table, knowing it is absent.
func (g *MoveGen) place(h uint64, idx int32) {
	for i := h & g.mask; ; i = (i + 1) & g.mask {
		s := &g.table[i]
		if s.stamp != g.stamp {
			*s = genSlot{h, idx, g.stamp}
			return
		}
	}
}

// add records pos reached from parent by the action (a, b) unless already known.
func (g *MoveGen) add(pos *Position, parent int32, depth int8, a, b Step) {
	h := pos.Hash
	i := h & g.mask
	for {
		s := &g.table[i]
		if s.stamp != g.stamp {
			break
		}
		if s.hash == h && g.nodes[s.idx].pos.Bits == pos.Bits {
			return
		}
		i = (i + 1) & g.mask
	}
	idx := int32(len(g.nodes))
	g.table[i] = genSlot{h, idx, g.stamp}
	g.nodes = append(g.nodes, genNode{*pos, parent, depth, a, b})
	if len(g.nodes)*2 > len(g.table) {
		g.resize(len(g.table) * 2)
	}
}

// Generate finds the moves of p.Side from p and returns how many there are. With a
// non-nil history, moves that would make a third repetition are left out.
// The moves are read with Position and Steps until the next call.
func (g *MoveGen) Generate(p *Position, h *History) int {
	g.stamp++
	if g.stamp == 0 {
		clear(g.table)
		g.stamp = 1
	}
	g.nodes = g.nodes[:0]
	g.root = p.Side
	none := Step{Piece: NoPiece}
	g.add(p, -1, 0, none, none)
	var start [MaxSteps + 2]int
	start[1] = 1
	for d := 1; d <= MaxSteps; d++ {
		// Single steps from the layer before.
		for i := start[d-1]; i < start[d]; i++ {
			g.expandSteps(int32(i), int8(d))
		}
		if d >= 2 {
			for i := start[d-2]; i < start[d-1]; i++ {
				g.expandPushPull(int32(i), int8(d))
			}
		}
		start[d+1] = len(g.nodes)
	}
	g.results = g.results[:0]
	if h != nil && h.hot() {
		for i := 1; i < len(g.nodes); i++ {
			q := g.nodes[i].pos
			q.SetSide(q.Side.Other())
			if h.Count(&q) < 2 {
				g.results = append(g.results, int32(i))
			}
		}
	} else {
		for i := 1; i < len(g.nodes); i++ {
			g.results = append(g.results, int32(i))
		}
	}
	return len(g.results)
}

// Len returns the number of moves of the last Generate.
func (g *MoveGen) Len() int { return len(g.results) }

// Position returns the position after move i, with the opponent to move.
func (g *MoveGen) Position(i int) Position {
	q := g.nodes[g.results[i]].pos
	q.SetSide(q.Side.Other())
	return q
}

// Steps appends to buf one step sequence that plays move i.
func (g *MoveGen) Steps(i int, buf []Step) []Step {
	var rev [MaxSteps]Step
	n := 0
	for j := g.results[i]; j > 0; j = g.nodes[j].parent {
		nd := &g.nodes[j]
		if nd.b.Piece != NoPiece {
			rev[n] = nd.b
			n++
		}
		rev[n] = nd.a
		n++
	}
	for n > 0 {
		n--
		buf = append(buf, rev[n])
	}
	return buf
}

func (g *MoveGen) expandSteps(i int32, depth int8) {
	p := g.nodes[i].pos
	c := p.Side
	empty := p.Empty()
	frozen := p.Frozen(c)
	ob := int(c) * NumTypes
	none := Step{Piece: NoPiece}
	// Rabbits: no backward step.
	rb := Piece(ob)
	rabbits := p.Bits[rb] &^ frozen
	back := South
	if c == Silver {
		back = North
	}
	for d := North; d <= West; d++ {
		if d == back {
			continue
		}
		for b := rabbits & empty.Shift(d.Opposite()); b != 0; b &= b - 1 {
			from := b.First()
			q := p
			q.move(rb, from, from+d.Delta())
			g.add(&q, i, depth, Step{rb, from, d}, none)
		}
	}
	for pt := Cat; pt < NumTypes; pt++ {
		pc := Piece(ob + int(pt))
		movers := p.Bits[pc] &^ frozen
		if movers == 0 {
			continue
		}
		for d := North; d <= West; d++ {
			for b := movers & empty.Shift(d.Opposite()); b != 0; b &= b - 1 {
				from := b.First()
				q := p
				q.move(pc, from, from+d.Delta())
				g.add(&q, i, depth, Step{pc, from, d}, none)
			}
		}
	}
}

func (g *MoveGen) expandPushPull(i int32, depth int8) {
	p := g.nodes[i].pos
	c := p.Side
	e := c.Other()
	empty := p.Empty()
	frozen := p.Frozen(c)
	active := p.Occ[c] &^ frozen
	ob := int(c) * NumTypes
	eb := int(e) * NumTypes
	// Our pieces able to push or pull at all: active non-rabbits beside a weaker enemy.
	for pt := Cat; pt < NumTypes; pt++ {
		pc := Piece(ob + int(pt))
		movers := p.Bits[pc] & active
		if movers == 0 {
			continue
		}
		var weaker Bitboard
		for vt := range pt {
			weaker |= p.Bits[eb+int(vt)]
		}
		movers &= weaker.Neighbors()
		for ; movers != 0; movers &= movers - 1 {
			from := movers.First()
			victims := weaker & neighbors[from]
			for vb := victims; vb != 0; vb &= vb - 1 {
				vsq := vb.First()
				vpc := p.At(vsq)
				// Pushes: the victim steps to an empty square beside it, the pusher follows.
				for db := neighbors[vsq] & empty; db != 0; db &= db - 1 {
					to := db.First()
					q := p
					q.move(vpc, vsq, to)
					q.move(pc, from, vsq)
					g.add(&q, i, depth, Step{vpc, vsq, dirBetween(vsq, to)}, Step{pc, from, dirBetween(from, vsq)})
				}
				// Pulls: the puller steps to an empty square, the victim follows into from.
				for db := neighbors[from] & empty; db != 0; db &= db - 1 {
					to := db.First()
					q := p
					q.move(pc, from, to)
					q.move(vpc, vsq, from)
					g.add(&q, i, depth, Step{pc, from, dirBetween(from, to)}, Step{vpc, vsq, dirBetween(vsq, from)})
				}
			}
		}
	}
}

// GeneratedMove is one full-turn move: a step sequence and the position it leads to.
type GeneratedMove struct {
	Steps []Step
	Pos   Position
}

// GenMoves returns every legal move of p.Side from p, each distinct resulting position
// once; with a non-nil history, moves making a third repetition are left out.
// It allocates; for repeated use keep a MoveGen.
func GenMoves(p Position, h *History) []GeneratedMove {
	g := NewMoveGen()
	n := g.Generate(&p, h)
	out := make([]GeneratedMove, n)
	for i := range n {
		out[i] = GeneratedMove{g.Steps(i, nil), g.Position(i)}
	}
	return out
}
