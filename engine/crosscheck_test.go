package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// This file checks the two move generators against each other: a slow reference
// that walks every step sequence of a turn with Turn.LegalSteps and Turn.Play, and
// the breadth-first MoveGen. On the way it checks, at every node of the walk, the
// invariants of a position (hash, occupancy, no unguarded piece on a trap, the
// capture reported), that LegalSteps and CheckStep agree with each other and with
// a naive statement of the rules, and that Frozen agrees with a naive freezing test.

// rulesRefState is the complete state of a turn in progress (the start board is
// the same for a whole walk): two nodes with equal states have equal continuations.
type rulesRefState struct {
	bits     [12]Bitboard
	used     int8
	pushTo   Square
	pushType PieceType
	pullFrom Square
	pullType PieceType
}

func rulesStateOf(t *Turn) rulesRefState {
	s := rulesRefState{bits: t.Pos.Bits, used: t.Used, pushTo: t.pushTo, pullFrom: t.pullFrom}
	if t.pushTo != NoSquare {
		s.pushType = t.pushType
	}
	if t.pullFrom != NoSquare {
		s.pullType = t.pullType
	}
	return s
}

// rulesNaiveFrozen says whether the piece on sq is frozen, square by square.
func rulesNaiveFrozen(p *Position, sq Square) bool {
	pc := p.At(sq)
	if pc == NoPiece {
		return false
	}
	stronger := false
	for d := North; d <= West; d++ {
		n := sq.Bit().Shift(d)
		if n == 0 {
			continue
		}
		q := p.At(n.First())
		if q == NoPiece {
			continue
		}
		if q.Color() == pc.Color() {
			return false
		}
		if q.Type() > pc.Type() {
			stronger = true
		}
	}
	return stronger
}

// rulesNaiveLegal states the step rules directly on the turn state.
func rulesNaiveLegal(t *Turn, s Step) bool {
	p := &t.Pos
	if t.Used >= MaxSteps || s.Piece >= NoPiece || s.Dir > West || s.From < 0 || s.From > 63 {
		return false
	}
	dest := s.From.Bit().Shift(s.Dir)
	if dest == 0 || p.At(s.From) != s.Piece || p.At(dest.First()) != NoPiece {
		return false
	}
	to := dest.First()
	own := s.Piece.Color() == p.Side
	if t.pushTo != NoSquare {
		return own && to == t.pushTo && s.Piece.Type() > t.pushType && !rulesNaiveFrozen(p, s.From)
	}
	if own {
		if rulesNaiveFrozen(p, s.From) {
			return false
		}
		if s.Piece.Type() == Rabbit {
			back := South
			if p.Side == Silver {
				back = North
			}
			return s.Dir != back
		}
		return true
	}
	if t.pullFrom == to && s.Piece.Type() < t.pullType {
		return true // completes a pull
	}
	if t.Used > MaxSteps-2 {
		return false // a push needs two steps
	}
	for d := North; d <= West; d++ {
		n := s.From.Bit().Shift(d)
		if n == 0 {
			continue
		}
		q := p.At(n.First())
		if q != NoPiece && q.Color() == p.Side && q.Type() > s.Piece.Type() && !rulesNaiveFrozen(p, n.First()) {
			return true
		}
	}
	return false
}

// rulesCheckPosition checks the invariants every reachable position keeps.
func rulesCheckPosition(p *Position) error {
	if p.Hash != p.ComputeHash() {
		return fmt.Errorf("hash %#x, ComputeHash %#x", p.Hash, p.ComputeHash())
	}
	var occ [2]Bitboard
	var all Bitboard
	for pc, b := range p.Bits {
		if all&b != 0 {
			return fmt.Errorf("two pieces share a square")
		}
		all |= b
		occ[Piece(pc).Color()] |= b
	}
	if occ != p.Occ {
		return fmt.Errorf("occupancy %v, boards say %v", p.Occ, occ)
	}
	for b := Traps & all; b != 0; b &= b - 1 {
		sq := b.First()
		pc := p.At(sq)
		if p.Occ[pc.Color()]&neighbors[sq] == 0 {
			return fmt.Errorf("%c on trap %s has no friendly neighbour", pc.Letter(), sq)
		}
	}
	return nil
}

// rulesCheckStepResult checks a step played from before to after with capture c.
func rulesCheckStepResult(before, after *Turn, s Step, c Capture) error {
	if err := rulesCheckPosition(&after.Pos); err != nil {
		return err
	}
	if after.Used != before.Used+1 || after.Pos.Side != before.Pos.Side {
		return fmt.Errorf("step count or side changed wrongly")
	}
	nb, na := 0, 0
	for pc := range before.Pos.Bits {
		nb += before.Pos.Bits[pc].Count()
		na += after.Pos.Bits[pc].Count()
	}
	if after.Pos.At(s.From) != NoPiece {
		return fmt.Errorf("%s: %s not vacated", s, s.From)
	}
	if c.Piece == NoPiece {
		if nb != na {
			return fmt.Errorf("%s: %d pieces became %d without a capture", s, nb, na)
		}
		if after.Pos.At(s.To()) != s.Piece {
			return fmt.Errorf("%s: piece not on %s", s, s.To())
		}
		return nil
	}
	if nb != na+1 {
		return fmt.Errorf("%s: capture %s but %d pieces became %d", s, c, nb, na)
	}
	if !Traps.Has(c.Square) || after.Pos.At(c.Square) != NoPiece {
		return fmt.Errorf("%s: capture %s not on an emptied trap", s, c)
	}
	moverCaptured := c.Square == s.To() && c.Piece == s.Piece
	if !moverCaptured {
		if before.Pos.At(c.Square) != c.Piece {
			return fmt.Errorf("%s: capture %s names a piece that was not there", s, c)
		}
		if after.Pos.At(s.To()) != s.Piece {
			return fmt.Errorf("%s: piece not on %s", s, s.To())
		}
	}
	if c.Piece.Color() != s.Piece.Color() {
		return fmt.Errorf("%s: a step captured an enemy piece %s", s, c)
	}
	return nil
}

// rulesCheckNode compares LegalSteps, CheckStep and the naive rules on every
// candidate step of the node, and Frozen with the naive freezing test.
func rulesCheckNode(t *Turn, legal []Step) error {
	seen := make(map[Step]bool, len(legal))
	for _, s := range legal {
		if seen[s] {
			return fmt.Errorf("LegalSteps lists %s twice", s)
		}
		seen[s] = true
	}
	p := &t.Pos
	all := p.Occ[0] | p.Occ[1]
	for b := all; b != 0; b &= b - 1 {
		sq := b.First()
		pc := p.At(sq)
		for d := North; d <= West; d++ {
			if sq.Bit().Shift(d) == 0 {
				continue
			}
			s := Step{pc, sq, d}
			err := t.CheckStep(s)
			naive := rulesNaiveLegal(t, s)
			if (err == nil) != seen[s] || (err == nil) != naive {
				return fmt.Errorf("step %s: CheckStep error %v, listed by LegalSteps %v, naive rules say legal %v", s, err, seen[s], naive)
			}
			if err != nil && err.Error() == "" {
				return fmt.Errorf("step %s: empty error text", s)
			}
		}
	}
	for _, s := range legal {
		if p.At(s.From) != s.Piece {
			return fmt.Errorf("LegalSteps lists %s for a piece not there", s)
		}
	}
	// ForcingSteps and PullSteps are LegalSteps filtered, in its order.
	pullSq, pullType := t.Pull()
	var forcing, pulls []Step
	for _, s := range legal {
		enemy := s.Piece.Color() != p.Side
		weakerBeside := false
		for b := neighbors[s.From] & p.Occ[p.Side.Other()]; b != 0; b &= b - 1 {
			if p.At(b.First()).Type() < s.Piece.Type() {
				weakerBeside = true
			}
		}
		if t.PushPending() || enemy || s.Piece.Type() != Rabbit && weakerBeside {
			forcing = append(forcing, s)
		}
		if !t.PushPending() && enemy && pullSq != NoSquare && s.To() == pullSq && s.Piece.Type() < pullType {
			pulls = append(pulls, s)
		}
	}
	if got := t.ForcingSteps(nil); !slices.Equal(got, forcing) {
		return fmt.Errorf("ForcingSteps = %v, LegalSteps filtered %v", got, forcing)
	}
	if got := t.PullSteps(nil); !slices.Equal(got, pulls) {
		return fmt.Errorf("PullSteps = %v, LegalSteps filtered %v", got, pulls)
	}
	for c := Gold; c <= Silver; c++ {
		var want Bitboard
		for b := p.Occ[c]; b != 0; b &= b - 1 {
			if rulesNaiveFrozen(p, b.First()) {
				want |= b.First().Bit()
			}
		}
		if got := p.Frozen(c); got != want {
			return fmt.Errorf("Frozen(%s) = %#x, naive %#x", c.Name(), got, want)
		}
	}
	return nil
}

type rulesRefStats struct {
	nodes, frozenNodes, dislodgeNodes int
}

// rulesRefMoves enumerates, depth first, every step sequence of one turn from p
// and returns the distinct end positions where the turn may end, each with one
// sequence reaching it. With full, nodes are also checked by rulesCheckNode.
func rulesRefMoves(p Position, full bool) (map[BoardKey][]Step, rulesRefStats, error) {
	res := make(map[BoardKey][]Step)
	seen := make(map[rulesRefState]bool)
	var st rulesRefStats
	var path []Step
	start := p
	var walk func(t *Turn) error
	walk = func(t *Turn) error {
		k := rulesStateOf(t)
		if seen[k] {
			return nil
		}
		seen[k] = true
		st.nodes++
		wantEnd := t.Used > 0 && !t.PushPending() && t.Pos.Bits != start.Bits
		if err := t.CanEnd(); (err == nil) != wantEnd {
			return fmt.Errorf("after %v: CanEnd() = %v, want ending allowed %v", path, err, wantEnd)
		}
		if wantEnd {
			e := t.End()
			if e.Side != start.Side.Other() || e.Hash != e.ComputeHash() {
				return fmt.Errorf("after %v: End() has side %s or a bad hash", path, e.Side)
			}
			if _, ok := res[e.Key()]; !ok {
				res[e.Key()] = slices.Clone(path)
			}
		}
		legal := t.LegalSteps(nil)
		if t.Used >= MaxSteps && len(legal) != 0 {
			return fmt.Errorf("after %v: %d legal steps after %d steps", path, len(legal), MaxSteps)
		}
		if t.Pos.Frozen(t.Pos.Side) != 0 {
			st.frozenNodes++
		}
		for _, s := range legal {
			if s.Piece.Color() != t.Pos.Side {
				st.dislodgeNodes++
				break
			}
		}
		// The node check is slow: run it on the first two steps of the turn
		// and on a fixed sample (by hash) of the deeper nodes.
		if full && (t.Used <= 1 || t.Pos.Hash%16 == 0) {
			if err := rulesCheckNode(t, legal); err != nil {
				return fmt.Errorf("after %v in %s: %v", path, t.Pos.String(), err)
			}
		}
		for _, s := range legal {
			t2 := *t
			c := t2.Play(s)
			if err := rulesCheckStepResult(t, &t2, s, c); err != nil {
				return fmt.Errorf("after %v: %v", path, err)
			}
			path = append(path, s)
			err := walk(&t2)
			path = path[:len(path)-1]
			if err != nil {
				return err
			}
		}
		return nil
	}
	t := NewTurn(p)
	if err := rulesCheckPosition(&t.Pos); err != nil {
		return nil, st, err
	}
	err := walk(&t)
	return res, st, err
}

// rulesCheckGenerated checks every move of g (generated from p) by replaying it
// step by step, and compares the set of moves with the reference ref.
func rulesCheckGenerated(tb testing.TB, g *MoveGen, p Position, ref map[BoardKey][]Step) {
	tb.Helper()
	n := g.Generate(&p, nil)
	if n != g.Len() {
		tb.Fatalf("%s: Generate returned %d, Len %d", p.String(), n, g.Len())
	}
	gen := make(map[BoardKey]int, n)
	var buf []Step
	for i := range n {
		q := g.Position(i)
		k := q.Key()
		if j, dup := gen[k]; dup {
			tb.Fatalf("%s: moves %d and %d both lead to %s", p.String(), j, i, q.String())
		}
		gen[k] = i
		if q.Side != p.Side.Other() || q.Hash != q.ComputeHash() {
			tb.Fatalf("%s: move %d: side %s or hash wrong", p.String(), i, q.Side)
		}
		if q.SameBoard(&p) {
			tb.Fatalf("%s: move %d leaves the board unchanged", p.String(), i)
		}
		buf = g.Steps(i, buf[:0])
		if len(buf) < 1 || len(buf) > MaxSteps {
			tb.Fatalf("%s: move %d has %d steps", p.String(), i, len(buf))
		}
		t := NewTurn(p)
		for j, s := range buf {
			if err := t.CheckStep(s); err != nil {
				tb.Fatalf("%s: move %d %v: step %d refused: %v", p.String(), i, buf, j+1, err)
			}
			t.Play(s)
			if t.Pos.Hash != t.Pos.ComputeHash() {
				tb.Fatalf("%s: move %d %v: hash wrong after step %d", p.String(), i, buf, j+1)
			}
		}
		if err := t.CanEnd(); err != nil {
			tb.Fatalf("%s: move %d %v cannot end: %v", p.String(), i, buf, err)
		}
		if e := t.End(); e.Key() != k || e.Hash != q.Hash {
			tb.Fatalf("%s: move %d %v reaches %s, Position(%d) is %s", p.String(), i, buf, e.String(), i, q.String())
		}
	}
	var missing, extra []string
	for k, path := range ref {
		if _, ok := gen[k]; !ok {
			missing = append(missing, fmt.Sprint(path))
		}
	}
	for k, i := range gen {
		if _, ok := ref[k]; !ok {
			extra = append(extra, fmt.Sprint(g.Steps(i, nil)))
		}
	}
	if len(missing)+len(extra) > 0 {
		slices.Sort(missing)
		slices.Sort(extra)
		tb.Errorf("%s: MoveGen has %d moves, reference %d; %d missing from MoveGen (e.g. %v), %d not in the reference (e.g. %v)",
			p.String(), n, len(ref), len(missing), missing[:min(3, len(missing))], len(extra), extra[:min(3, len(extra))])
	}
}

// rulesRandomPosition returns a random legal-looking position: a random set of
// pieces (no more of a type than the standard count), often packed around a trap
// or in a small box so that freezing, pushes, pulls and captures occur, with no
// unguarded piece left on a trap, and a random side to move.
func rulesRandomPosition(r *rand.Rand) Position {
	var p Position
	var region []Square
	switch r.IntN(4) {
	case 0: // the whole board
		for sq := range Square(64) {
			region = append(region, sq)
		}
	case 1, 2: // a 5x5 box around a trap
		tr := []Square{18, 21, 42, 45}[r.IntN(4)]
		for f := tr.File() - 2; f <= tr.File()+2; f++ {
			for rk := tr.Rank() - 2; rk <= tr.Rank()+2; rk++ {
				if f >= 0 && f < 8 && rk >= 0 && rk < 8 {
					region = append(region, MakeSquare(f, rk))
				}
			}
		}
	default: // a 4x4 box anywhere
		f0, r0 := r.IntN(5), r.IntN(5)
		for f := f0; f < f0+4; f++ {
			for rk := r0; rk < r0+4; rk++ {
				region = append(region, MakeSquare(f, rk))
			}
		}
	}
	r.Shuffle(len(region), func(i, j int) { region[i], region[j] = region[j], region[i] })
	for c := Gold; c <= Silver; c++ {
		left := StandardCount
		n := 1 + r.IntN(7)
		for range n {
			if len(region) == 0 {
				break
			}
			var pt PieceType
			for {
				pt = PieceType(r.IntN(NumTypes))
				if r.IntN(3) == 0 {
					pt = Rabbit
				}
				if left[pt] > 0 {
					break
				}
			}
			left[pt]--
			p.Put(MakePiece(c, pt), region[0])
			region = region[1:]
		}
	}
	for changed := true; changed; {
		changed = false
		for b := Traps & (p.Occ[0] | p.Occ[1]); b != 0; b &= b - 1 {
			sq := b.First()
			pc := p.At(sq)
			if p.Occ[pc.Color()]&neighbors[sq] == 0 {
				p.Remove(pc, sq)
				changed = true
			}
		}
	}
	p.SetSide(Color(r.IntN(2)))
	return p
}

func TestCrossCheckRandomPositions(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	r := rand.New(rand.NewPCG(2026, 7))
	g := NewMoveGen()
	var withFrozen, withDislodge, silverToMove, moves, nodes int
	for i := range n {
		p := rulesRandomPosition(r)
		ref, st, err := rulesRefMoves(p, true)
		if err != nil {
			t.Fatalf("position %d %s: %v", i, p.String(), err)
		}
		rulesCheckGenerated(t, g, p, ref)
		if st.frozenNodes > 0 {
			withFrozen++
		}
		if st.dislodgeNodes > 0 {
			withDislodge++
		}
		if p.Side == Silver {
			silverToMove++
		}
		moves += len(ref)
		nodes += st.nodes
	}
	t.Logf("%d positions, %d moves, %d turn states; %d with a frozen piece, %d with a push or pull, %d with Silver to move",
		n, moves, nodes, withFrozen, withDislodge, silverToMove)
	// The generator must keep producing the interesting cases.
	if withFrozen < n/4 || withDislodge < n/3 || silverToMove < n/4 || silverToMove > 3*n/4 {
		t.Errorf("random positions too tame: %d/%d with frozen pieces, %d/%d with pushes or pulls, %d/%d Silver to move",
			withFrozen, n, withDislodge, n, silverToMove, n)
	}
}

func TestCrossCheckClueless(t *testing.T) {
	g := NewMoveGen()
	checked := 0
	for _, c := range loadClueless(t) {
		if c.count > 11000 {
			continue
		}
		checked++
		ref, _, err := rulesRefMoves(c.pos, true)
		if err != nil {
			t.Fatalf("line %d: %v", c.line, err)
		}
		if len(ref) != c.count {
			t.Errorf("line %d: reference finds %d moves, expected file says %d", c.line, len(ref), c.count)
		}
		rulesCheckGenerated(t, g, c.pos, ref)
	}
	if checked < 10 {
		t.Fatalf("only %d clueless positions checked", checked)
	}
}

// TestCrossCheckReferenceDetectsDifferences makes sure the comparison itself can
// fail: a reference with one move removed must be reported.
func TestCrossCheckReferenceDetectsDifferences(t *testing.T) {
	p := rulesPos(t, Gold, "Hd4 rd5 cc4 Ra2 rh8")
	ref, _, err := rulesRefMoves(p, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref) < 10 {
		t.Fatalf("only %d moves", len(ref))
	}
	for k := range ref {
		delete(ref, k)
		break
	}
	ft := &rulesFakeTB{TB: t}
	rulesCheckGenerated(ft, NewMoveGen(), p, ref)
	if !strings.Contains(ft.msg, "not in the reference") {
		t.Fatalf("a removed move was not reported: %q", ft.msg)
	}
}

// rulesFakeTB records an error instead of failing the test.
type rulesFakeTB struct {
	testing.TB
	msg string
}

func (f *rulesFakeTB) Helper() {}
func (f *rulesFakeTB) Errorf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
}

// TestCrossCheckRepetitionFilter checks that Generate with a history leaves out
// exactly the moves whose position, with the opponent to move, already stood
// twice: not those seen once, not the same board with the other side to move.
func TestCrossCheckRepetitionFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	g := NewMoveGen()
	tested, repetitions := 0, 0
	for tested < 40 {
		p := rulesRandomPosition(r)
		all := rulesGenKeys(g, &p, nil)
		if len(all) < 3 {
			continue
		}
		tested++
		h := NewHistory()
		h.Add(&p) // the start, Silver or Gold to move: never a result
		h.Add(&p)
		want := make(map[BoardKey]bool)
		for k := range all {
			var q Position
			for pc, b := range k.Bits {
				for ; b != 0; b &= b - 1 {
					q.Put(Piece(pc), b.First())
				}
			}
			q.SetSide(k.Side)
			times := r.IntN(4)
			if tested%5 == 0 { // every move repeats for the third time
				times = 2 + r.IntN(2)
			}
			for range times {
				h.Add(&q)
			}
			if times < 2 {
				want[k] = true
			}
			if r.IntN(2) == 0 { // the same board with the other side to move
				q.SetSide(k.Side.Other())
				h.Add(&q)
				h.Add(&q)
			}
		}
		got := rulesGenKeys(g, &p, h)
		if len(got) != len(want) {
			t.Errorf("%s: %d moves with history, want %d of %d", p.String(), len(got), len(want), len(all))
		}
		for k := range got {
			if !want[k] {
				t.Errorf("%s: a third repetition was generated", p.String())
				break
			}
		}
		// Each generated move still replays to its position.
		for i := range g.Len() {
			tr := NewTurn(p)
			for _, s := range g.Steps(i, nil) {
				if err := tr.CheckStep(s); err != nil {
					t.Fatalf("%s: move %d: %v", p.String(), i, err)
				}
				tr.Play(s)
			}
			if e, q := tr.End(), g.Position(i); e.Key() != q.Key() {
				t.Fatalf("%s: move %d replays to %s, not %s", p.String(), i, e.String(), q.String())
			}
		}
		// The outcome agrees: the earlier checks first, then a repetition win for
		// the player who moved exactly when every move is a third repetition.
		want0 := EndOfTurn(&p, nil, g)
		if !want0.Over() && len(want) == 0 {
			want0 = Outcome{p.Side.Other(), Repetition}
		}
		if out := EndOfTurn(&p, h, g); out != want0 {
			t.Errorf("%s: outcome %v with %d moves left, want %v", p.String(), out, len(want), want0)
		}
		if want0.Reason == Repetition {
			repetitions++
		}
	}
	if repetitions == 0 {
		t.Error("no random history made every move a repetition: the outcome check went untested")
	}
}
