package engine

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The archive columns a Record reads into its typed fields.
const (
	colID          = "id"
	colGold        = "wusername"
	colSilver      = "busername"
	colResult      = "result"
	colTermination = "termination"
	colPlyCount    = "plycount"
	colMoveList    = "movelist"
)

// TurnSeparator is what separates the turns of an archive movelist: the two
// characters backslash and n, not a newline.
const TurnSeparator = `\n`

// ArchiveColumns returns the 29 column names of the arimaa.com game archive
// files, in their order.
func ArchiveColumns() []string {
	return []string{
		"id", "wplayerid", "bplayerid", "wusername", "busername", "wtitle", "btitle",
		"wcountry", "bcountry", "wrating", "brating", "wratingk", "bratingk", "wtype",
		"btype", "event", "site", "timecontrol", "postal", "startts", "endts", "result",
		"termination", "plycount", "mode", "rated", "corrupt", "movelist", "events",
	}
}

// Record is one game of an arimaa.com archive file.
//
// The typed fields are read from their columns (id, wusername, busername,
// result, termination, plycount, movelist). Columns and Fields keep every column
// of the line as read, known or not, so that WriteArchive writes the line back
// as it was; WriteArchive writes the typed fields in place of their columns'
// text where they differ from it.
type Record struct {
	// ID is the game's id in the archive, such as "669122".
	ID string
	// Gold and Silver are the players' user names.
	Gold, Silver string
	// Result is the winner; it means nothing when Termination is NotOver.
	Result Color
	// Termination is why the game ended; NotOver for an unfinished game (empty
	// result and termination columns).
	Termination Termination
	// PlyCount is the archive's plycount column.
	PlyCount int
	// Moves holds the turns of the movelist, each with its label, such as
	// "1w Ra1 Rb1 ...", "2w Ed2n Ee2n", "2b ..."; the last may be a bare label
	// such as "37b", a turn the game ended before.
	Moves []string
	// Columns and Fields are the column names and the text of each column.
	// The records read from one file share their Columns: replace it rather
	// than change it in place (SetField does so).
	Columns []string
	Fields  []string
	// Line is the line of the file the record was read from (1 is the header).
	Line int
}

// Field returns the text of the named column, or "" when there is none.
func (r *Record) Field(name string) string {
	if i := slices.Index(r.Columns, name); i >= 0 && i < len(r.Fields) {
		return r.Fields[i]
	}
	return ""
}

// SetField sets the text of the named column, adding the column if needed.
// For the columns of the typed fields, set those instead: they take precedence.
func (r *Record) SetField(name, value string) {
	i := slices.Index(r.Columns, name)
	if i < 0 {
		r.Columns = append(r.Columns, name)
		i = len(r.Columns) - 1
	}
	for len(r.Fields) < len(r.Columns) {
		r.Fields = append(r.Fields, "")
	}
	r.Fields[i] = value
}

// Label returns a short name of the record for messages, such as "game 669122".
func (r *Record) Label() string {
	if r.ID == "" {
		return fmt.Sprintf("game at line %d", r.Line)
	}
	return "game " + r.ID
}

// parseResult reads a result column: w or g for Gold, b or s for Silver, "" for none.
func parseResult(s string) (Color, bool, error) {
	switch s {
	case "w", "g":
		return Gold, true, nil
	case "b", "s":
		return Silver, true, nil
	case "":
		return Gold, false, nil
	}
	return Gold, false, fmt.Errorf("unknown result %q (want w, b, g or s)", s)
}

// parseTermination reads a termination column: one archive letter, or "" for none.
func parseTermination(s string) (Termination, error) {
	switch len(s) {
	case 0:
		return NotOver, nil
	case 1:
		return TerminationFromCode(s[0])
	}
	return NotOver, fmt.Errorf("unknown termination code %q", s)
}

// parsePlyCount reads a plycount column; "" is 0.
func parsePlyCount(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("plycount %q is not a count", s)
	}
	return n, nil
}

// splitMoveList splits a movelist into its turns.
func splitMoveList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, TurnSeparator)
}

// ReadArchive reads game records in the arimaa.com archive format: a header line
// of tab-separated column names, then one game per line. Columns are found by
// name; the header must name id and movelist. The name (a file name) is used in
// errors such as `allgames.txt:12: field "result": unknown result "x"`.
//
// The format has no quoting: a double quote is an ordinary character anywhere
// in a field.
func ReadArchive(r io.Reader, name string) ([]Record, error) {
	cr := csv.NewReader(&quoteEscaper{r: r})
	cr.Comma = '\t'
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: no header line", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	header = slices.Clip(unescapeFields(header))
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\uFEFF")
	}
	col := make(map[string]int, len(header))
	for i, h := range header {
		if _, dup := col[h]; dup {
			return nil, fmt.Errorf("%s:1: column %q named twice", name, h)
		}
		col[h] = i
	}
	for _, need := range []string{colID, colMoveList} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%s:1: no %q column in the header", name, need)
		}
	}
	var recs []Record
	for {
		fields, err := cr.Read()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		rec, err := makeRecord(header, col, unescapeFields(fields), line)
		if err != nil {
			return recs, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		recs = append(recs, rec)
	}
}

// makeRecord builds a Record from the fields of one line.
func makeRecord(header []string, col map[string]int, fields []string, line int) (Record, error) {
	if len(fields) != len(header) {
		if len(fields) < len(header) {
			missing := header[len(fields)]
			return Record{}, fmt.Errorf("truncated record: %d fields, the header has %d (no %q and after)", len(fields), len(header), missing)
		}
		return Record{}, fmt.Errorf("%d fields, the header has %d", len(fields), len(header))
	}
	rec := Record{Columns: header, Fields: fields, Line: line}
	get := func(name string) (string, bool) {
		i, ok := col[name]
		if !ok {
			return "", false
		}
		return fields[i], true
	}
	rec.ID, _ = get(colID)
	if rec.ID == "" {
		return rec, fmt.Errorf("field %q: empty", colID)
	}
	rec.Gold, _ = get(colGold)
	rec.Silver, _ = get(colSilver)
	var hasResult bool
	if s, ok := get(colResult); ok {
		var err error
		if rec.Result, hasResult, err = parseResult(s); err != nil {
			return rec, fmt.Errorf("field %q: %w", colResult, err)
		}
	}
	if s, ok := get(colTermination); ok {
		var err error
		if rec.Termination, err = parseTermination(s); err != nil {
			return rec, fmt.Errorf("field %q: %w", colTermination, err)
		}
		if hasResult != (rec.Termination != NotOver) {
			return rec, fmt.Errorf("field %q: %q with result %q: both are set or neither", colTermination, s, rec.Field(colResult))
		}
	} else if hasResult {
		// A result without a termination column: over, for a reason not given.
		rec.Termination = OtherTermination
	}
	if s, ok := get(colPlyCount); ok {
		var err error
		if rec.PlyCount, err = parsePlyCount(s); err != nil {
			return rec, fmt.Errorf("field %q: %w", colPlyCount, err)
		}
	}
	s, _ := get(colMoveList)
	rec.Moves = splitMoveList(s)
	return rec, nil
}

// WriteArchive writes records in the arimaa.com archive format: the header line,
// then one line per record. The header holds the columns of the records in the
// order first seen (ArchiveColumns when no record has any). Each typed field is
// written in place of its column's text when it differs from it, so records read
// by ReadArchive and left alone are written back byte for byte. Like the archive,
// it writes no quoting: a field holding a tab or a line break is an error.
func WriteArchive(w io.Writer, recs []Record) error {
	var header []string
	for i := range recs {
		for _, c := range recs[i].Columns {
			if !slices.Contains(header, c) {
				header = append(header, c)
			}
		}
	}
	if header == nil {
		header = ArchiveColumns()
	}
	bw := bufio.NewWriter(w)
	if err := writeLine(bw, header, header); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	line := make([]string, len(header))
	for i := range recs {
		rec := &recs[i]
		for j, c := range header {
			line[j] = rec.columnText(c)
		}
		if err := writeLine(bw, line, header); err != nil {
			return fmt.Errorf("%s: %w", rec.Label(), err)
		}
	}
	return bw.Flush()
}

// writeLine writes one tab-separated line; names are the column names.
func writeLine(w *bufio.Writer, fields, names []string) error {
	for i, f := range fields {
		if strings.ContainsAny(f, "\t\r\n") {
			return fmt.Errorf("field %q: %.20q... holds a tab or line break, which the format cannot write", names[i], f)
		}
		if i > 0 {
			w.WriteByte('\t')
		}
		w.WriteString(f)
	}
	_, err := w.WriteString("\n")
	return err
}

// columnText returns the text to write for column c.
func (r *Record) columnText(c string) string {
	raw := r.Field(c)
	switch c {
	case colID:
		return r.ID
	case colGold:
		return r.Gold
	case colSilver:
		return r.Silver
	case colResult:
		if res, has, err := parseResult(raw); err == nil && has == (r.Termination != NotOver) && (!has || res == r.Result) {
			return raw
		}
		if r.Termination == NotOver {
			return ""
		}
		return "wb"[r.Result&1 : r.Result&1+1]
	case colTermination:
		if t, err := parseTermination(raw); err == nil && t == r.Termination {
			return raw
		}
		if r.Termination == NotOver {
			return ""
		}
		return string(r.Termination.Code())
	case colPlyCount:
		if n, err := parsePlyCount(raw); err == nil && n == r.PlyCount {
			return raw
		}
		return strconv.Itoa(r.PlyCount)
	case colMoveList:
		return strings.Join(r.Moves, TurnSeparator)
	}
	return raw
}

// Record returns the game as an archive record with the given id: the
// ArchiveColumns, the movelist of the setups and moves with w/b labels (ending,
// as the archive does, with the bare label of the turn to play), the result and
// termination when the game is over, and the plycount, the number of the last
// turn played. Set the other typed fields and columns (players, event, ...) on
// the result as needed.
func (g *Game) Record(id string) Record {
	rec := Record{ID: id, Columns: ArchiveColumns()}
	rec.Fields = make([]string, len(rec.Columns))
	rec.Moves = g.turns(true)
	if g.nsetups == 2 {
		rec.Moves = append(rec.Moves, turnLabel(g.turn, g.pos.Side, true))
	}
	if g.outcome.Over() {
		rec.Result, rec.Termination = g.outcome.Winner, g.outcome.Reason
	}
	rec.PlyCount = g.turn
	if g.nsetups == 2 && g.pos.Side == Gold {
		rec.PlyCount--
	}
	// Write the typed fields into Fields too, so that Field reads them.
	for i, c := range rec.Columns {
		rec.Fields[i] = rec.columnText(c)
	}
	return rec
}

// parseLabel reads a turn label such as "2g", "17b" or "1w".
func parseLabel(s string) (int, Color, error) {
	if len(s) < 2 {
		return 0, 0, fmt.Errorf("turn label %q: want a number and a side, like 2g", s)
	}
	var c Color
	switch s[len(s)-1] {
	case 'w', 'g':
		c = Gold
	case 'b', 's':
		c = Silver
	default:
		return 0, 0, fmt.Errorf("turn label %q: side %q is not w, b, g or s", s, s[len(s)-1])
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n < 1 || s[0] == '+' || s[0] == '-' {
		return 0, 0, fmt.Errorf("turn label %q: want a number and a side, like 2g", s)
	}
	return n, c, nil
}

// Replay plays the record's movelist, setups and moves, on a new Game, checking
// every turn against the rules. A last turn with a bare label and no steps (the
// turn the game ended before) is skipped. Errors name the game and the turn,
// such as `game 669122, turn 17b: step 2 "Ee6w": ...`; with an error, Replay
// also returns the game as played up to the failing turn.
func Replay(rec Record) (*Game, error) { return ReplayFunc(rec, nil) }

// ReplayFunc is Replay, calling after (when not nil) with the game after each
// turn played, setups included, in order.
func ReplayFunc(rec Record, after func(g *Game)) (*Game, error) {
	g := NewGame()
	for i, text := range rec.Moves {
		text = strings.TrimSpace(text)
		label, body, _ := strings.Cut(text, " ")
		body = strings.TrimSpace(body)
		last := i == len(rec.Moves)-1
		if text == "" && last {
			break
		}
		n, c, err := parseLabel(label)
		if err != nil {
			return g, fmt.Errorf("%s, turn %d: %w", rec.Label(), i+1, err)
		}
		if n != g.TurnNumber() || c != g.Side() {
			return g, fmt.Errorf("%s, turn %s: out of order: turn %s is to play", rec.Label(), label, g.Label())
		}
		if body == "" {
			if last {
				break
			}
			return g, fmt.Errorf("%s, turn %s: %w", rec.Label(), label, errNoSteps)
		}
		if n == 1 {
			err = g.PlaySetup(body)
		} else {
			err = g.Play(body)
		}
		if err != nil {
			return g, fmt.Errorf("%s, turn %s: %w", rec.Label(), label, err)
		}
		if after != nil {
			after(g)
		}
	}
	return g, nil
}

// CheckResult reports whether the record's result agrees with the rules, given
// the game g replayed from it (see Replay).
//
// For an ending the rules decide (goal, elimination, immobilization, repetition)
// the replayed game must be over with the recorded winner and reason. For an
// ending the server records (resignation, time, illegal move, ...) the rules
// must not have ended the game: Replay refuses moves after the end, so a game
// the rules ended before its last turn never gets here, and one they ended with
// its last turn is a mismatch. A record of an unfinished game (termination
// NotOver) must be unfinished by the rules too.
//
// An illegal move is a move the server refused from the player to move, so
// that player must be the loser. Game 669192 of testdata/allgames202602.txt,
// the one such game of the sample, shows what happens: after 31w Silver has
// 21,199 legal moves, so the rules do not end the game (check 6 does not apply:
// only one of Silver's moves would repeat), but Silver sent exactly that move
// (cb3n rc3w rb3s cb4s, which brings a position a third time); the server
// refused it ("position repeats for the 3rd time" in the events column) and
// gave Gold the win, written as result w, termination i, with the movelist
// ending at the bare label 31b. Under RULES.md such a move may not be played;
// a player who nevertheless insists on it cannot continue, so the recorded
// result is consistent with the rules. Should the rules themselves end a game
// by repetition (every move of the player to move a third repetition) and the
// server write the forced refused move as an illegal move, the winner is the
// same, and that record is accepted too.
func CheckResult(rec Record, g *Game) error {
	out := g.Outcome()
	want := Outcome{rec.Result, rec.Termination}
	switch rec.Termination {
	case NotOver:
		if out.Over() {
			return fmt.Errorf("%s: recorded as unfinished, but by the rules %s", rec.Label(), out)
		}
		return nil
	case Goal, Elimination, Immobilization, Repetition:
		if !out.Over() {
			return fmt.Errorf("%s: recorded %s, but by the rules the game is not over", rec.Label(), want)
		}
		if out != want {
			return fmt.Errorf("%s: recorded %s, but by the rules %s", rec.Label(), want, out)
		}
		return nil
	case IllegalMove:
		if loser := rec.Result.Other(); g.Side() != loser {
			return fmt.Errorf("%s: recorded %s, but the loser, %s, was not to move", rec.Label(), want, loser.Name())
		}
		if out == (Outcome{rec.Result, Repetition}) {
			return nil
		}
	}
	if out.Over() {
		return fmt.Errorf("%s: recorded %s, but by the rules %s", rec.Label(), want, out)
	}
	return nil
}

// quoteEscaper hides double quotes from encoding/csv, which would otherwise
// take a field that begins with one for a quoted field and read on across tabs
// and lines. It writes `"` as NUL ' and NUL as NUL NUL; unescapeFields undoes it.
type quoteEscaper struct {
	r      io.Reader
	buf    [8192]byte
	outBuf []byte // escaped bytes of the last read
	out    []byte // the part of outBuf not yet returned
	err    error
}

func (q *quoteEscaper) Read(p []byte) (int, error) {
	for len(q.out) == 0 {
		if q.err != nil {
			return 0, q.err
		}
		n, err := q.r.Read(q.buf[:])
		q.err = err
		in := q.buf[:n]
		out := q.outBuf[:0]
		for len(in) > 0 {
			i := bytes.IndexAny(in, "\"\x00")
			if i < 0 {
				out = append(out, in...)
				break
			}
			out = append(out, in[:i]...)
			if in[i] == '"' {
				out = append(out, 0, '\'')
			} else {
				out = append(out, 0, 0)
			}
			in = in[i+1:]
		}
		q.outBuf, q.out = out, out
		if n == 0 && err == nil {
			return 0, nil
		}
	}
	n := copy(p, q.out)
	q.out = q.out[n:]
	return n, nil
}

// unescapeFields undoes quoteEscaper in place.
func unescapeFields(fields []string) []string {
	for i, f := range fields {
		if strings.IndexByte(f, 0) < 0 {
			continue
		}
		var b strings.Builder
		for j := 0; j < len(f); j++ {
			if f[j] == 0 && j+1 < len(f) {
				j++
				if f[j] == '\'' {
					b.WriteByte('"')
					continue
				}
			}
			b.WriteByte(f[j])
		}
		fields[i] = b.String()
	}
	return fields
}

// Verify replays rec and checks it against its recorded result (CheckResult).
// It returns the number of turns replayed (setups included) and, when the
// record does not replay to its result, an error naming the game and the turn,
// such as `game 669122, turn 37b: recorded Gold wins by goal, ...`.
func Verify(rec Record) (turns int, err error) {
	g, err := Replay(rec)
	if g != nil {
		turns = len(g.Turns())
	}
	if err != nil {
		return turns, err // names the game and the turn
	}
	if err := CheckResult(rec, g); err != nil {
		reason := strings.TrimPrefix(err.Error(), rec.Label()+": ")
		return turns, fmt.Errorf("%s, turn %s: %s", rec.Label(), lastLabel(rec, g), reason)
	}
	return turns, nil
}

// VerifyAll verifies every record on all cores and returns, in the order of
// recs, the turns replayed and the error of each (nil when it matches).
// done, when not nil, is called after each record, from any goroutine.
func VerifyAll(recs []Record, done func()) (turns []int, errs []error) {
	turns = make([]int, len(recs))
	errs = make([]error, len(recs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(len(recs), runtime.GOMAXPROCS(0))) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(recs); i = int(next.Add(1) - 1) {
				turns[i], errs[i] = Verify(recs[i])
				if done != nil {
					done()
				}
			}
		})
	}
	wg.Wait()
	return turns, errs
}

// lastLabel returns the record's label of the last turn g played, such as "37b".
func lastLabel(rec Record, g *Game) string {
	n := len(g.Turns())
	if n == 0 || n > len(rec.Moves) {
		return g.Label()
	}
	label, _, _ := strings.Cut(strings.TrimSpace(rec.Moves[n-1]), " ")
	return label
}
