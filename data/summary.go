package data

// Summary gathers the figures of a dataset while its batches are read (see
// Add): the shards, rows and rows of full searches, each game's winner,
// termination and length, and the sums of the features.
type Summary struct {
	Shards       int            // the files of the reader
	FeatureSet   string         // the feature-set version of the first shard
	FeatureNames []string       // and its feature names
	Rows         int64          // the rows added
	FullSearch   int64          // rows of a full search (playout-cap randomization)
	FeatureSums  []float64      // each feature summed over the rows
	Games        []GameSummary  // in the order first seen
	index        map[uint64]int // game id -> its place in Games
}

// GameSummary is what a Summary keeps of one game.
type GameSummary struct {
	ID   uint64 // the game id of its rows
	Rows int    // the rows of the game added
	// Length is the game's plies (moves after the setups): its first
	// row's ply (2g is 0) plus that row's plies_left, which is also right
	// for a labelled shard that holds only some of a game's plies.
	Length      int
	Winner      int8   // 0 Gold, 1 Silver, -1 none (unfinished)
	Termination string // as its first row says
}

// NewSummary returns an empty summary of the dataset r reads.
func NewSummary(r *Reader) *Summary {
	m := r.Meta(0)
	return &Summary{
		Shards:       len(r.Files()),
		FeatureSet:   m.FeatureVersion,
		FeatureNames: m.FeatureNames,
		FeatureSums:  make([]float64, len(m.FeatureNames)),
		index:        make(map[uint64]int),
	}
}

// Add counts the rows of the batch c.
func (s *Summary) Add(c *Columns) {
	s.Rows += int64(c.Len)
	f := c.NumFeatures
	for i := range c.Len {
		if c.FullSearch.Value(i) {
			s.FullSearch++
		}
		for k, v := range c.Features[i*f : (i+1)*f] {
			s.FeatureSums[k] += float64(v)
		}
		id := c.GameID[i]
		at, ok := s.index[id]
		if !ok {
			ply := 2*(int(c.Turn[i])-2) + int(c.Side[i])
			g := GameSummary{ID: id, Winner: -1, Termination: c.TerminationOf(i), Length: ply + int(c.PliesLeft[i])}
			switch c.Result[i] {
			case 1:
				g.Winner = int8(c.Side[i])
			case -1:
				g.Winner = int8(1 - c.Side[i])
			}
			at = len(s.Games)
			s.index[id] = at
			s.Games = append(s.Games, g)
		}
		s.Games[at].Rows++
	}
}

// Results counts the games won by Gold, by Silver, and unfinished.
func (s *Summary) Results() (gold, silver, unfinished int) {
	for _, g := range s.Games {
		switch g.Winner {
		case 0:
			gold++
		case 1:
			silver++
		default:
			unfinished++
		}
	}
	return gold, silver, unfinished
}

// Terminations counts the games by how they ended.
func (s *Summary) Terminations() map[string]int {
	n := make(map[string]int)
	for _, g := range s.Games {
		n[g.Termination]++
	}
	return n
}
