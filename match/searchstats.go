package match

import (
	"fmt"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

// SearchStats sums what a search player's searches did, in a game or over a
// match: the moves searched, their simulations, and where a deep scan ran
// (mcts.DeepStats) the moves it valued at two turns. A deep scan that
// values few moves leaves the choice to the tree: an evaluation that is
// dear to compute, or a budget that is short, shows here before it shows in
// the games (docs/strength.md, the forty-ninth round).
type SearchStats struct {
	Moves       int   `json:"moves"`
	Simulations int64 `json:"simulations"`
	// DeepScans is how many of the moves ran a deep scan as far as listing
	// its candidates (a search bounded by time whose tree overran its share
	// lists none); DeepValued and DeepVerified sum the moves those scans
	// valued at two turns and gave a third.
	DeepScans    int `json:"deep_scans"`
	DeepValued   int `json:"deep_valued"`
	DeepVerified int `json:"deep_verified"`
	// DeepThin counts the deep scans that valued one move or none at two
	// turns: the move was the tree's, checked by a second turn at most.
	DeepThin int `json:"deep_thin"`
	// StepSearches is how many of the moves ran the step search
	// (mcts.ScanStep); StepTwoTurns how many of those finished two whole
	// turns, StepNarrow how many of those over fewer of the root's moves
	// than its cut (its deadline came while it widened), and StepNodes the
	// nodes they searched.
	StepSearches int   `json:"step_searches,omitempty"`
	StepTwoTurns int   `json:"step_two_turns,omitempty"`
	StepNarrow   int   `json:"step_narrow,omitempty"`
	StepNodes    int64 `json:"step_nodes,omitempty"`
}

// SearchStatser is implemented by the game players of the search: the sums
// of their searches in the game so far.
type SearchStatser interface {
	SearchStats() SearchStats
}

// addResult counts one search.
func (s *SearchStats) addResult(r *mcts.Result) {
	s.Moves++
	s.Simulations += int64(r.Simulations)
	if d := r.Deep; d != nil {
		s.DeepScans++
		s.DeepValued += d.Valued
		s.DeepVerified += d.Verified
		if d.Valued <= 1 {
			s.DeepThin++
		}
	}
	if st := r.Step; st != nil {
		s.StepSearches++
		s.StepNodes += st.Nodes
		if st.Depth >= 2*engine.MaxSteps {
			s.StepTwoTurns++
			if st.Narrow {
				s.StepNarrow++
			}
		}
	}
}

// add sums o into s.
func (s *SearchStats) add(o SearchStats) {
	s.Moves += o.Moves
	s.Simulations += o.Simulations
	s.DeepScans += o.DeepScans
	s.DeepValued += o.DeepValued
	s.DeepVerified += o.DeepVerified
	s.DeepThin += o.DeepThin
	s.StepSearches += o.StepSearches
	s.StepTwoTurns += o.StepTwoTurns
	s.StepNarrow += o.StepNarrow
	s.StepNodes += o.StepNodes
}

// String gives the sums as means a move, such as "812 moves, 14210
// simulations a move; deep scan: 34.2 moves valued at two turns, 2.04 given
// a third, one or none valued in 8 % of scans", or with the step search
// "...; step search: two turns finished in 93 % of 812 searches (over part
// of the cut in 12 %), 412030 nodes a search".
func (s SearchStats) String() string {
	if s.Moves == 0 {
		return "no moves searched"
	}
	out := fmt.Sprintf("%d moves, %d simulations a move", s.Moves, s.Simulations/int64(s.Moves))
	if s.StepSearches > 0 {
		n := float64(s.StepSearches)
		out += fmt.Sprintf("; step search: two turns finished in %.0f %% of %d searches", 100*float64(s.StepTwoTurns)/n, s.StepSearches)
		if s.StepNarrow > 0 {
			out += fmt.Sprintf(" (over part of the cut in %.0f %%)", 100*float64(s.StepNarrow)/n)
		}
		out += fmt.Sprintf(", %.0f nodes a search", float64(s.StepNodes)/n)
	}
	if s.DeepScans == 0 {
		return out + "; no deep scan"
	}
	n := float64(s.DeepScans)
	return out + fmt.Sprintf("; deep scan: %.1f moves valued at two turns, %.2f given a third, one or none valued in %.0f %% of scans",
		float64(s.DeepValued)/n, float64(s.DeepVerified)/n, 100*float64(s.DeepThin)/n)
}
