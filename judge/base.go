package judge

import (
	"encoding/json"
	"fmt"
	"io"
)

// ReadReport reads a report that Run wrote as JSON (analyze regret -json)
// from r, named name in errors. A report without players, or whose first
// player judged no moves, is an error.
func ReadReport(r io.Reader, name string) (*Report, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var rep Report
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("%s: not a regret report (analyze regret -json): %w", name, err)
	}
	if len(rep.Players) == 0 || len(rep.Players[0].Moves) == 0 {
		return nil, fmt.Errorf("%s: the report holds no judged moves", name)
	}
	if rep.Judge == "" {
		return nil, fmt.Errorf("%s: the report names no judge", name)
	}
	return &rep, nil
}

// PairWithBase compares the first player of r with the first player of an
// earlier report base, position by position, on the positions both judged
// (told by Move.Where): a candidate judged against a baseline run once,
// instead of running the baseline again beside each candidate. Both must
// come from the same judge (its description, options included): scores of
// another judge are not comparable. The result's B is the base player's
// name with name, the base file, after it.
func PairWithBase(r, base *Report, name string) (*Paired, error) {
	if r.Judge != base.Judge {
		return nil, fmt.Errorf("%s: judged by %q, this run by %q: the scores are not comparable", name, base.Judge, r.Judge)
	}
	byWhere := make(map[string]Move, len(base.Players[0].Moves))
	for _, m := range base.Players[0].Moves {
		byWhere[m.Where] = m
	}
	var a, b PlayerReport
	for _, m := range r.Players[0].Moves {
		if bm, ok := byWhere[m.Where]; ok && bm.Position == m.Position {
			a.Moves = append(a.Moves, m)
			b.Moves = append(b.Moves, bm)
		}
	}
	if len(a.Moves) == 0 {
		return nil, fmt.Errorf("%s: no position of this run is in the report (draw the positions with the same files, -n, -seed, -mover and -turns)", name)
	}
	a.Name = r.Players[0].Name
	b.Name = fmt.Sprintf("%s (%s)", base.Players[0].Name, name)
	return pair(a, b), nil
}
