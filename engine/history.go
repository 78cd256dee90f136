package engine

// History counts how often each position (board and side to move) has stood at
// the end of a turn, for the third-repetition rule.
type History struct {
	counts map[BoardKey]int
	twice  int // positions seen at least twice
}

// NewHistory returns an empty history.
func NewHistory() *History { return &History{counts: make(map[BoardKey]int)} }

// Add records one more occurrence of p.
func (h *History) Add(p *Position) {
	k := p.Key()
	h.counts[k]++
	if h.counts[k] == 2 {
		h.twice++
	}
}

// Remove takes back one occurrence of p (for undoing a move).
func (h *History) Remove(p *Position) {
	k := p.Key()
	if h.counts[k] == 2 {
		h.twice--
	}
	if h.counts[k] <= 1 {
		delete(h.counts, k)
		return
	}
	h.counts[k]--
}

// Count returns how often p has occurred.
func (h *History) Count(p *Position) int {
	if h == nil {
		return 0
	}
	return h.counts[p.Key()]
}

// hot reports whether any position has occurred twice, so that a repetition is possible.
func (h *History) hot() bool { return h != nil && h.twice > 0 }

// Clone returns an independent copy of h.
func (h *History) Clone() *History {
	c := &History{counts: make(map[BoardKey]int, len(h.counts)), twice: h.twice}
	for k, v := range h.counts {
		c.counts[k] = v
	}
	return c
}
