package match

import (
	"fmt"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/rating"
)

// ArchivePool is the pool of players that recorded games hold, as the rating
// fit takes it: players by user name in the order they first appear, and
// each pairing's games as units, a pair where two games in a row share their
// setups with colours swapped (as eval writes them), a lone game elsewhere.
// It rates games played at any time by any tool, as BayesElo and Ordo rate
// PGN files. The zero value is an empty pool.
type ArchivePool struct {
	// Names are the players' user names.
	Names []string
	// Data holds each pairing's units, from the view of its player I (the
	// one that appeared first).
	Data []rating.PairingData
	// Stats counts each pairing's results from the view of its player I, in
	// the order of Data.
	Stats []rating.Stats
	// Games is the number of games, Paired how many of them came in pairs,
	// and Unfinished how many have no result; those are counted as draws,
	// since eval writes a game it stops at its turn limit without one.
	Games, Paired, Unfinished int

	index    map[string]int
	pairings map[[2]int]int
}

// Add counts recorded games into the pool; the games of a pair must follow
// each other in recs. A game a player plays against itself is refused: it
// says nothing of strength and usually means two players shared a name (the
// games before it stay counted).
func (p *ArchivePool) Add(recs []engine.Record) error {
	for n := 0; n < len(recs); n++ {
		r := &recs[n]
		if r.Gold == r.Silver {
			return fmt.Errorf("%s: gold and silver are both %q", r.Label(), r.Gold)
		}
		g, s := p.player(r.Gold), p.player(r.Silver)
		k := p.pairing(g, s)
		first := p.Data[k].I
		a := p.count(k, r, first)
		if n+1 < len(recs) && swapped(r, &recs[n+1]) {
			n++
			b := p.count(k, &recs[n], first)
			p.Paired += 2
			p.Stats[k].AddPair(a, b)
			p.Data[k].Units = append(p.Data[k].Units, unitOf(a, b))
			continue
		}
		p.Data[k].Units = append(p.Data[k].Units, unitOf(a))
	}
	return nil
}

// count counts game r of pairing k and returns its score for the player
// first.
func (p *ArchivePool) count(k int, r *engine.Record, first int) float64 {
	x := scoreFor(r, p.index[r.Gold] == first)
	if r.Termination == engine.NotOver {
		p.Unfinished++
	}
	p.Games++
	p.Stats[k].AddGame(x)
	return x
}

// player returns the index of the player named name, adding it when new.
func (p *ArchivePool) player(name string) int {
	if p.index == nil {
		p.index = map[string]int{}
	}
	i, ok := p.index[name]
	if !ok {
		i = len(p.Names)
		p.index[name] = i
		p.Names = append(p.Names, name)
	}
	return i
}

// pairing returns the index of the pairing of players i and j, adding it
// when new.
func (p *ArchivePool) pairing(i, j int) int {
	if p.pairings == nil {
		p.pairings = map[[2]int]int{}
	}
	key := [2]int{min(i, j), max(i, j)}
	k, ok := p.pairings[key]
	if !ok {
		k = len(p.Data)
		p.pairings[key] = k
		p.Data = append(p.Data, rating.PairingData{I: key[0], J: key[1]})
		p.Stats = append(p.Stats, rating.Stats{})
	}
	return k
}

// Index returns the index of the player named name, or -1.
func (p *ArchivePool) Index(name string) int {
	if i, ok := p.index[name]; ok {
		return i
	}
	return -1
}

// scoreFor returns a game's score for its gold player when gold is true,
// else for its silver player: 1, 1/2 (no result) or 0.
func scoreFor(r *engine.Record, gold bool) float64 {
	if r.Termination == engine.NotOver {
		return 0.5
	}
	if (r.Result == engine.Gold) == gold {
		return 1
	}
	return 0
}

// swapped reports whether b is a's game with colours swapped: the same two
// players on the other sides and the same setup turns.
func swapped(a, b *engine.Record) bool {
	if a.Gold != b.Silver || a.Silver != b.Gold || len(a.Moves) < 2 || len(b.Moves) < 2 {
		return false
	}
	return a.Moves[0] == b.Moves[0] && a.Moves[1] == b.Moves[1]
}

// unitOf returns the unit of a lone game or a pair from its first player's
// scores in its games.
func unitOf(scores ...float64) rating.Unit {
	var u rating.Unit
	for _, x := range scores {
		switch x {
		case 1:
			u.W++
		case 0:
			u.L++
		default:
			u.D++
		}
	}
	return u
}
