package mcts

import (
	"cmp"
	"slices"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// The deep scan searches two turns: the best moves of the turn by the
// one-turn scan's value, each against every reply of the opponent, the
// replies valued as the scan values a move (the game's end, the side's own
// goal, its best capture line, then the evaluation), raised by what each
// reply threatens to capture on the turn after. So it sees what the opponent
// does with a whole turn (a piece dragged towards a trap and frozen there, a
// capture that needs a push first), which the one-turn scan, looking only at
// the opponent's captures, misses. The best few moves then get a third turn,
// the mover's own, after each of the opponent's best replies: whether the
// threat can be parried.
const (
	// deepShare is the percentage of a time budget that a deep scan gets:
	// the tree's share mostly orders the candidates, and the scan, bounded by
	// time, values more of them with more (60 played 8 - 12 against 80 at a
	// second a move; docs/strength.md).
	deepShare = 80
	// deepFirst is how many moves, the best by their evaluation, get the
	// one-turn value with the tree's capture search.
	deepFirst = 512
	// deepMoves is how many moves, the best by that value, are searched
	// against every reply; the tree search's most visited moves are added.
	deepMoves = 48
	// deepTree is how many of the tree search's most visited moves are
	// searched besides.
	deepTree = 6
	// deepKillers is how many of the latest refutations are tried on each
	// move before a scan of all its replies.
	deepKillers = 4
	// deepReplyMargin is how far below the opponent's best reply the scan of
	// a move's replies values them exactly when the move gets a third turn,
	// and deepReplies how many of those are kept for it. The two-turn values
	// need the best reply alone (see deepValuesFrom).
	deepReplyMargin = 0.05
	deepReplies     = 4
	// deepThreatReplies is how many replies more are kept for the third
	// turn: the best of the others by their value with the whole of the
	// threat they carry (see bestReplies).
	deepThreatReplies = 2
	// deepVerify is how many of the best moves by the two-turn value, those
	// within deepVerifyWindow of the best, get a third turn. While the best
	// three-turn value found is below the next move's two-turn value (the
	// third turn showed a threat that the moves verified cannot parry), the
	// next moves get one too, up to deepVerifyMost in all.
	deepVerify       = 3
	deepVerifyWindow = 0.1
	deepVerifyMost   = 8
	// deepCut is how far below the best two-turn value so far a move's
	// reply scan ends, its value then a bound from above (alpha-beta at
	// the level of turns): the scan's margin, so that the moves within it
	// have exact values for the third turn and the choice. A cut at the
	// best itself (0) gave two-turn values to five to seven times as many
	// moves at turn 10 and played no better (60 paired games against
	// Sharp at depth 4, the thirty-second round of docs/strength.md).
	deepCut = scanMargin
	// deepThreat weighs the opponent's replies by what they threaten (see
	// turnScan.threat): a quarter of the loss, as a threat can often be
	// parried. Half cost strength at a second a move (40 paired games, 24 -
	// 16 for a quarter; docs/strength.md): each reply scan takes about 2.4
	// times as long with the threat, and fewer candidates are searched.
	deepThreat = 0.25
	// deepFirstShare is the percentage of the deep scan's time that the
	// two-turn values of the first moves may take before the best of them
	// get their third turn; the moves left are valued after it. Without it,
	// at a second a move, the scan ran out of time among its first 48 moves
	// in about one position in two of the games against Sharp, where each
	// move's replies took 15 to 25 ms or more, and the third turn was never
	// played there (docs/strength.md, the twentieth round).
	deepFirstShare = 60
	// deepDefence bounds the states that the goal defence of one deep scan
	// walks and searches (see goalWon), about a second and a half where
	// many replies threaten a goal that is hard to stop; a search bounded
	// by time is bounded by its deadline first. Past it the threats of the
	// moves left are taken as stopped, and those moves look better than
	// the ones whose threats were examined: at 2^20 (about a tenth of a
	// second) a position of the games against Sharp spent it on 46 moves
	// that each lost to a goal, and played the 47th, whose reply scan had
	// no budget left to see the same goal (docs/strength.md, the thirtieth
	// round).
	deepDefence = 1 << 24
)

// deepCand is a move searched by the deep scan.
type deepCand struct {
	pos    engine.Position // after the move
	gen    int             // its index in the root's generated moves, or -1
	cand   int             // its index in the tree's candidates, or -1
	first  float32         // its one-turn value
	second float32         // its two-turn value: exact, or an upper bound when refuted
	done   bool            // second is set
	// refuted is set when a reply brought the move deepCut or more below
	// the best before it: second is then an upper bound.
	refuted bool
	// exact is set when second is the value of the opponent's best reply
	// found by a scan of every reply (not refuted, not decided by the
	// rules): the moves that verify may give a third turn.
	exact bool
	// replies are the opponent's best replies by the two-turn value, found
	// for the third turn (see verify).
	replies []engine.Position
	// state is what the scan of its replies left when second is exact,
	// until verify resumes it to find replies.
	state *scanState
	// third is its three-turn value, when verified: an upper bound when
	// that is more than scanMargin below the best three-turn value before
	// it (see verify).
	third   float32
	checked bool // third is set
}

// deepPick returns the index in cands of the move to play by a search of two
// turns and, for the best moves, three; cands may grow by one. The moves
// searched are the deepMoves best by their one-turn value and the deepTree
// most visited by the tree (see deepValues for their two-turn values). The
// best few then get a third turn (see verify). The tree's choice stands when
// it is within scanMargin of the best by the deepest value the moves share;
// otherwise the most visited move within the margin is played (the best one
// when the tree visited none of them).
func (sr *search) deepPick(cands *[]moveCand, pick int) int {
	w := sr.newWorker()
	w.defenceLeft = deepDefence
	// past reports whether a search bounded by time has used the deep
	// scan's share: the tree's choice then stands.
	past := func() bool { return !sr.scanDeadline.IsZero() && time.Now().After(sr.scanDeadline) }
	if past() {
		return pick
	}
	root := sr.rootTurn.Pos
	gen := engine.NewMoveGen()
	n := gen.Generate(&root, sr.hist)
	if n == 0 {
		return pick
	}
	// The one-turn values of the moves best by their evaluation.
	all := w.byEvaluation(gen, n, past)
	if all == nil {
		return pick
	}
	// The deepMoves best of the deepFirst best by their one-turn value with
	// the exhaustive capture search (see firstRanker).
	cs := newCaptureSearch()
	cs.extra = engine.MaxSteps
	first := all[:min(n, deepFirst)]
	for k := range first {
		if k%64 == 63 && past() {
			return pick
		}
		q := gen.Position(first[k].i)
		first[k].v = w.turnEndValue(&q, w.capture)
	}
	slices.SortFunc(first, func(a, b scored) int { return cmp.Compare(b.v, a.v) })
	if len(first) > 0 && first[0].v <= -1 && len(first) < n {
		// Every move ranked lets the opponent reach its goal (or loses
		// otherwise), and the moves the evaluation ranks lower were not
		// looked at: ask the goal defence for a move that stops the goal.
		// Before the thirty-first round the scan stopped here, and in 10
		// of the 13 positions of the games lost to Sharp's goal where a
		// move stopped it, the bot played one that did not.
		if i := w.parryMove(gen, n, &root); i >= 0 {
			q := gen.Position(i)
			first = append(first[:len(first):len(first)], scored{i, w.turnEndValue(&q, w.capture)})
			slices.SortFunc(first, func(a, b scored) int { return cmp.Compare(b.v, a.v) })
		}
	}
	ranker := &firstRanker{w: w, gen: gen, cs: cs, bound: first}
	first = ranker.next(deepMoves, past)
	if first == nil {
		return pick
	}
	var list []deepCand
	for _, f := range first {
		list = append(list, deepCand{pos: gen.Position(f.i), gen: f.i, cand: -1, first: f.v})
	}
	// The tree's choice and its most visited moves, when not listed already.
	for j := range *cands {
		if j != pick && j >= deepTree {
			continue
		}
		c := (*cands)[j]
		turn := sr.rootTurn
		for _, st := range c.steps {
			turn.Play(st)
		}
		q := turn.End()
		k := slices.IndexFunc(list, func(d deepCand) bool { return d.pos.SameBoard(&q) })
		if k < 0 {
			list = append(list, deepCand{pos: q, gen: -1, first: w.turnEndValue(&q, cs)})
			k = len(list) - 1
		}
		list[k].cand = j
	}
	// The tree's choice first, then by one-turn value: a good first value
	// makes the cuts of the others early.
	slices.SortStableFunc(list, func(a, b deepCand) int {
		if (a.cand == pick) != (b.cand == pick) {
			if a.cand == pick {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.first, a.first)
	})
	stats := &DeepStats{}
	sr.deepStats = stats
	defer func() { stats.Listed, stats.Valued, stats.Verified = deepCounts(list) }()
	dv := &deepValuer{best: -2}
	w.deepValuesFrom(dv, list, cs, firstDeadline(sr.scanDeadline, time.Now()))
	if dv.best > -2 {
		w.verify(list, dv.best, cs, sr.scanDeadline)
	}
	// The moves the first share of the time did not reach (all of them
	// when the first took it all).
	if rest := slices.IndexFunc(list, func(d deepCand) bool { return !d.done }); rest >= 0 {
		w.deepValuesFrom(dv, list[rest:], cs, sr.scanDeadline)
		if dv.best > -2 {
			w.verify(list, dv.best, cs, sr.scanDeadline)
		}
	}
	best := dv.best
	if best == -2 {
		// No move got its two-turn value in the time (a late position
		// where the first move's replies took it all): choose by the
		// one-turn values, as the one-turn scan does, rather than play
		// the tree's choice unchecked.
		top := float32(-2)
		for k := range list {
			top = max(top, list[k].first)
		}
		return deepChoice(list, cands, pick, gen, top, func(d *deepCand) (float32, bool) { return d.first, true })
	}
	// A search bounded by time that has time left widens the scan: the
	// next deepMoves moves by their one-turn value get their two-turn
	// values, cut by the best so far, and a third turn where they rank
	// among the best, until the deadline or the moves run out.
	for !sr.scanDeadline.IsZero() && !past() {
		more := ranker.next(deepMoves, past)
		if len(more) == 0 {
			break
		}
		stats.Widened++
		start := len(list)
		for _, f := range more {
			q := gen.Position(f.i)
			if !slices.ContainsFunc(list, func(d deepCand) bool { return d.pos.SameBoard(&q) }) {
				list = append(list, deepCand{pos: q, gen: f.i, cand: -1, first: f.v})
			}
		}
		w.deepValuesFrom(dv, list[start:], cs, sr.scanDeadline)
		best = dv.best
		w.verify(list, best, cs, sr.scanDeadline)
	}
	// Play the tree's choice when it is within the margin of the best, by
	// the deepest value the moves have in common; otherwise the most
	// visited move within the margin, or the best.
	top, checked := float32(-2), false
	for k := range list {
		if list[k].checked {
			top, checked = max(top, list[k].third), true
		}
	}
	if !checked {
		top = best
	}
	return deepChoice(list, cands, pick, gen, top, func(d *deepCand) (float32, bool) {
		if d.checked {
			return d.third, checked
		}
		// A refuted move's value is a bound from above.
		return d.second, d.done && !d.refuted && !checked
	})
}

// deepChoice returns the index in cands of the move the deep scan plays:
// the tree's choice cands[pick] when its value is within scanMargin of top,
// otherwise the most visited move of list within the margin (the best of
// those the tree did not visit), appended to cands when it is not there.
// value gives a move's value and whether it may be chosen.
func deepChoice(list []deepCand, cands *[]moveCand, pick int, gen *engine.MoveGen, top float32, value func(*deepCand) (float32, bool)) int {
	choice, choiceVisits, choiceValue := -1, int32(-1), float32(0)
	for k := range list {
		d := &list[k]
		v, ok := value(d)
		if !ok || v < top-scanMargin {
			continue
		}
		if d.cand == pick {
			return pick
		}
		visits := int32(-1)
		if d.cand >= 0 {
			visits = int32((*cands)[d.cand].visits)
		}
		if choice < 0 || visits > choiceVisits || visits == choiceVisits && v > choiceValue {
			choice, choiceVisits, choiceValue = k, visits, v
		}
	}
	if choice < 0 {
		return pick
	}
	d := list[choice]
	if d.cand >= 0 {
		return d.cand
	}
	*cands = append(*cands, moveCand{steps: gen.Steps(d.gen, nil), child: -1, q: choiceValue})
	return len(*cands) - 1
}

// firstDeadline returns when the two-turn values of the deep scan's first
// moves give way to the third turn of the best (see deepFirstShare): that
// share of the time from now to deadline; zero when deadline is (no time
// bound).
func firstDeadline(deadline, now time.Time) time.Time {
	if deadline.IsZero() {
		return deadline
	}
	return now.Add(deadline.Sub(now) * deepFirstShare / 100)
}

// deepCounts returns how many moves of list there are, how many have a
// two-turn value and how many a three-turn one.
func deepCounts(list []deepCand) (listed, valued, verified int) {
	for k := range list {
		if list[k].done {
			valued++
		}
		if list[k].checked {
			verified++
		}
	}
	return len(list), valued, verified
}

// parryMove returns the index among the n moves of gen (generated from
// root) of a move after which the opponent cannot reach its goal, found by
// the goal defence, or -1 when it finds none or gives up. Its states count
// against the deep scan's budget for the defence (see deepDefence).
func (w *worker) parryMove(gen *engine.MoveGen, n int, root *engine.Position) int {
	if w.defenceLeft <= 0 {
		return -1
	}
	w.parries(root)
	if !w.defence.found {
		return -1
	}
	for i := range n {
		if q := gen.Position(i); q.SameBoard(&w.defence.parry) {
			return i
		}
	}
	return -1
}

// byEvaluation returns the n moves of gen valued by the evaluation of the
// position after each (the game's end when it ends there), for the side
// that moves, best first; nil when past reports the time is up.
func (w *worker) byEvaluation(gen *engine.MoveGen, n int, past func() bool) []scored {
	ev := w.sr.s.eval
	all := make([]scored, n)
	q := new(engine.Position) // one for all: passed to the evaluator, each would escape
	for i := range n {
		if i%1024 == 1023 && past() {
			return nil
		}
		*q = gen.Position(i)
		next := engine.NewTurn(*q)
		var v float32
		if w.gameOver(&next, &v) {
			all[i] = scored{i, -v}
			continue
		}
		all[i] = scored{i, -ev.Evaluate(q)}
	}
	slices.SortFunc(all, func(a, b scored) int { return cmp.Compare(b.v, a.v) })
	return all
}

// scored is a move, by its index in a move generator, with a value.
type scored struct {
	i int
	v float32
}

// firstRanker hands out the deep scan's candidates best first by their
// one-turn value with the exhaustive capture search, valuing them lazily.
// The tree's capture search looks for the shortest captures only and misses
// a longer one behind a shorter bound, so its values alone would rank first
// the moves whose losses it misses (a camel left to be pushed twice onto a
// trap: they beat the moves that save it). They are upper bounds of the
// exhaustive values (nearly always: the evaluation after a smaller capture
// may be the lower), and a move is valued exhaustively only while its bound
// could still rank it among those handed out: 20 ms a position where all 512
// would take 150 ms.
type firstRanker struct {
	w     *worker
	gen   *engine.MoveGen
	cs    *captureSearch // the exhaustive search
	bound []scored       // the moves by falling bound
	k     int            // bound[k:] are not valued exhaustively yet
	done  []scored       // valued and not handed out, best first
}

// next returns the n best moves not handed out yet, best first, fewer when
// fewer are left, or nil when past reports the time is up.
func (r *firstRanker) next(n int, past func() bool) []scored {
	for i := 0; r.k < len(r.bound); i++ {
		if i%16 == 15 && past() {
			return nil
		}
		if len(r.done) >= n && r.done[n-1].v >= r.bound[r.k].v {
			break
		}
		q := r.gen.Position(r.bound[r.k].i)
		f := scored{r.bound[r.k].i, r.w.turnEndValue(&q, r.cs)}
		r.k++
		j, _ := slices.BinarySearchFunc(r.done, f.v, func(d scored, v float32) int { return cmp.Compare(v, d.v) })
		r.done = slices.Insert(r.done, j, f)
	}
	out := slices.Clone(r.done[:min(n, len(r.done))])
	r.done = r.done[len(out):]
	return out
}

// deepValues sets the two-turn value of the moves of list, in their order,
// until deadline (when set), and returns the best. A move's value is the
// opponent's best reply, by a scan of its turn with the capture search cs,
// cut as soon as a reply brings the move deepCut or more below the best so
// far (its value is then an upper bound); the latest refutations are tried
// on each move first. The scan values exactly the best reply alone: the
// replies that the third turn answers are found by verify for the few moves
// it verifies (valuing every reply within deepReplyMargin of the best took
// about a third of the time of the two-turn values).
func (w *worker) deepValues(list []deepCand, cs *captureSearch, deadline time.Time) float32 {
	dv := &deepValuer{best: -2}
	w.deepValuesFrom(dv, list, cs, deadline)
	return dv.best
}

// deepValuer carries the state of deepValues from one list of moves to the
// next, when the scan widens: the best two-turn value so far (-2 for none)
// and the latest refutations.
type deepValuer struct {
	best    float32
	killers [][]engine.Step
}

// deepValuesFrom is deepValues from the state dv, which it updates.
func (w *worker) deepValuesFrom(dv *deepValuer, list []deepCand, cs *captureSearch, deadline time.Time) {
	sc := &turnScan{gen: engine.NewMoveGen(), deep: cs, deadline: deadline, threat: deepThreat}
	best, killers := dv.best, dv.killers
	defer func() { dv.best, dv.killers = best, killers }()
	for k := range list {
		d := &list[k]
		if !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		next := engine.NewTurn(d.pos)
		var v float32
		switch {
		case w.gameOver(&next, &v):
			d.second = -v
		case w.goal.reachable(&next):
			d.second = -1
		case best > -2 && w.refutedBy(killers, &d.pos, deepCut-best, sc, &v):
			d.second, d.refuted = -v, true
		default:
			sc.refute, sc.cut = best > -2, deepCut-best
			if !w.scan(sc, &d.pos, nil, 0) {
				d.second = 1 // no reply: the opponent has lost
				break
			}
			if sc.capped && !deadline.IsZero() && time.Now().After(deadline) {
				return // out of time in the middle of the replies: no value
			}
			d.second = -sc.best
			d.refuted = sc.refute && sc.best >= sc.cut
			d.exact = !d.refuted
			if d.exact {
				d.state = sc.save()
			}
			if sc.bestMove >= 0 && sc.best >= sc.cut {
				// A refutation: try it first on the moves to come.
				if len(killers) == deepKillers {
					killers = killers[:deepKillers-1]
				}
				killers = slices.Insert(killers, 0, sc.gen.Steps(sc.bestMove, nil))
			}
		}
		d.done = true
		best = max(best, d.second)
	}
}

// bestReplies returns the positions after the n best moves that the scan sc
// valued exactly, best first, and after the deepThreatReplies best of the
// others by their value with the whole of their threat: a reply that drags a
// piece beside a trap, where nothing can save it, ranks among the best only
// so, since the scan weighs threats by sc.threat (most can be parried), and
// the third turn, played after the replies kept, is what tells.
func bestReplies(sc *turnScan, n int) []engine.Position {
	var idx []int
	for i, l := range sc.level {
		if l == scanDone {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(sc.bound[b], sc.bound[a]) })
	k := min(n, len(idx))
	out := make([]engine.Position, 0, k+deepThreatReplies)
	for _, i := range idx[:k] {
		out = append(out, sc.gen.Position(i))
	}
	var rest []int
	for _, i := range idx[k:] {
		if sc.loss[i] > 0 {
			rest = append(rest, i)
		}
	}
	whole := func(i int) float32 { return sc.bound[i] + (1-sc.threat)*sc.loss[i] }
	slices.SortStableFunc(rest, func(a, b int) int { return cmp.Compare(whole(b), whole(a)) })
	for _, i := range rest[:min(deepThreatReplies, len(rest))] {
		out = append(out, sc.gen.Position(i))
	}
	return out
}

// verify gives the best moves of list by their two-turn value (deepVerify
// of them, those within deepVerifyWindow of best) a third turn: after each
// of the opponent's best replies kept, a scan of the mover's own turn, which
// sees what the reply threatens (a piece dragged beside a trap and frozen, a
// rabbit that will goal) and whether any move parries it. A move's
// three-turn value is the worst of its replies' values. When the best
// three-turn value is below the two-turn value of the next move, that move
// is verified too, whatever its distance from best, up to deepVerifyMost
// moves: the threat may be one that only a move ranked lower parries.
//
// The cuts are those of alpha-beta: the scan after a reply stops at the
// first move of the mover's that reaches the worst value of the replies
// before it (the latest best moves after other replies, deepKillers of
// them, are tried first, as the deep scan tries refutations), and a move
// whose replies so far put it more than scanMargin below the best
// three-turn value before it (out of the choice) gets no more replies
// scanned. The values within the choice are exact.
func (w *worker) verify(list []deepCand, best float32, cs *captureSearch, deadline time.Time) {
	var order []int
	for k := range list {
		if list[k].done && list[k].exact {
			order = append(order, k)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(list[b].second, list[a].second) })
	sc := &turnScan{gen: engine.NewMoveGen(), deep: cs, deadline: deadline}
	var rs *turnScan            // the scan of the opponent's replies, made when needed
	var parries [][]engine.Step // the mover's latest best moves after a reply
	top := float32(-2)          // the best three-turn value so far
	for n, k := range order {
		d := &list[k]
		if d.checked { // verified before the scan widened
			top = max(top, d.third)
			continue
		}
		if !verifyNext(n, d.second, top, best) {
			return
		}
		if d.replies == nil {
			if rs == nil {
				rs = &turnScan{gen: engine.NewMoveGen(), deep: cs, deadline: deadline, threat: deepThreat}
			}
			// The move has replies: its value is exact. The scan that
			// found it goes on to the wider margin.
			w.resume(rs, d.state, &d.pos, deepReplyMargin)
			d.state = nil
			if rs.capped && !deadline.IsZero() && time.Now().After(deadline) {
				return
			}
			d.replies = bestReplies(rs, deepReplies)
		}
		third := float32(2)
		for _, rp := range d.replies {
			if !deadline.IsZero() && time.Now().After(deadline) {
				return
			}
			if third < top-scanMargin {
				// Out of the choice whatever the replies left do: its
				// value is a bound from above.
				break
			}
			next := engine.NewTurn(rp)
			var v float32
			switch {
			case w.gameOver(&next, &v):
			case w.goal.reachable(&next):
				v = 1
			case third < 2 && w.refutedBy(parries, &rp, third, sc, &v):
				// A parry found after another reply reaches the value of
				// the replies so far: this reply is not worse.
			default:
				// So does any move of the mover's, found by the scan.
				sc.refute, sc.cut = third < 2, third
				if !w.scan(sc, &rp, nil, 0) {
					v = -1
					break
				}
				if sc.capped && !deadline.IsZero() && time.Now().After(deadline) {
					return // out of time in the middle of the scan: no value
				}
				v = sc.best
				if sc.bestMove >= 0 {
					if len(parries) == deepKillers {
						parries = parries[:deepKillers-1]
					}
					parries = slices.Insert(parries, 0, sc.gen.Steps(sc.bestMove, nil))
				}
			}
			third = min(third, v)
		}
		d.third, d.checked = third, true
		top = max(top, third)
	}
}

// verifyNext reports whether verify gives a third turn to the move of
// two-turn value second, the n-th best (from 0) by that value, when the best
// three-turn value of the moves before it is top (-2 for none) and the best
// two-turn value is best.
func verifyNext(n int, second, top, best float32) bool {
	switch {
	case n >= deepVerifyMost:
		return false
	case top < second:
		return true // the moves verified fell below it
	default:
		return n < deepVerify && second >= best-deepVerifyWindow
	}
}

// refutedBy reports whether one of the replies killers, played from pos,
// reaches cut: its value for the opponent, set in *v, is then at least cut
// (the move before pos is refuted). A reply that is not legal from pos is
// skipped. Moves that share an idea share their refutation, which so costs
// one capture search instead of a scan of every reply. The reply is valued
// as the scan sc values a move.
func (w *worker) refutedBy(killers [][]engine.Step, pos *engine.Position, cut float32, sc *turnScan, v *float32) bool {
	for _, k := range killers {
		t := engine.NewTurn(*pos)
		legal := true
		for _, st := range k {
			if t.CheckStep(st) != nil {
				legal = false
				break
			}
			t.Play(st)
		}
		if !legal || t.CanEnd() != nil {
			continue
		}
		q := t.End()
		if val, _ := w.threatParts(&q, sc.deep, sc.threat, -1, false, refuting(cut)); val >= cut {
			*v = val
			return true
		}
	}
	return false
}
