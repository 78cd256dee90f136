package match

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// A pool's pairings are numbered in the order players joined it: the pairings
// of the second player with the first, then those of the third with the first
// two, and so on (for a gauntlet, its pairing with each player in turn). The
// number of a pairing seeds its setups and its players, and names its games,
// so a pool that gains players keeps the numbers of its earlier pairings and
// appends the new ones: a pool extended from n players to n+1 plays the same
// games as a pool of the n+1 players played in one go.
//
// pool.json lists the pairings by name. A pool written before it did (no
// "pairings" key) numbered a round robin row by row (the first player with
// each of the others, then the second, ...); such a pool is resumed, and
// extended, in its own order.

// earlierPool returns the settings of the pool in out that a run with resume
// continues: nil when there is none (no out, no finished game, or no resume:
// the runner then starts afresh or refuses).
func earlierPool(out string, resume bool) (*poolMeta, error) {
	if out == "" || !resume {
		return nil, nil
	}
	st, err := os.Stat(filepath.Join(out, ResultsFile))
	if errors.Is(err, fs.ErrNotExist) || (err == nil && st.Size() == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pool: %w", err)
	}
	path := filepath.Join(out, "pool.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("pool: resume: %w", err)
	}
	var m poolMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("pool: resume: %s: %w", path, err)
	}
	if len(m.Describe) != len(m.Players) || len(m.Hashes) != len(m.Players) {
		return nil, fmt.Errorf("pool: resume: %s: players, describe and hashes differ in length", path)
	}
	return &m, nil
}

// planPool orders the players of a pool (all, the gauntlet last when there is
// one) and numbers its pairings: for a fresh pool (prior nil) in the order
// players join, for a resumed one the earlier pairings first, in their
// earlier order, then those of the new players. It returns the players in
// their new order and the pairings as indices into it, A first. Without
// extend, a resumed pool must have the same players as before (in any order).
func planPool(prior *poolMeta, all []Player, gauntlet string, extend bool) ([]Player, [][2]int, error) {
	if prior == nil {
		return all, joinOrder(len(all), 0, gauntletIndex(all, gauntlet)), nil
	}
	byName := map[string]int{}
	for i, p := range all {
		byName[p.Name()] = i
	}
	var ordered []Player
	seen := map[string]bool{}
	for k, name := range prior.Players {
		i, ok := byName[name]
		if !ok {
			return nil, nil, fmt.Errorf("pool: resume: %q played the earlier games of the pool but is not one of its players now: keep it, or choose another output directory", name)
		}
		p := all[i]
		if d, h := p.Describe(), hashOf(p); d != prior.Describe[k] || h != prior.Hashes[k] {
			return nil, nil, fmt.Errorf("pool: resume: player %q was %q (weights %q), now %q (weights %q): resume with the same players", name, prior.Describe[k], prior.Hashes[k], d, h)
		}
		ordered = append(ordered, p)
		seen[name] = true
	}
	var added []string
	for _, p := range all {
		if !seen[p.Name()] {
			ordered = append(ordered, p)
			added = append(added, p.Name())
		}
	}
	if len(added) > 0 && !extend {
		return nil, nil, fmt.Errorf("pool: resume: players %q are new to the pool: a pool gains players only when extended", added)
	}
	index := map[string]int{}
	for i, p := range ordered {
		index[p.Name()] = i
	}
	var pairs [][2]int
	if prior.Pairings != nil {
		for _, ab := range prior.Pairings {
			i, ok1 := index[ab[0]]
			j, ok2 := index[ab[1]]
			if !ok1 || !ok2 {
				return nil, nil, fmt.Errorf("pool: resume: pairing %s vs %s of pool.json: not players of the pool", ab[0], ab[1])
			}
			pairs = append(pairs, [2]int{i, j})
		}
	} else {
		pairs = legacyOrder(len(prior.Players), gauntletIndex(ordered[:len(prior.Players)], prior.Gauntlet))
	}
	pairs = append(pairs, joinOrder(len(ordered), len(prior.Players), gauntletIndex(ordered, gauntlet))...)
	return ordered, pairs, nil
}

// gauntletIndex returns the index of the player named gauntlet, -1 for "".
func gauntletIndex(ps []Player, gauntlet string) int {
	if gauntlet == "" {
		return -1
	}
	return slices.IndexFunc(ps, func(p Player) bool { return p.Name() == gauntlet })
}

// joinOrder numbers the pairings of the players known to n-1 in the order
// they joined, the first known ones having played before: the pairings of
// each player from known on with those before it; with a gauntlet g, its
// pairing with each player from known on, the gauntlet first. joinOrder(n,
// 0, g) numbers a whole pool, and the pairings of the first m players are
// its first ones whatever the players after them.
func joinOrder(n, known, g int) [][2]int {
	var out [][2]int
	for j := known; j < n; j++ {
		switch {
		case g < 0:
			for i := range j {
				out = append(out, [2]int{i, j})
			}
		case j != g:
			out = append(out, [2]int{g, j})
		}
	}
	return out
}

// legacyOrder numbers the pairings of a pool written before pool.json listed
// them: a round robin row by row, or a gauntlet g against each player in turn.
func legacyOrder(n, g int) [][2]int {
	var out [][2]int
	if g >= 0 {
		for i := range n {
			if i != g {
				out = append(out, [2]int{g, i})
			}
		}
		return out
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			out = append(out, [2]int{i, j})
		}
	}
	return out
}
