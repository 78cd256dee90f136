package view

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/selfplay"
	"github.com/arimaalab/arimaalab/selfplay/selfplaytest"
)

const standard = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]"

func TestDiagram(t *testing.T) {
	p, err := engine.ParsePosition(standard)
	if err != nil {
		t.Fatal(err)
	}
	sq := func(s string) engine.Bitboard {
		q, err := engine.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q.Bit()
	}
	tests := []struct {
		name  string
		marks engine.Bitboard
		want  string
	}{
		{"plain", 0, `    a b c d e f g h
  +-----------------+
8 | r r r r r r r r | 8
7 | h d c e m c d h | 7
6 | . . x . . x . . | 6
5 | . . . . . . . . | 5
4 | . . . . . . . . | 4
3 | . . x . . x . . | 3
2 | H D C M E C D H | 2
1 | R R R R R R R R | 1
  +-----------------+
    a b c d e f g h
`},
		// a1 and h1 at the borders, d2 and e2 side by side, c3 (a trap) alone.
		{"marks", sq("a1") | sq("h1") | sq("d2") | sq("e2") | sq("c3"), `    a b c d e f g h
  +-----------------+
8 | r r r r r r r r | 8
7 | h d c e m c d h | 7
6 | . . x . . x . . | 6
5 | . . . . . . . . | 5
4 | . . . . . . . . | 4
3 | . .[x]. . x . . | 3
2 | H D C[M|E]C D H | 2
1 |[R]R R R R R R[R]| 1
  +-----------------+
    a b c d e f g h
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Diagram(&p, tt.marks); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestChanged(t *testing.T) {
	g, err := ParseMoveList("2g Ee2n Ee3n Ee4n Ee5n 2s ed7s ed6s ed5w Ee5n")
	if err == nil {
		t.Fatalf("ed5w Ee5n: a push without a pusher next to it was accepted: %v", g.Plies)
	}
	// The cat steps into the trap f3 beside no friend and is captured, then
	// the dog follows it there and is captured too: the trap is empty before
	// and after, so only f2 and g2 changed.
	g, err = ParseMoveList("2g Cf2n Dg2n Dg3w")
	if err != nil {
		t.Fatal(err)
	}
	a, b := g.Position(0), g.Position(1)
	got := Changed(&a, &b)
	var want engine.Bitboard
	for _, s := range []string{"f2", "g2"} {
		q, _ := engine.ParseSquare(s)
		want |= q.Bit()
	}
	if got != want {
		t.Errorf("Changed = %x, want %x (f2, g2)", got, want)
	}
	if g.Plies[0].Move != "Cf2n Cf3x Dg2n Dg3w Df3x" {
		t.Errorf("move = %q, want the captures written", g.Plies[0].Move)
	}
}

func TestParseMoveList(t *testing.T) {
	setups := "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2\n" +
		"1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7\n"
	tests := []struct {
		name    string
		text    string
		plies   int
		last    string // the last ply's label and move
		wantErr string
	}{
		{name: "setups", text: setups + "2g Ee2n Ee3n\n2s ed7s\n", plies: 2, last: "2s ed7s"},
		{name: "standard setups", text: "2g Ee2n Ee3n 2s ed7s 3g Ee4n", plies: 3, last: "3g Ee4n"},
		{name: "archive form", text: strings.ReplaceAll(setups, "\n", `\n`) + `2w Ee2n\n2b ed7s\n3w`, plies: 2, last: "2s ed7s"},
		{name: "setups only", text: setups, plies: 0},
		{name: "text before a label", text: "Ee2n 2g Ee3n", wantErr: `"Ee2n" comes before any turn label`},
		{name: "out of order", text: "2g Ee2n 3g Ee3n", wantErr: "turn 3g: out of order: turn 2s is to play"},
		{name: "illegal", text: "2g Ee2n 2s ed7s 3g Ee3n Ee4n Ee5n Ee6n", wantErr: `turn 3g: step 4 "Ee6n": e7 is occupied by m`},
		{name: "no silver setup", text: "1g Ra1 Rb1", wantErr: "Silver's setup (1s) is missing"},
		{name: "empty", text: " \n ", wantErr: "no turns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ParseMoveList(tt.text)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Plies) != tt.plies {
				t.Fatalf("%d plies, want %d", len(g.Plies), tt.plies)
			}
			if tt.plies > 0 {
				p := g.Plies[len(g.Plies)-1]
				if got := p.Label + " " + p.Move; got != tt.last {
					t.Errorf("last ply %q, want %q", got, tt.last)
				}
			}
			if g.Setups[0] != "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2" {
				t.Errorf("Gold's setup %q", g.Setups[0])
			}
		})
	}
}

// TestArchiveGame lays out a real game and checks its positions, labels,
// result and frames.
func TestArchiveGame(t *testing.T) {
	g, err := LoadGame("../engine/testdata/allgames202602.txt", "669168")
	if err != nil {
		t.Fatal(err)
	}
	if g.Gold != "browni3141" || g.Silver != "bot_dolores_v1" || g.Result != "Gold wins by goal" {
		t.Errorf("players %q, %q, result %q", g.Gold, g.Silver, g.Result)
	}
	// 2w to 31w: 59 moves.
	if len(g.Plies) != 59 || g.Plies[0].Label != "2g" || g.Plies[58].Label != "31g" {
		t.Fatalf("%d plies from %s", len(g.Plies), g.Plies[0].Label)
	}
	if g.Plies[0].Move != "Ed2n Ed3n Ed4n Ed5n" || g.Plies[5].Move != "hg3n ed7w mb7s ec7s" {
		t.Errorf("moves %q, %q", g.Plies[0].Move, g.Plies[5].Move)
	}
	for _, tt := range []struct {
		label string
		want  int
	}{{"2g", 0}, {"2w", 0}, {"2s", 1}, {"4b", 5}, {"31w", 58}, {"31b", 59}, {"end", 59}} {
		if i, err := g.Index(tt.label); err != nil || i != tt.want {
			t.Errorf("Index(%q) = %d, %v; want %d", tt.label, i, err, tt.want)
		}
	}
	for _, bad := range []string{"32g", "1g", "x", "0g"} {
		if _, err := g.Index(bad); err == nil {
			t.Errorf("Index(%q): no error", bad)
		}
	}
	// Each position follows from the one before by the move.
	for i, p := range g.Plies {
		next := g.Position(i + 1)
		tt := engine.NewTurn(p.Before)
		if err := tt.PlayMove(p.Move); err != nil {
			t.Fatalf("%s: %v", p.Label, err)
		}
		if end := tt.End(); end.Key() != next.Key() {
			t.Fatalf("%s: the next position is not the move's result", p.Label)
		}
	}
	f := g.Frame(59)
	for _, want := range []string{"end  Silver to move  (position 60 of 60)", "last:   31g Dd6e ce7w De6n Rf7n", "result: Gold wins by goal"} {
		if !strings.Contains(f, want) {
			t.Errorf("final frame lacks %q:\n%s", want, f)
		}
	}
	if f := g.Frame(0); !strings.Contains(f, "setups: 1g Ed2 Mb2 Ha2 Hh2 Dd1 De2 Cb1 Cg2 Ra1 Rc1 Re1 Rf1 Rg1 Rh1 Rc2 Rf2\n        1s ra7 mb7 ") {
		t.Errorf("first frame lacks the setups:\n%s", f)
	}
	if strings.Contains(g.Frame(3), "search:") {
		t.Error("an archive game shows search values")
	}
}

// playShards writes 4 self-play games in 2 shards under DIR/gen=0000/selfplay
// and returns DIR.
func playShards(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := selfplaytest.Play(filepath.Join(dir, "gen=0000", "selfplay"), selfplaytest.Small{
		Games: 4, GamesPerShard: 2, MaxTurns: 12, Visits: 24, CheapVisits: 8, Seed: 5, Workers: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSelfPlayGames finds self-play games in a run, a games file and a shard,
// with the search's values attached to every move, and rebuilds a game from
// its rows when the games file is gone.
func TestSelfPlayGames(t *testing.T) {
	run := playShards(t)
	sp := filepath.Join(run, "gen=0000", "selfplay")
	rows, err := data.ReadRows(selfplay.ShardPath(sp, 1))
	if err != nil {
		t.Fatal(err)
	}
	id := rows[len(rows)-1].GameID
	mine := rowsOf(rows, id)
	sid := fmt.Sprint(id)

	check := func(t *testing.T, g *Game) {
		t.Helper()
		if g.ID != sid || len(g.Plies) != len(mine) {
			t.Fatalf("game %s with %d plies, want %s with %d", g.ID, len(g.Plies), sid, len(mine))
		}
		for i, p := range g.Plies {
			r := mine[i]
			if p.Search == nil || p.Search.Value != r.RootValue || p.Search.Visits != r.Visits || p.Search.Full != r.FullSearch {
				t.Fatalf("%s: search %+v, want the row's %v, %d", p.Label, p.Search, r.RootValue, r.Visits)
			}
			if p.Label != fmt.Sprintf("%d%s", r.Turn, engine.Color(r.Side)) {
				t.Fatalf("ply %d label %s, row turn %d side %d", i, p.Label, r.Turn, r.Side)
			}
		}
		// max_turns 12: a game still running after 12s (22 plies) is stopped.
		if len(mine) == 22 && g.Result != "stopped at max-turns (a draw)" || len(mine) < 22 && !strings.Contains(g.Result, " wins by ") {
			t.Errorf("result %q", g.Result)
		}
		if f := g.Frame(0); !strings.Contains(f, "search: value ") {
			t.Errorf("frame without the search:\n%s", f)
		}
	}
	for _, path := range []string{run, sp, selfplay.GamesPath(sp, 1), selfplay.ShardPath(sp, 1)} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			g, err := LoadGame(path, sid)
			if err != nil {
				t.Fatal(err)
			}
			check(t, g)
		})
	}
	if _, err := LoadGame(run, ""); err == nil || !strings.Contains(err.Error(), "4 games in 2 files; name one with -game ID") {
		t.Errorf("a run without -game: %v", err)
	}
	if _, err := LoadGame(run, "12345"); err == nil || !strings.Contains(err.Error(), `no game "12345" in its 2 games files`) {
		t.Errorf("a missing game: %v", err)
	}
	// A games file copied elsewhere holds the same game twice in the tree.
	dup := filepath.Join(run, "copy")
	if err := os.MkdirAll(dup, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(selfplay.GamesPath(sp, 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dup, "games.txt"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadGame(run, sid); err == nil || !strings.Contains(err.Error(), "is in 2 files") {
		t.Errorf("a game in two files: %v", err)
	}
	// Without the games file, the shard alone.
	if err := os.Remove(selfplay.GamesPath(sp, 1)); err != nil {
		t.Fatal(err)
	}
	g, err := LoadGame(selfplay.ShardPath(sp, 1), sid)
	if err != nil {
		t.Fatal(err)
	}
	check(t, g)
	// A row whose board is not the record's is refused.
	bad := mine[len(mine)-1]
	bad.Board[0] ^= 1
	g2, err := FromRecord(mustRecord(t, g))
	if err != nil {
		t.Fatal(err)
	}
	if err := g2.AttachRows([]data.Row{bad}); err == nil || !strings.Contains(err.Error(), "the data's board is not the record's") {
		t.Errorf("a wrong board: %v", err)
	}
}

// mustRecord writes g back as an archive record.
func mustRecord(t *testing.T, g *Game) engine.Record {
	t.Helper()
	moves := []string{"1w " + g.Setups[0], "1b " + g.Setups[1]}
	for _, p := range g.Plies {
		moves = append(moves, p.Label+" "+p.Move)
	}
	return engine.Record{ID: g.ID, Moves: moves}
}

func TestBrowse(t *testing.T) {
	g, err := ParseMoveList("2g Ee2n 2s ed7s 3g Ee3n 3s ed6s 4g Ee4n")
	if err != nil {
		t.Fatal(err)
	}
	// Positions: 0 before 2g, 1 before 2s, 2 before 3g, 3 before 3s, 4 before
	// 4g, 5 the end.
	script := "n\n\np\n3s\nj 2s\nl\nn\nf\np\n6\n9\nzz\nhelp\nq\nn\n"
	var out strings.Builder
	if err := Browse(strings.NewReader(script), &out, g, 0, false); err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, line := range strings.Split(out.String(), "\n") {
		if i := strings.Index(line, "(position "); i >= 0 {
			shown = append(shown, strings.Fields(line[i+len("(position "):])[0])
		}
	}
	// The start, then one frame per command up to q (the n after q is not read).
	want := "1 2 3 2 4 2 6 6 1 1 6 6 6 6"
	if got := strings.Join(shown, " "); got != want {
		t.Errorf("positions shown %s, want %s", got, want)
	}
	for _, note := range []string{"(the last position)", "(the first position)", "no position 9: the game has positions 1 to 6", `"zz": turn label "zz"`, "commands: Enter or n next"} {
		if !strings.Contains(out.String(), note) {
			t.Errorf("output lacks %q", note)
		}
	}
	// The end of the input ends browsing too.
	out.Reset()
	if err := Browse(strings.NewReader("n\n"), &out, g, 4, true); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), clearScreen); n != 2 {
		t.Errorf("%d screens cleared, want 2", n)
	}
}

func TestPrint(t *testing.T) {
	g, err := ParseMoveList("2g Ee2n 2s ed7s")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Print(&out, g); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.HasPrefix(s, "game: 2 moves, unfinished\n\n2g  Gold to move  (position 1 of 3)\n") {
		t.Errorf("print starts\n%s", s[:min(len(s), 200)])
	}
	if n := strings.Count(s, "  +-----------------+\n    a b c d e f g h\n"); n != 3 {
		t.Errorf("%d boards, want 3", n)
	}
	if !strings.Contains(s, "3 | . . x .[E]x . . | 3") {
		t.Errorf("the elephant's squares are not marked:\n%s", s)
	}
}

func TestDetect(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content string
		want          Format
		wantErr       string
	}{
		{"a.txt", "id\tmovelist\n1\t1w Ra1\n", Archive, ""},
		{"p.aei", "# positions\n\n" + standard + "\n", Positions, ""},
		{"m.txt", "2g Ee2n\n", MoveList, ""},
		{"s.arrow", "", Shard, ""},
		{"x.txt", "hello\n", 0, "not a game archive"},
		{"e.txt", "\n# nothing\n", 0, "empty file"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := Detect(path)
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
		case tt.wantErr == "" && (err != nil || f != tt.want):
			t.Errorf("%s: %v, %v; want %v", tt.name, f, err, tt.want)
		}
	}
	if _, err := LoadGame(filepath.Join(dir, "p.aei"), ""); err == nil || !strings.Contains(err.Error(), "holds positions, not a game") {
		t.Errorf("a position file as a game: %v", err)
	}
	ps, lines, err := ReadPositions(filepath.Join(dir, "p.aei"))
	if err != nil || len(ps) != 1 || lines[0] != 3 {
		t.Errorf("ReadPositions: %d positions, lines %v, %v", len(ps), lines, err)
	}
	bad := filepath.Join(dir, "bad.aei")
	os.WriteFile(bad, []byte(standard+"\ng [rr]\n"), 0o644)
	if _, _, err := ReadPositions(bad); err == nil || !strings.HasPrefix(err.Error(), bad+":2: ") {
		t.Errorf("a bad line: %v", err)
	}
}
