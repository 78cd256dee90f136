package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/configs"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/judge"
	"github.com/arimaalab/arimaalab/mcts"
	"github.com/arimaalab/arimaalab/weights"
)

// tinyArchive writes an archive of one game of four moves after the setups
// and returns its path and the positions before its moves.
func tinyArchive(t *testing.T) (string, []engine.Position) {
	t.Helper()
	g := engine.NewGame()
	for _, s := range []string{
		"Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2",
		"ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7",
	} {
		if err := g.PlaySetup(s); err != nil {
			t.Fatal(err)
		}
	}
	var before []engine.Position
	for _, m := range []string{"Ee2n", "ed7s", "Ee3n Ee4w", "ed6s me7s"} {
		before = append(before, g.Position())
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	rec := g.Record("7")
	rec.Gold, rec.Silver = "gold", "silver"
	var b strings.Builder
	if err := engine.WriteArchive(&b, []engine.Record{rec}); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "games.txt", b.String()), before
}

// isMove reports whether q is the position after a move of p.
func isMove(p, q engine.Position) bool {
	for _, m := range engine.GenMoves(p, nil) {
		if m.Pos == q {
			return true
		}
	}
	return false
}

// TestSuccessorsVerb runs analyze successors end to end: the file it writes
// (its header, positions that label reads back, the number of them), the
// same bytes on stdout and from the same seed, other positions from another
// seed, the positions of -every, position files and stdin, and the errors of
// bad command lines and files.
func TestSuccessorsVerb(t *testing.T) {
	games, before := tinyArchive(t)
	sparse := build(t, engine.Gold, "Ed4 Rb2 Rg2 rb7 rg7 ee5")
	positions := writeFile(t, "p.aei", "# two positions\n"+sparse+"\n\n"+build(t, engine.Silver, "Ed4 Rb2 Rg2 rb7 rg7 ee5")+"\n")
	dir := t.TempDir()
	out := filepath.Join(dir, "succ.aei")

	// Defaults: plies 0 and 3 of the game, 3 + 1 positions each.
	r := runCmd(t, "", "successors", "-out", out, games)
	if r.code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", r.code, r.stderr)
	}
	if want := "positions 8 after 2 of 2 positions (0 without a move after which the game goes on) in " + out + "\n"; r.stdout != want {
		t.Errorf("stdout %q, want %q", r.stdout, want)
	}
	file := readFile(t, out)
	header := "# analyze successors -every 3 -top 30 -pick 3 -random 1 -seed 1\n# weights configs/gen0.json (generation 0, hash "
	if !strings.HasPrefix(file, header) || !strings.Contains(file, "\n# from "+games+"\n# positions 8 after 2 of 2 positions ") {
		t.Errorf("header:\n%s", file)
	}
	ps, err := judge.ReadPositions(strings.NewReader(file), out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 8 {
		t.Fatalf("%d positions read back, want 8", len(ps))
	}
	for i, p := range ps {
		if src := before[3*(i/4)]; !isMove(src, p.Pos) {
			t.Errorf("%s: %s is not a move after %s", p.Where, p.Pos.String(), src.String())
		}
	}
	// The positions after one source are a group, named by the source's
	// index, with its place in the header line.
	for i, p := range ps {
		if want := out + "#" + []string{"0", "1"}[i/4]; p.Group != want {
			t.Errorf("%s: group %q, want %q", p.Where, p.Group, want)
		}
	}
	if !strings.Contains(file, "\n# group 0 after "+games+":2 game 7 2g\n") || !strings.Contains(file, "\n# group 1 after "+games+":2 game 7 3s\n") {
		t.Errorf("the group lines:\n%s", file)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the output directory, want 1 (no temporary file left)", len(entries))
	}
	again := runCmd(t, "", "successors", games)
	if again.code != 0 || again.stdout != file || !strings.Contains(again.stderr, "positions 8 after 2 of 2 positions") {
		t.Errorf("on stdout: status %d, stderr %q, the file's bytes %v", again.code, again.stderr, again.stdout == file)
	}
	other := runCmd(t, "", "successors", "-seed", "2", games)
	if other.code != 0 || other.stdout == file || !strings.Contains(other.stdout, "-seed 2\n") {
		t.Errorf("-seed 2: status %d, the same positions %v", other.code, other.stdout == file)
	}

	// One position each: the best move of the positions -every selects.
	for _, c := range []struct {
		every string
		plies []int
	}{
		{"1", []int{0, 1, 2, 3}},
		{"2", []int{0, 2}},
		{"3", []int{0, 3}},
		{"4", []int{0}},
		{"9", []int{0}},
	} {
		r := runCmd(t, "", "successors", "-every", c.every, "-top", "1", "-pick", "1", "-random", "0", games)
		ps, err := judge.ReadPositions(strings.NewReader(r.stdout), "stdout")
		if r.code != 0 || err != nil || len(ps) != len(c.plies) {
			t.Errorf("-every %s: status %d, %d positions (%v), want %d; stderr %s", c.every, r.code, len(ps), err, len(c.plies), r.stderr)
			continue
		}
		for i, ply := range c.plies {
			if !isMove(before[ply], ps[i].Pos) {
				t.Errorf("-every %s: position %d is not a move after ply %d", c.every, i, ply)
			}
		}
	}

	// -turns: the positions of those game turns (the game's plies 0 and 1
	// are turn 2, plies 2 and 3 turn 3), then -every among them.
	for _, c := range []struct {
		turns string
		plies []int
	}{
		{"2-2", []int{0, 1}},
		{"3-", []int{2, 3}},
		{"2-3", []int{0, 1, 2, 3}},
	} {
		r := runCmd(t, "", "successors", "-every", "1", "-top", "1", "-pick", "1", "-random", "0", "-turns", c.turns, games)
		ps, err := judge.ReadPositions(strings.NewReader(r.stdout), "stdout")
		if r.code != 0 || err != nil || len(ps) != len(c.plies) || !strings.Contains(r.stdout, "-seed 1 -turns "+c.turns+"\n") {
			t.Errorf("-turns %s: status %d, %d positions (%v), want %d; stderr %s", c.turns, r.code, len(ps), err, len(c.plies), r.stderr)
			continue
		}
		for i, ply := range c.plies {
			if !isMove(before[ply], ps[i].Pos) {
				t.Errorf("-turns %s: position %d is not a move after ply %d", c.turns, i, ply)
			}
		}
	}

	// -replies: in place of each position of the defaults' file, the
	// position after the deep scan's reply to it (mcts.ReplyLeaf), the
	// source's side to move again, in the same groups; any -workers alike.
	w0, err := configs.Gen0()
	if err != nil {
		t.Fatal(err)
	}
	lin, err := weights.NewLinear(w0)
	if err != nil {
		t.Fatal(err)
	}
	rl, err := mcts.NewReplyLeaf(lin)
	if err != nil {
		t.Fatal(err)
	}
	var want []judge.Position
	for _, p := range ps {
		if q, ok := rl.Reply(&p.Pos); ok {
			want = append(want, judge.Position{Pos: q, Group: p.Group})
		}
	}
	var first string
	for _, w := range []string{"1", "2"} {
		r := runCmd(t, "", "successors", "-replies", "-workers", w, games)
		got, err := judge.ReadPositions(strings.NewReader(r.stdout), out)
		if r.code != 0 || err != nil || len(got) != len(want) || !strings.Contains(r.stdout, "-seed 1 -replies\n") ||
			!strings.Contains(r.stderr, fmt.Sprintf("positions %d after the replies to 8 moves drawn in 2 of 2 positions (%d replies decided by the rules)", len(want), 8-len(want))) {
			t.Fatalf("-replies -workers %s: status %d, %d positions (%v), want %d; stderr %s\n%s", w, r.code, len(got), err, len(want), r.stderr, r.stdout)
		}
		for i, p := range got {
			src := before[0]
			if strings.HasSuffix(p.Group, "#1") {
				src = before[3]
			}
			if p.Pos != want[i].Pos || p.Group != want[i].Group || p.Pos.Side != src.Side {
				t.Errorf("-replies -workers %s: position %d %s in group %s, want %s in %s", w, i, p.Pos.String(), p.Group, want[i].Pos.String(), want[i].Group)
			}
		}
		if first == "" {
			first = r.stdout
		} else if r.stdout != first {
			t.Error("-replies: other positions with other -workers")
		}
	}

	// Position files (all their positions whatever -every) and stdin.
	r = runCmd(t, sparse+"\n", "successors", "-every", "5", "-pick", "2", "-random", "2", positions, "-")
	ps, err = judge.ReadPositions(strings.NewReader(r.stdout), "stdout")
	if r.code != 0 || err != nil || len(ps) != 12 || !strings.Contains(r.stdout, "\n# from "+positions+"\n# from -\n") {
		t.Errorf("position files: status %d, %d positions (%v), want 12; stderr %s\n%s", r.code, len(ps), err, r.stderr, r.stdout)
	}

	bad := writeFile(t, "bad.aei", sparse+"\n# x\ng [rr]\n")
	ended := writeFile(t, "ended.aei", build(t, engine.Gold, "Ra7 rb7")+"\n") // every move reaches the goal
	missing := filepath.Join(dir, "none", "succ.aei")
	for _, c := range []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no files", []string{}, 2, "want archive or position files"},
		{"every 0", []string{"-every", "0", games}, 2, "-every must be at least 1"},
		{"top 0", []string{"-top", "0", games}, 2, "-top must be at least 1"},
		{"negative pick", []string{"-pick", "-1", games}, 2, "-pick must not be negative"},
		{"negative random", []string{"-random", "-2", games}, 2, "-random must not be negative"},
		{"nothing drawn", []string{"-pick", "0", "-random", "0", games}, 2, "-pick and -random are both 0"},
		{"named twice", []string{games, games}, 2, games + " is named twice"},
		{"bad line", []string{games, bad}, 1, bad + ":3: "},
		{"no file", []string{filepath.Join(dir, "nothing.txt")}, 1, "nothing.txt: no such file"},
		{"bad weights", []string{"-weights", positions, games}, 1, "-weights: "},
		{"no moves", []string{ended}, 1, "no position of " + ended + " has a move after which the game goes on"},
		{"out in a missing directory", []string{"-out", missing, games}, 1, "-out: "},
		{"bad turns", []string{"-turns", "3", games}, 2, `-turns "3": want FIRST-LAST`},
		{"turns in a position file", []string{"-turns", "2-9", games, positions}, 2, "-turns goes with archives; " + positions + " is a position file"},
		{"no turns", []string{"-turns", "9-", games}, 1, "no positions in " + games},
		{"workers 0", []string{"-replies", "-workers", "0", games}, 2, "-workers must be at least 1"},
		{"workers without replies", []string{"-workers", "2", games}, 2, "-workers applies only with -replies"},
		{"replies with reports", []string{"-reports", "-replies", games}, 2, "-replies does not apply to -reports"},
	} {
		r := runCmd(t, "", append([]string{"successors"}, c.args...)...)
		if r.code != c.code || !strings.Contains(r.stderr, c.err) || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("%s: status %d, stderr %q, stdout %q; want status %d and one line with %q", c.name, r.code, r.stderr, r.stdout, c.code, c.err)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a failed run wrote its output")
	}
}

// TestSuccessorsReports writes the positions after the judge's moves and
// the moves played of a regret report, as groups that label reads.
func TestSuccessorsReports(t *testing.T) {
	report := writeFile(t, "report.json", deepCheckReport)
	r := runCmd(t, "", "successors", "-reports", report)
	if r.code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var positions, groups int
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "# group "):
			groups++
		case !strings.HasPrefix(l, "#"):
			positions++
		}
	}
	if groups != 2 || positions != 4 || !strings.Contains(r.stdout, "# group 0 after g.txt:41 game 40 11s\n") ||
		!strings.Contains(r.stderr, "positions 4 after 2 judged positions") {
		t.Errorf("%d groups, %d positions:\n%s\nstderr: %s", groups, positions, r.stdout, r.stderr)
	}
	out := t.TempDir() + "/succ.aei"
	if w := runCmd(t, "", "successors", "-reports", "-out", out, report); w.code != 0 || !strings.Contains(w.stdout, "positions 4 after 2 judged positions in "+out) {
		t.Errorf("-out: exit status %d, stdout %q, stderr %q", w.code, w.stdout, w.stderr)
	}
	for _, c := range []struct {
		name string
		args []string
		err  string
	}{
		{"no reports", []string{"successors", "-reports"}, "want regret report files"},
		{"a draw flag", []string{"successors", "-reports", "-top", "5", report}, "-top does not apply to -reports"},
	} {
		if r := runCmd(t, "", c.args...); r.code != 2 || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%s: exit status %d, stderr %q; want 2 and %q", c.name, r.code, r.stderr, c.err)
		}
	}
}
