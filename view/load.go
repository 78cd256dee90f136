package view

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
)

// Format is the kind of a file that holds positions or games.
type Format int

// The formats Detect tells apart.
const (
	// Archive is the arimaa.com game archive format (games.txt files).
	Archive Format = iota
	// Positions is a position file: one AEI setposition string a line.
	Positions
	// MoveList is a move list: turns opened by their labels (see ParseMoveList).
	MoveList
	// Shard is a self-play shard, an Arrow IPC file.
	Shard
)

// gamesSuffix ends the name of the games file of a shard or of a match.
const gamesSuffix = "games.txt"

// Detect tells the format of the file at path from its name (.arrow is a
// shard) or its first line that is neither blank nor a # comment: a header with
// a movelist column is an archive, a side letter and a bracket a position, a
// turn label a move list.
func Detect(path string) (Format, error) {
	if strings.HasSuffix(path, ".arrow") {
		return Shard, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		return detectLine(path, line)
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return 0, fmt.Errorf("%s: empty file", path)
}

func detectLine(path, line string) (Format, error) {
	switch {
	case slices.Contains(strings.Split(line, "\t"), "movelist"):
		return Archive, nil
	case len(line) > 2 && strings.ContainsRune("gswb", rune(line[0])) && strings.HasPrefix(strings.TrimLeft(line[1:], " "), "["):
		return Positions, nil
	case labelRE.MatchString(strings.Fields(line)[0]):
		return MoveList, nil
	}
	return 0, fmt.Errorf("%s: not a game archive (a header with a movelist column), a position file (g [...] lines) or a move list (turns such as 2g Ed2n ...)", path)
}

// LoadGame returns the game id of path ("" for the first game of a file):
//   - an archive file (docs/strength/*.games.txt, a self-play
//     shard-NNNNN.games.txt, an arimaa.com archive);
//   - a move list file;
//   - a self-play shard (.arrow): the game's rows, with the games file beside
//     the shard when there is one;
//   - a directory (a run, a generation, the -out of eval), searched for
//     games files; id is then needed unless it holds one game only, and must
//     name one game of one file.
//
// A game of a self-play games file gets what the search found before each move
// from the shard beside it (shard-NNNNN.arrow), when there is one.
func LoadGame(path, id string) (*Game, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return loadFromDir(path, id)
	}
	f, err := Detect(path)
	if err != nil {
		return nil, err
	}
	switch f {
	case Shard:
		return loadFromShard(path, id)
	case MoveList:
		if id != "" {
			return nil, fmt.Errorf("%s: a move list holds one game, without an id", path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		g, err := ParseMoveList(string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return g, nil
	case Positions:
		return nil, fmt.Errorf("%s: a position file holds positions, not a game", path)
	}
	recs, err := readArchive(path)
	if err != nil {
		return nil, err
	}
	rec, err := pick(recs, path, id)
	if err != nil {
		return nil, err
	}
	return gameOfRecord(rec, path)
}

// readArchive reads the archive file at path.
func readArchive(path string) ([]engine.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return engine.ReadArchive(bufio.NewReader(f), path)
}

// pick returns the game of recs with the given id, or the first for "".
func pick(recs []engine.Record, path, id string) (engine.Record, error) {
	if len(recs) == 0 {
		return engine.Record{}, fmt.Errorf("%s: no games", path)
	}
	if id == "" {
		return recs[0], nil
	}
	for _, r := range recs {
		if r.ID == id {
			return r, nil
		}
	}
	ids := make([]string, 0, 5)
	for _, r := range recs[:min(len(recs), cap(ids))] {
		ids = append(ids, r.ID)
	}
	more := ""
	if len(recs) > len(ids) {
		more = ", ..."
	}
	return engine.Record{}, fmt.Errorf("%s: no game %q; its %d games are %s%s", path, id, len(recs), strings.Join(ids, ", "), more)
}

// gameOfRecord lays out rec, read from the games file path, with the search
// data of the shard beside it when there is one.
func gameOfRecord(rec engine.Record, path string) (*Game, error) {
	g, err := FromRecord(rec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	shard, ok := shardOf(path)
	if !ok {
		return g, nil
	}
	gid, err := strconv.ParseUint(rec.ID, 10, 64)
	if err != nil {
		return g, nil // not a self-play game id
	}
	rows, err := data.ReadRows(shard)
	if err != nil {
		return nil, err // names the shard
	}
	if err := g.AttachRows(rowsOf(rows, gid)); err != nil {
		return nil, fmt.Errorf("%s: %w", shard, err)
	}
	return g, nil
}

// shardOf returns the shard beside the games file path
// (shard-00012.games.txt: shard-00012.arrow) when it exists.
func shardOf(path string) (string, bool) {
	base, ok := strings.CutSuffix(path, "."+gamesSuffix)
	if !ok {
		return "", false
	}
	shard := base + ".arrow"
	if _, err := os.Stat(shard); err != nil {
		return "", false
	}
	return shard, true
}

// rowsOf returns the rows of game id.
func rowsOf(rows []data.Row, id uint64) []data.Row {
	var out []data.Row
	for _, r := range rows {
		if r.GameID == id {
			out = append(out, r)
		}
	}
	return out
}

// loadFromShard returns game id of the shard at path ("" for its first game):
// from the games file beside it when there is one (the players and result come
// from there), else from the rows alone.
func loadFromShard(path, id string) (*Game, error) {
	games := strings.TrimSuffix(path, ".arrow") + "." + gamesSuffix
	if _, err := os.Stat(games); err == nil {
		recs, err := readArchive(games)
		if err != nil {
			return nil, err
		}
		rec, err := pick(recs, games, id)
		if err != nil {
			return nil, err
		}
		return gameOfRecord(rec, games)
	}
	rows, err := data.ReadRows(path)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	gid := rows[0].GameID
	if id != "" {
		if gid, err = strconv.ParseUint(id, 10, 64); err != nil {
			return nil, fmt.Errorf("%s: game id %q: self-play game ids are numbers", path, id)
		}
	}
	mine := rowsOf(rows, gid)
	if len(mine) == 0 {
		return nil, fmt.Errorf("%s: no game %s", path, id)
	}
	g, err := FromRows(mine)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// found is a game of a directory: the file and the record.
type found struct {
	path string
	rec  engine.Record
}

// loadFromDir finds game id in the games files under dir.
func loadFromDir(dir, id string) (*Game, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), gamesSuffix) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no games files (*%s) in the directory", dir, gamesSuffix)
	}
	var hits []found
	total := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		// Parse only the files that may hold the game: its id opens a line.
		if id != "" && !bytes.Contains(b, []byte("\n"+id+"\t")) {
			continue
		}
		recs, err := engine.ReadArchive(bytes.NewReader(b), p)
		if err != nil {
			return nil, err
		}
		total += len(recs)
		for _, r := range recs {
			if id == "" || r.ID == id {
				hits = append(hits, found{p, r})
			}
		}
	}
	switch {
	case len(hits) == 1:
		return gameOfRecord(hits[0].rec, hits[0].path)
	case len(hits) == 0 && id != "":
		return nil, fmt.Errorf("%s: no game %q in its %s", dir, id, count(len(files), "games file"))
	case len(hits) == 0:
		return nil, fmt.Errorf("%s: the games files hold no games", dir)
	case id == "":
		return nil, fmt.Errorf("%s: %s in %s; name one with -game ID (such as %s of %s)", dir, count(total, "game"), count(len(files), "file"), hits[0].rec.ID, hits[0].path)
	}
	where := make([]string, 0, 3)
	for _, h := range hits[:min(len(hits), cap(where))] {
		where = append(where, h.path)
	}
	if len(hits) > len(where) {
		where = append(where, "...")
	}
	return nil, fmt.Errorf("%s: game %q is in %d files (%s); give the file, or a directory holding only one of them",
		dir, id, len(hits), strings.Join(where, ", "))
}

// ReadPositions reads a position file: one AEI setposition string a line,
// blank lines and # comments skipped. It returns the positions with their line
// numbers; a bad line is an error naming the file and the line.
func ReadPositions(path string) ([]engine.Position, []int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var ps []engine.Position
	var lines []int
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		t := strings.TrimSpace(text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		// Inside the brackets spaces are empty squares: trim only outside them.
		p, err := engine.ParsePosition(strings.TrimRight(strings.TrimLeft(text, " \t"), " \t\r"))
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		ps = append(ps, p)
		lines = append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(ps) == 0 {
		return nil, nil, errors.New(path + ": no positions")
	}
	return ps, lines, nil
}

// count writes n things, such as "1 file" or "3 files".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
