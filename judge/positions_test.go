package judge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
)

const (
	goldSetup   = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2"
	silverSetup = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7"
)

// archive writes an archive of games, each given as its players and its moves
// after the setups.
func archive(t *testing.T, games ...[]string) string {
	t.Helper()
	var recs []engine.Record
	for i, g := range games {
		game := engine.NewGame()
		if err := game.PlaySetup(goldSetup); err != nil {
			t.Fatal(err)
		}
		if err := game.PlaySetup(silverSetup); err != nil {
			t.Fatal(err)
		}
		for _, m := range g[2:] {
			if err := game.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		rec := game.Record(fmt.Sprint(100 + i))
		rec.Gold, rec.Silver = g[0], g[1]
		recs = append(recs, rec)
	}
	var b strings.Builder
	if err := engine.WriteArchive(&b, recs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestArchivePositions reads the positions of two games, all of them and
// those of one player, and checks their labels, sides and histories.
func TestArchivePositions(t *testing.T) {
	moves := []string{"Ee2n", "ed7s", "Ee3n", "ed6s", "Ee4s", "ed5n", "Ee3n"} // e4 and d6 stand twice
	data := archive(t, append([]string{"gen0", "sharp4"}, moves...), append([]string{"sharp4", "gen0"}, moves[:3]...))
	for _, c := range []struct {
		mover string
		where []string
	}{
		{"", []string{"a:2 game 100 2g", "a:2 game 100 2s", "a:2 game 100 3g", "a:2 game 100 3s", "a:2 game 100 4g", "a:2 game 100 4s", "a:2 game 100 5g",
			"a:3 game 101 2g", "a:3 game 101 2s", "a:3 game 101 3g"}},
		{"gen0", []string{"a:2 game 100 2g", "a:2 game 100 3g", "a:2 game 100 4g", "a:2 game 100 5g", "a:3 game 101 2s"}},
		{"sharp4", []string{"a:2 game 100 2s", "a:2 game 100 3s", "a:2 game 100 4s", "a:3 game 101 2g", "a:3 game 101 3g"}},
		{"nobody", nil},
	} {
		ps, err := ArchivePositions(strings.NewReader(data), "a", c.mover)
		if err != nil {
			t.Fatal(err)
		}
		var where []string
		for _, p := range ps {
			where = append(where, p.Where)
			side := engine.Gold
			if strings.HasSuffix(p.Where, "s") {
				side = engine.Silver
			}
			if p.Pos.Side != side || p.Hist == nil || p.Hist.Count(&p.Pos) < 1 {
				t.Errorf("%s: side %v, history %v", p.Where, p.Pos.Side, p.Hist)
			}
		}
		if strings.Join(where, ", ") != strings.Join(c.where, ", ") {
			t.Errorf("mover %q: %q, want %q", c.mover, where, c.where)
		}
	}
	// The history holds the game up to the position: in 5g the position of
	// 3g stands for the second time, and the start position once.
	ps, _ := ArchivePositions(strings.NewReader(data), "a", "")
	if p := ps[6]; p.Hist.Count(&p.Pos) != 2 || p.Pos != ps[2].Pos || ps[2].Hist.Count(&ps[2].Pos) != 1 || p.Hist.Count(&ps[0].Pos) != 1 {
		t.Errorf("5g: the position stands %d times, 3g's %d", p.Hist.Count(&p.Pos), ps[2].Hist.Count(&ps[2].Pos))
	}
}

// TestArchivePositionsErrors checks that a bad archive or a game that does
// not replay is an error naming the file and line.
func TestArchivePositionsErrors(t *testing.T) {
	good := archive(t, []string{"a", "b", "Ee2n"})
	bad := strings.Replace(good, "Ee2n", "Ee2w", 1) // onto the dog
	for _, c := range []struct{ data, err string }{
		{bad, "f.txt:2: game 100, turn 2w"},
		{"", "f.txt: no header line"},
		{"id\tfoo\n", `f.txt:1: no "movelist" column`},
	} {
		_, err := ArchivePositions(strings.NewReader(c.data), "f.txt", "")
		if err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v; want one line with %q", c.data, err, c.err)
		}
	}
}

// TestReadPositions checks a position file: comments and blank lines skipped,
// the line of each position, and one-line errors naming the file and line.
func TestReadPositions(t *testing.T) {
	gold := board(t, engine.Gold, "Ed4 Ra1 rh8")
	silver := board(t, engine.Silver, "Ed4 Ra1 rh8")
	ps, err := ReadPositions(strings.NewReader("# positions\n\n"+gold+"\n  "+silver+"\r\n"), "p.aei")
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Where != "p.aei:3" || ps[1].Where != "p.aei:4" || ps[0].Pos.String() != gold || ps[1].Pos.String() != silver || ps[0].Hist != nil {
		t.Errorf("%+v", ps)
	}
	for _, c := range []struct{ data, err string }{
		{gold + "\ng [rr]\n", "p.aei:2: "},
		{"# x\n" + board(t, engine.Silver, "Ed4 Ra1") + "\n", "p.aei:2: Silver has no pieces: a setup"},
		{board(t, engine.Silver, "Ra8 rh2") + "\n", "p.aei:1: the game is over: Gold wins by goal"},
		{"# group\n" + gold + "\n", "p.aei:1: a group line without a name"},
		{"# group 1\n" + gold + "\n# group 2\n" + gold + "\n# group 1\n", "p.aei:5: group \"1\" again"},
	} {
		_, err := ReadPositions(strings.NewReader(c.data), "p.aei")
		if err == nil || !strings.HasPrefix(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v; want one line starting %q", c.data, err, c.err)
		}
	}
}

// TestReadPositionGroups checks the groups of a position file: a `# group
// NAME` line starts one, other comments and blank lines do not end it, and
// its positions share one game id, which differs from other groups' and
// from the ids of positions outside a group.
func TestReadPositionGroups(t *testing.T) {
	a := board(t, engine.Gold, "Ed4 Ra1 rh8")
	b := board(t, engine.Silver, "Ed4 Ra1 rh8")
	text := a + "\n# group 7 after x.txt:3\n" + a + "\n# note\n\n" + b + "\n# grouped\n" + b + "\n# group 8\n" + a + "\n"
	ps, err := ReadPositions(strings.NewReader(text), "p.aei")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "p.aei#7", "p.aei#7", "p.aei#7", "p.aei#8"}
	if len(ps) != len(want) {
		t.Fatalf("%d positions, want %d", len(ps), len(want))
	}
	for i, w := range want {
		if ps[i].Group != w {
			t.Errorf("position %d (%s): group %q, want %q", i, ps[i].Where, ps[i].Group, w)
		}
	}
	if GameID(ps[1]) != GameID(ps[2]) || GameID(ps[2]) != GameID(ps[3]) {
		t.Error("the positions of one group have different game ids")
	}
	if GameID(ps[0]) == GameID(ps[1]) || GameID(ps[1]) == GameID(ps[4]) {
		t.Error("a group shares its game id with a position outside it or another group")
	}
	shards, err := planShards(ps, 2, data.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sh := range shards {
		if sh.lo > 0 && ps[sh.lo].Group != "" && ps[sh.lo].Group == ps[sh.lo-1].Group {
			t.Errorf("shard from %d cuts group %s", sh.lo, ps[sh.lo].Group)
		}
	}
}

// TestIsPositionFile tells position files from archives by their first line.
func TestIsPositionFile(t *testing.T) {
	for _, c := range []struct {
		head string
		want bool
	}{
		{"g [r  ]", true},
		{"# comment\n\n  s [ ...", true},
		{"w [", true},
		{"b [", true},
		{"id\twusername\tmovelist\n", false},
		{"# only comments\n", false},
		{"", false},
		{"gx [", false},
		{"g", false},
	} {
		if got := IsPositionFile([]byte(c.head)); got != c.want {
			t.Errorf("IsPositionFile(%q) = %v, want %v", c.head, got, c.want)
		}
	}
}

// TestSample checks that a sample depends on its seed only, keeps n
// positions, each once, and leaves its input alone.
func TestSample(t *testing.T) {
	var ps []Position
	for i := range 30 {
		ps = append(ps, Position{Where: fmt.Sprint(i)})
	}
	where := func(ps []Position) string {
		var s []string
		for _, p := range ps {
			s = append(s, p.Where)
		}
		return strings.Join(s, " ")
	}
	orig := where(ps)
	a, b, c := Sample(ps, 1, 10), Sample(ps, 1, 10), Sample(ps, 2, 10)
	if where(a) != where(b) || where(a) == where(c) || len(a) != 10 || where(ps) != orig {
		t.Errorf("samples %q, %q, %q; input %q", where(a), where(b), where(c), where(ps))
	}
	all := Sample(ps, 1, 0)
	seen := map[string]bool{}
	for _, p := range all {
		seen[p.Where] = true
	}
	if len(all) != 30 || len(seen) != 30 || where(all) == orig || !strings.HasPrefix(where(all), where(a)) {
		t.Errorf("Sample(ps, 1, 0) = %q", where(all))
	}
	if got := Sample(ps, 1, 100); len(got) != 30 {
		t.Errorf("Sample of 100 from 30: %d", len(got))
	}
}

// TestInTurns keeps the positions of a range of turns: closed, open-ended,
// empty, and never a position file's.
func TestInTurns(t *testing.T) {
	moves := []string{"Ee2n", "ed7s", "Ee3n", "ed6s", "Ee4s", "ed5n", "Ee3n"}
	ps, err := ArchivePositions(strings.NewReader(archive(t, append([]string{"gen0", "sharp4"}, moves...))), "a", "")
	if err != nil {
		t.Fatal(err)
	}
	ps = append(ps, Position{Pos: ps[0].Pos, Where: "p.aei:1"}) // a position file's: no turn
	for _, c := range []struct {
		first, last int
		want        string
	}{
		{2, 0, "2g 2s 3g 3s 4g 4s 5g"},
		{3, 4, "3g 3s 4g 4s"},
		{4, 0, "4g 4s 5g"},
		{5, 5, "5g"},
		{6, 0, ""},
	} {
		var got []string
		for _, p := range InTurns(ps, c.first, c.last) {
			got = append(got, p.Where[strings.LastIndex(p.Where, " ")+1:])
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("turns %d-%d: %q, want %q", c.first, c.last, got, c.want)
		}
	}
}
