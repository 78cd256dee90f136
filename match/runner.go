package match

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arimaalab/arimaalab/engine"
)

// The files a match or a pool writes in its output directory.
const (
	// ResultsFile holds one JSON line per finished game (GameResult), appended
	// and synced as games finish.
	ResultsFile = "results.jsonl"
	// GamesFile holds the games in the arimaa.com archive format.
	GamesFile = "games.txt"
	// SummaryFile holds the final statistics as JSON.
	SummaryFile = "summary.json"
)

// DefaultMaxTurns is the turn after which a game is adjudicated a draw.
const DefaultMaxTurns = 150

// GameResult is one finished game, as a line of the results file.
type GameResult struct {
	// Pairing is the index of the two players' pairing (0 in a match).
	Pairing int `json:"pairing"`
	// Game is the game's index in its pairing: games 2k and 2k+1 are pair k,
	// the same setups with colours swapped; in even games A is Gold.
	Game int `json:"game"`
	// A and B are the pairing's players, Gold the one that played Gold.
	A    string `json:"a"`
	B    string `json:"b"`
	Gold string `json:"gold"`
	// ScoreA is A's score: 1, 1/2 (adjudicated at max turns) or 0.
	ScoreA float64 `json:"score_a"`
	// Winner is "gold", "silver" or "" for a draw.
	Winner string `json:"winner"`
	// Termination is why the game ended (goal, elimination, immobilization,
	// repetition, max-turns).
	Termination string `json:"termination"`
	// Plies is the number of moves played after the setups, one per side's
	// turn (a game that ends at 30s has 58).
	Plies int `json:"plies"`
	// ID is the game's id in the games file.
	ID      string  `json:"id"`
	Seconds float64 `json:"seconds"`
	// SearchA and SearchB sum the searches of A and B in the game, for the
	// players of the search (nil for the others).
	SearchA *SearchStats `json:"search_a,omitempty"`
	SearchB *SearchStats `json:"search_b,omitempty"`
}

// UnmarshalJSON reads a line of the results file strictly: an unknown key is
// an error. The "turns" of files written before the key was named "plies"
// is read as Plies.
func (g *GameResult) UnmarshalJSON(b []byte) error {
	type plain GameResult // without this method
	var v struct {
		plain
		Turns *int `json:"turns"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*g = GameResult(v.plain)
	if v.Turns != nil {
		g.Plies = *v.Turns
	}
	return nil
}

// common holds the settings shared by a match and a pool.
type common struct {
	// Concurrency is the number of games played at once (0: one per core,
	// divided by the threads of the most threaded player).
	Concurrency int
	// Seed makes the setups and the players' seeds reproducible: game i of a
	// pairing is the same whenever it is played.
	Seed uint64
	// MaxTurns ends a game still running after this many turns as a draw
	// (0: DefaultMaxTurns).
	MaxTurns int
	// Setups is the setup distribution.
	Setups SetupConfig
	// Out is the directory of the results, games and summary ("" writes
	// nothing).
	Out string
	// Resume continues the match or pool in Out: finished games are read back
	// and not played again. Without it an Out holding results is an error.
	Resume bool
	// Log receives warnings and a line per game at debug level (nil: slog's
	// default logger).
	Log *slog.Logger
}

// pairing is two players (indices) and the games they play.
type pairing struct {
	a, b  int
	games int
}

type job struct{ pairing, game int }

// runner plays the games of some pairings, resumably.
type runner struct {
	common
	players  []Player
	pairings []pairing
	meta     any // written to metaFile; must match on resume
	metaFile string
	// metaChecked names the keys of meta that the caller compared with the
	// earlier run's itself; the resume check leaves them out.
	metaChecked []string
	// done is called by the collecting goroutine for every finished game,
	// resumed ones first; it returns true to stop the run.
	done func(GameResult) bool
	// beforePlay, when set, is called once the resumed games are counted.
	beforePlay func()

	results, games *os.File
}

func (r *runner) log() *slog.Logger {
	if r.Log != nil {
		return r.Log
	}
	return slog.Default()
}

func (r *runner) maxTurns() int {
	if r.MaxTurns > 0 {
		return r.MaxTurns
	}
	return DefaultMaxTurns
}

func (r *runner) concurrency() int {
	if r.Concurrency > 0 {
		return r.Concurrency
	}
	threads := 1
	for _, p := range r.players {
		threads = max(threads, p.Threads())
	}
	return max(1, runtime.NumCPU()/threads)
}

// run plays every game not yet finished and returns when all are, when done
// asks to stop, on the first error or when ctx is cancelled (ctx's error).
func (r *runner) run(ctx context.Context) error {
	finished, err := r.open()
	if err != nil {
		return err
	}
	defer r.close()
	stopped := false
	for _, g := range finished {
		if r.done(g) {
			stopped = true
		}
	}
	if stopped {
		return nil
	}
	if r.beforePlay != nil {
		r.beforePlay()
	}
	var todo []job
	maxGames := 0
	for _, p := range r.pairings {
		maxGames = max(maxGames, p.games)
	}
	seen := map[job]bool{}
	for _, g := range finished {
		seen[job{g.Pairing, g.Game}] = true
	}
	for i := 0; i < maxGames; i += 2 { // pair by pair, every pairing in turn
		for pi, p := range r.pairings {
			for _, gi := range []int{i, i + 1} {
				if gi < p.games && !seen[job{pi, gi}] {
					todo = append(todo, job{pi, gi})
				}
			}
		}
	}
	if len(todo) == 0 {
		return nil
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job)
	type outcome struct {
		res GameResult
		rec engine.Record
		err error
	}
	outs := make(chan outcome)
	var wg sync.WaitGroup
	for range min(r.concurrency(), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				res, rec, err := r.play(ctx, j)
				select {
				case outs <- outcome{res, rec, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, j := range todo {
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(outs)
	}()

	var first error
	for o := range outs {
		if first != nil || ctx.Err() != nil {
			continue // stopping: drain
		}
		if o.err != nil {
			if !errors.Is(o.err, context.Canceled) && !errors.Is(o.err, context.DeadlineExceeded) {
				first = o.err
			}
			cancel()
			continue
		}
		if err := r.save(o.res, o.rec); err != nil {
			first = err
			cancel()
			continue
		}
		if r.done(o.res) {
			stopped = true
			cancel()
		}
	}
	switch {
	case first != nil:
		return first
	case stopped:
		return nil
	}
	return context.Cause(ctx) // nil when every game was played
}

// play plays game j.
func (r *runner) play(ctx context.Context, j job) (GameResult, engine.Record, error) {
	start := time.Now()
	p := r.pairings[j.pairing]
	a, b := r.players[p.a], r.players[p.b]
	setups := drawSetups(r.Setups, r.Seed, j.pairing, j.game/2)
	roles := [2]Player{a, b} // by colour
	if j.game%2 == 1 {
		roles = [2]Player{b, a}
	}
	label := fmt.Sprintf("game %d of %s vs %s", j.game, a.Name(), b.Name())
	g := engine.NewGame()
	for c := range engine.Color(2) {
		if err := g.Setup(c, setups[c]); err != nil {
			return GameResult{}, engine.Record{}, fmt.Errorf("%s: setup: %w", label, err)
		}
	}
	var gps [2]GamePlayer
	defer func() {
		for _, gp := range gps {
			if gp != nil {
				gp.Close()
			}
		}
	}()
	for c := range engine.Color(2) {
		gp, err := roles[c].NewGame(ctx, c, mix(r.Seed, uint64(j.pairing), uint64(j.game), roleOf(c, j.game)))
		if err != nil {
			if ctx.Err() != nil {
				return GameResult{}, engine.Record{}, ctx.Err()
			}
			return GameResult{}, engine.Record{}, fmt.Errorf("%s: %s: %w", label, roles[c].Name(), err)
		}
		gps[c] = gp
	}
	for !g.Outcome().Over() && g.TurnNumber() <= r.maxTurns() {
		side := g.Side()
		mv, err := gps[side].Move(ctx, g)
		if ctx.Err() != nil {
			return GameResult{}, engine.Record{}, ctx.Err()
		}
		if err != nil {
			return GameResult{}, engine.Record{}, fmt.Errorf("%s, turn %s: %s: %w", label, g.Label(), roles[side].Name(), err)
		}
		if err := g.Play(mv); err != nil {
			return GameResult{}, engine.Record{}, &IllegalMoveError{Game: label, Turn: g.Label(), Player: roles[side].Name(), Move: mv, Err: err}
		}
	}
	out := g.Outcome()
	res := GameResult{
		Pairing: j.pairing, Game: j.game, A: a.Name(), B: b.Name(), Gold: roles[engine.Gold].Name(),
		Plies: len(g.Moves()), ID: gameID(j), Seconds: time.Since(start).Seconds(),
	}
	for c := range engine.Color(2) {
		if st, ok := gps[c].(SearchStatser); ok {
			s := st.SearchStats()
			if roleOf(c, j.game) == 0 {
				res.SearchA = &s
			} else {
				res.SearchB = &s
			}
		}
	}
	event := fmt.Sprintf("arimaalab eval: %s vs %s, game %d", a.Name(), b.Name(), j.game)
	if out.Over() {
		res.Winner = strings.ToLower(out.Winner.Name())
		res.Termination = out.Reason.String()
		if (out.Winner == engine.Gold) == (j.game%2 == 0) {
			res.ScoreA = 1
		}
	} else {
		res.ScoreA = 0.5
		res.Termination = engine.MaxTurns.String()
		event += ", adjudicated a draw at max-turns"
	}
	rec := g.Record(res.ID)
	rec.Gold, rec.Silver = roles[engine.Gold].Name(), roles[engine.Silver].Name()
	rec.SetField("event", event)
	rec.SetField("site", "arimaalab")
	r.log().Debug("game finished", "pairing", j.pairing, "game", j.game, "gold", res.Gold, "winner", res.Winner,
		"termination", res.Termination, "plies", res.Plies, "seconds", res.Seconds)
	return res, rec, nil
}

// roleOf is 0 when colour c is A's in game g (A is Gold in even games), 1
// when it is B's.
func roleOf(c engine.Color, g int) uint64 {
	if (c == engine.Gold) != (g%2 == 0) {
		return 1
	}
	return 0
}

// IllegalMoveError is a move a player gave that the rules refuse.
type IllegalMoveError struct {
	Game, Turn, Player, Move string
	Err                      error
}

// Error says who played what, where, and why it is illegal.
func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("%s, turn %s: %s played an illegal move %q: %v", e.Game, e.Turn, e.Player, e.Move, e.Err)
}

// Unwrap returns the rules' objection.
func (e *IllegalMoveError) Unwrap() error { return e.Err }

// gameID is the id of game j in the games file.
func gameID(j job) string { return strconv.Itoa(j.pairing*1_000_000 + j.game + 1) }

// open prepares the output directory and returns the games already finished.
func (r *runner) open() ([]GameResult, error) {
	if r.Out == "" {
		return nil, nil
	}
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	resultsPath := filepath.Join(r.Out, ResultsFile)
	metaPath := filepath.Join(r.Out, r.metaFile)
	metaJSON, err := json.MarshalIndent(r.meta, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	metaJSON = append(metaJSON, '\n')
	st, statErr := os.Stat(resultsPath)
	exists := statErr == nil && st.Size() > 0
	if exists && !r.Resume {
		return nil, fmt.Errorf("match: %s holds results already: -resume continues them, or choose another output directory", r.Out)
	}
	var finished []GameResult
	if exists {
		old, err := os.ReadFile(metaPath)
		if err != nil {
			return nil, fmt.Errorf("match: resume: %w", err)
		}
		if err := sameMeta(old, metaJSON, r.metaChecked...); err != nil {
			return nil, fmt.Errorf("match: resume %s: %w", r.Out, err)
		}
		finished, err = r.readResults(resultsPath)
		if err != nil {
			return nil, err
		}
	} else if statErr != nil && !errors.Is(statErr, fs.ErrNotExist) {
		return nil, fmt.Errorf("match: %w", statErr)
	}
	// The games file holds the records of the finished games and no other:
	// with no results (a fresh run, or a results file deleted by hand) it
	// starts afresh.
	if err := r.filterGames(finished); err != nil {
		return nil, err
	}
	if err := writeFileSync(metaPath, metaJSON); err != nil {
		return nil, err
	}
	r.results, err = os.OpenFile(resultsPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	gamesPath := filepath.Join(r.Out, GamesFile)
	r.games, err = os.OpenFile(gamesPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		r.results.Close()
		return nil, fmt.Errorf("match: %w", err)
	}
	if st, err := r.games.Stat(); err == nil && st.Size() == 0 {
		var buf bytes.Buffer
		if err := engine.WriteArchive(&buf, nil); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
		if err := appendSync(r.games, buf.Bytes()); err != nil {
			return nil, err
		}
	}
	return finished, nil
}

func (r *runner) close() {
	if r.results != nil {
		r.results.Close()
	}
	if r.games != nil {
		r.games.Close()
	}
}

// sameMeta reports how a resumed run's settings differ from the saved ones;
// the number of games may change, and the keys skip are not compared.
func sameMeta(old, cur []byte, skip ...string) error {
	var a, b map[string]any
	if err := json.Unmarshal(old, &a); err != nil {
		return err
	}
	if err := json.Unmarshal(cur, &b); err != nil {
		return err
	}
	for _, k := range append([]string{"games", "games_per_pair"}, skip...) {
		delete(a, k)
		delete(b, k)
	}
	for k, v := range b {
		x, _ := json.Marshal(a[k])
		y, _ := json.Marshal(v)
		if !bytes.Equal(x, y) {
			return fmt.Errorf("setting %q was %s, now %s: resume with the same settings", k, x, y)
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return fmt.Errorf("setting %q was set before", k)
		}
	}
	return nil
}

// readResults reads the finished games of the results file: a last line cut
// short by a crash is dropped (and cut from the file); a game listed twice
// counts once; games beyond the pairings' numbers of games are left out.
func (r *runner) readResults(path string) ([]GameResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		r.log().Warn("dropping an incomplete last line of the results", "file", path)
		if err := os.Truncate(path, int64(i+1)); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
		data = data[:i+1]
	}
	var out []GameResult
	seen := map[job]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var g GameResult
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&g); err != nil {
			return nil, fmt.Errorf("match: %s:%d: %w", path, line, err)
		}
		if g.Pairing < 0 || g.Pairing >= len(r.pairings) || g.Game < 0 {
			return nil, fmt.Errorf("match: %s:%d: game %d of pairing %d is not part of this run", path, line, g.Game, g.Pairing)
		}
		p := r.pairings[g.Pairing]
		if g.A != r.players[p.a].Name() || g.B != r.players[p.b].Name() {
			return nil, fmt.Errorf("match: %s:%d: pairing %d is %s vs %s, not %s vs %s", path, line, g.Pairing, g.A, g.B, r.players[p.a].Name(), r.players[p.b].Name())
		}
		j := job{g.Pairing, g.Game}
		if seen[j] || g.Game >= p.games {
			continue
		}
		seen[j] = true
		out = append(out, g)
	}
	return out, sc.Err()
}

// filterGames rewrites the games file with the records of the finished games
// only, once each, in its order: a record written just before a crash, whose
// result line was not, is dropped (the game is played again), and so are the
// records of results deleted by hand, with a warning.
func (r *runner) filterGames(finished []GameResult) error {
	path := filepath.Join(r.Out, GamesFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	ids := map[string]bool{}
	for _, g := range finished {
		ids[g.ID] = true
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return nil
	}
	var buf bytes.Buffer
	buf.WriteString(lines[0])
	kept := map[string]bool{}
	dropped := 0
	for _, l := range lines[1:] {
		if !strings.HasSuffix(l, "\n") {
			continue // cut short
		}
		recs, err := engine.ReadArchive(strings.NewReader(lines[0]+l), path)
		if err != nil || len(recs) != 1 {
			dropped++
			continue
		}
		id := recs[0].ID
		if ids[id] && !kept[id] {
			kept[id] = true
			buf.WriteString(l)
		} else {
			dropped++
		}
	}
	if buf.Len() == len(data) {
		return nil
	}
	if dropped > 1 {
		// One is what a crash between a record and its result leaves.
		r.log().Warn("dropping game records without a result", "file", path, "records", dropped, "kept", len(kept))
	}
	return writeFileSync(path, buf.Bytes())
}

// save appends a finished game to the games file, then its result line.
func (r *runner) save(res GameResult, rec engine.Record) error {
	if r.Out == "" {
		return nil
	}
	var buf bytes.Buffer
	if err := engine.WriteArchive(&buf, []engine.Record{rec}); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	line := buf.Bytes()[bytes.IndexByte(buf.Bytes(), '\n')+1:]
	if err := appendSync(r.games, line); err != nil {
		return err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return appendSync(r.results, append(b, '\n'))
}

func appendSync(f *os.File, b []byte) error {
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return nil
}

// writeFileSync writes a file safely: to path.tmp, synced, renamed over path.
func writeFileSync(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("match: %w", err)
	}
	return nil
}
