package policy

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
)

// addShards appends the decisions of the self-play rows of the dataset
// paths (shard files, directories or globs, as data.Open takes them): every
// row of a full search, its policy column's moves weighted by their visits.
// A row goes to held when its game is held out (data.HeldOut with share val
// and seed: the evaluation trainer's split), else to fit. It returns the rows and moves added to each.
func addShards(ctx context.Context, paths []string, val float64, seed uint64, fit, held *Examples, rep *Report) error {
	r, err := data.Open(paths...)
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	defer r.Close()
	fitGames, heldGames := map[uint64]bool{}, map[uint64]bool{}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("policy: %w", err)
		}
		file := r.Files()[r.File()]
		c, err := data.ColumnsOf(rec)
		if err != nil {
			return fmt.Errorf("policy: %s: %w", file, err)
		}
		for i := range c.Len {
			if !c.FullSearch.Value(i) {
				continue
			}
			var bits [data.BoardLen]engine.Bitboard
			for k := range bits {
				bits[k] = engine.Bitboard(c.Board[i*data.BoardLen+k])
			}
			pos, err := engine.PositionFromBits(bits, engine.Color(c.Side[i]))
			if err != nil {
				return fmt.Errorf("policy: %s: game %d, turn %d: %w", file, c.GameID[i], c.Turn[i], err)
			}
			lo, hi := c.PolicyOffsets[i], c.PolicyOffsets[i+1]
			moves := make([]string, 0, hi-lo)
			for k := lo; k < hi; k++ {
				moves = append(moves, c.PolicyMove.Value(int(k)))
			}
			ex, games, rows, mv := fit, fitGames, &rep.Rows, &rep.Moves
			if data.HeldOut(c.GameID[i], seed, val) {
				ex, games, rows, mv = held, heldGames, &rep.HeldRows, &rep.HeldMoves
			}
			n, err := ex.AddVisits(pos, moves, c.PolicyVisits[lo:hi])
			if err != nil {
				return fmt.Errorf("policy: %s: game %d, turn %d: %w", file, c.GameID[i], c.Turn[i], err)
			}
			if n > 0 {
				games[c.GameID[i]] = true
				*rows++
				*mv += n
			}
		}
	}
	rep.Games += len(fitGames)
	rep.HeldGames += len(heldGames)
	return nil
}
