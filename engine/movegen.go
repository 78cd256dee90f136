package engine

// MoveGen generates full-turn moves: every distinct position a side can reach in
// one turn of 1 to 4 steps, each once, excluding the unchanged position.
//
// It searches breadth first by steps used, pushes and pulls taken as two-step
// actions, and keeps every position it meets in a hash table under a signature
// that is exact for positions within one turn of each other (see bch.go), so a
// position is expanded only from the fewest steps that reach it and counted once.
// Steps that commute with the step before them are tried in one order only (see
// skipMask). A MoveGen keeps its buffers between calls: once they have grown to
// the largest position met, it allocates nothing. It is not safe for concurrent use.
type MoveGen struct {
	nodes   []genNode
	pos     []Position // positions of the nodes that get expanded (fewer steps than limit)
	sigs    []sig      // their signatures
	table   []sig      // open addressing with linear probing, len a power of two
	stamp   uint64     // in the top byte of hi; slots of other stamps are empty
	results []int32
	cand    []genCand // children of the node being expanded, added together
	sink    uint64
	limit   int8 // the most steps of the moves of the current Generate
}

// genCand is a child position waiting to be added: its signature and the action
// that reaches it from the node being expanded.
type genCand struct {
	sig  sig
	a, b Step
}

type genNode struct {
	parent int32
	a, b   Step // b.Piece == NoPiece for a single step
	depth  int8
}

const (
	minTable   = 1 << 12
	stampShift = 56
	sigHiMask  = 1<<stampShift - 1
)

// NewMoveGen returns a generator.
func NewMoveGen() *MoveGen { return &MoveGen{} }

// reset empties the table by moving to a new stamp.
func (g *MoveGen) reset() {
	if len(g.table) < minTable {
		g.table = make([]sig, minTable)
	}
	g.stamp++
	if g.stamp == 1<<8 {
		clear(g.table)
		g.stamp = 1
	}
}

// grow doubles the table and moves the live entries into it.
func (g *MoveGen) grow() {
	old := g.table
	nt := make([]sig, 2*len(old))
	mask := uint64(len(nt) - 1)
	for _, s := range old {
		if s.hi>>stampShift != g.stamp {
			continue
		}
		j := s.lo & mask
		for nt[j].hi>>stampShift == g.stamp {
			j = (j + 1) & mask
		}
		nt[j] = s
	}
	g.table = nt
}

// add records the child c of node parent unless its position is already known.
func (g *MoveGen) add(c *genCand, parent int32, depth int8) {
	tab := g.table
	mask := uint64(len(tab) - 1)
	want := sig{c.sig.lo, c.sig.hi | g.stamp<<stampShift}
	i := want.lo & mask
	for {
		t := tab[i]
		if t == want {
			return
		}
		if t.hi>>stampShift != g.stamp {
			break
		}
		i = (i + 1) & mask
	}
	tab[i] = want
	g.nodes = append(g.nodes, genNode{parent, c.a, c.b, depth})
	if depth < g.limit {
		q := g.pos[parent]
		q.move(c.a.Piece, c.a.From, c.a.To())
		if c.b.Piece != NoPiece {
			q.move(c.b.Piece, c.b.From, c.b.To())
		}
		g.pos = append(g.pos, q)
		g.sigs = append(g.sigs, c.sig)
	}
}

// flush adds the waiting children of parent. It first reads the table slot of
// every child, so that their cache misses overlap instead of coming one by one.
func (g *MoveGen) flush(parent int32, depth int8) {
	for (len(g.nodes)+len(g.cand))*2 > len(g.table) {
		g.grow()
	}
	tab := g.table
	mask := uint64(len(tab) - 1)
	var sink uint64
	for k := range g.cand {
		sink += tab[g.cand[k].sig.lo&mask].hi
	}
	g.sink += sink
	for k := range g.cand {
		g.add(&g.cand[k], parent, depth)
	}
	g.cand = g.cand[:0]
}

// pushStep queues the child of p (whose signature is ps) reached by the single
// step of pc from from in direction d, computing its signature without copying p.
func (g *MoveGen) pushStep(p *Position, ps sig, pc Piece, from Square, d Dir) {
	to := from + d.Delta()
	ft := from.Bit() | to.Bit()
	c := pc.Color()
	s := ps.xor(bchKeys[pc][from]).xor(bchKeys[pc][to])
	if ft&trapZone != 0 {
		own := p.Occ[c] ^ ft
		if t := own & Traps & (neighbors[from] | to.Bit()) &^ own.Neighbors(); t != 0 {
			sq := t.First()
			cp := pc
			if t != to.Bit() {
				cp = p.At(sq)
			}
			s = s.xor(bchKeys[cp][sq])
		}
	}
	g.cand = append(g.cand, genCand{s, Step{pc, from, d}, Step{Piece: NoPiece}})
}

// pushPair queues the child of p (signature ps) reached by two steps (a push or a pull).
func (g *MoveGen) pushPair(p *Position, ps sig, a, b Step) {
	q := *p
	s := ps.xor(bchKeys[a.Piece][a.From]).xor(bchKeys[a.Piece][a.To()])
	if c := q.move(a.Piece, a.From, a.To()); c.Piece != NoPiece {
		s = s.xor(bchKeys[c.Piece][c.Square])
	}
	s = s.xor(bchKeys[b.Piece][b.From]).xor(bchKeys[b.Piece][b.To()])
	if c := q.move(b.Piece, b.From, b.To()); c.Piece != NoPiece {
		s = s.xor(bchKeys[c.Piece][c.Square])
	}
	g.cand = append(g.cand, genCand{s, a, b})
}

// Generate finds the moves of p.Side from p and returns how many there are. With a
// non-nil history, moves that would make a third repetition are left out.
// The moves are read with Position and Steps until the next call.
func (g *MoveGen) Generate(p *Position, h *History) int {
	return g.GenerateUpTo(p, h, MaxSteps)
}

// GenerateUpTo is Generate for the moves of at most steps steps (1 to
// MaxSteps): the positions that Generate reaches in that many steps or fewer,
// each with the same steps as Generate gives it, as the search is breadth
// first. A position that needs more steps is left out. Fewer steps cost much
// less: each step multiplies the positions by some tens.
func (g *MoveGen) GenerateUpTo(p *Position, h *History, steps int) int {
	steps = min(max(steps, 1), MaxSteps)
	g.limit = int8(steps)
	g.reset()
	g.nodes = g.nodes[:0]
	g.pos = g.pos[:0]
	g.sigs = g.sigs[:0]
	none := Step{Piece: NoPiece}
	g.nodes = append(g.nodes, genNode{-1, none, none, 0})
	g.sigs = append(g.sigs, sig{})
	g.pos = append(g.pos, *p)
	g.table[0] = sig{0, g.stamp << stampShift} // the root: signature zero
	var start [MaxSteps + 2]int
	start[1] = 1
	for d := 1; d <= steps; d++ {
		// Single steps from the layer before, then pushes and pulls from two layers before.
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
			q := g.position(int32(i))
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

// position rebuilds the position of node i, with the opponent to move.
func (g *MoveGen) position(i int32) Position {
	var q Position
	if int(i) < len(g.pos) {
		q = g.pos[i]
	} else {
		nd := &g.nodes[i]
		q = g.pos[nd.parent]
		q.move(nd.a.Piece, nd.a.From, nd.a.To())
		if nd.b.Piece != NoPiece {
			q.move(nd.b.Piece, nd.b.From, nd.b.To())
		}
	}
	q.SetSide(q.Side.Other())
	return q
}

// Position returns the position after move i, with the opponent to move.
func (g *MoveGen) Position(i int) Position { return g.position(g.results[i]) }

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

// near2[sq] holds the squares within two steps (Manhattan distance 2) of sq.
var near2 = func() (t [64]Bitboard) {
	for sq := range 64 {
		b := Square(sq).Bit()
		b |= b.Neighbors()
		t[sq] = b | b.Neighbors()
	}
	return t
}()

// below[sq] holds the squares with a smaller index than sq.
var below = func() (t [64]Bitboard) {
	for sq := range 64 {
		t[sq] = Bitboard(1)<<uint(sq) - 1
	}
	return t
}()

// skipMask returns, for a node reached by the single step a, the origin squares of
// the steps in direction d that need not be tried from it. A step s at Manhattan
// distance 3 or more from a (all of their squares) commutes with a: neither changes
// what the other may do or captures, so a then s and s then a reach the same
// position. Of the two orders only the one with the lower origin first is kept.
// No position is lost: for a position first met at depth k, take a node N at depth
// k-1 and a step s from N reaching it; if s is skipped at N, the step a that
// reached N is legal after s from N's parent, which gives another node at depth k-1
// (not shallower, or the position would be too) and a step a with a higher origin
// than s. Origins only rise, so the walk ends at a pair that is not skipped.
func skipMask(a Step, d Dir) Bitboard {
	if a.Piece == NoPiece {
		return 0
	}
	near := near2[a.From] | near2[a.To()]
	far := ^near &^ near.Shift(d.Opposite())
	return far & below[a.From]
}

func (g *MoveGen) expandSteps(i int32, depth int8) {
	p := g.pos[i]
	nd := g.nodes[i]
	last := Step{Piece: NoPiece}
	if nd.b.Piece == NoPiece {
		last = nd.a
	}
	c := p.Side
	empty := p.Empty()
	frozen := p.Frozen(c)
	ob := int(c) * NumTypes
	ps := g.sigs[i]
	var skip [4]Bitboard
	if last.Piece != NoPiece {
		for d := North; d <= West; d++ {
			skip[d] = skipMask(last, d)
		}
	}
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
		for b := rabbits & empty.Shift(d.Opposite()) &^ skip[d]; b != 0; b &= b - 1 {
			from := b.First()
			g.pushStep(&p, ps, rb, from, d)
		}
	}
	for pt := Cat; pt < NumTypes; pt++ {
		pc := Piece(ob + int(pt))
		movers := p.Bits[pc] &^ frozen
		if movers == 0 {
			continue
		}
		for d := North; d <= West; d++ {
			for b := movers & empty.Shift(d.Opposite()) &^ skip[d]; b != 0; b &= b - 1 {
				from := b.First()
				g.pushStep(&p, ps, pc, from, d)
			}
		}
	}
	g.flush(i, depth)
}

func (g *MoveGen) expandPushPull(i int32, depth int8) {
	p := g.pos[i]
	ps := g.sigs[i]
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
					g.pushPair(&p, ps, Step{vpc, vsq, dirBetween(vsq, to)}, Step{pc, from, dirBetween(from, vsq)})
				}
				// Pulls: the puller steps to an empty square, the victim follows into from.
				for db := neighbors[from] & empty; db != 0; db &= db - 1 {
					to := db.First()
					g.pushPair(&p, ps, Step{pc, from, dirBetween(from, to)}, Step{vpc, vsq, dirBetween(vsq, from)})
				}
			}
		}
	}
	g.flush(i, depth)
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
