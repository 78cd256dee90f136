package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

// Positions with move counts checked by two generators (the engine's
// breadth-first MoveGen and a depth-first walk over Turn.LegalSteps).
const (
	// standard3353 has Gold's pieces in front of the rabbits (Ha2 Db2 Cc2 Md2 Ee2
	// Cf2 Dg2 Hh2, rabbits on rank 1) and Silver's rabbits on rank 8: the
	// "standard setup" of DESIGN.md with 3353 moves.
	standard3353 = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]"
	// standard2467 is the setup Ra2..Rh2 Ha1 Db1 Cc1 Md1 Ee1 Cf1 Dg1 Hh1 and
	// its silver mirror: the rabbits in front.
	standard2467 = "g [hdcmecdhrrrrrrrr                                RRRRRRRRHDCMECDH]"
	// clueless1 is the first clueless32 position.
	clueless1 = "g [rrr  rr r mcchrr d    d     E            H  e D R C  C RRRRDMRRR]"
)

// result is what one run of the command gave.
type result struct {
	code           int
	stdout, stderr string
}

func runCmd(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// writeFile writes content to a file in a fresh temporary directory and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMovecount(t *testing.T) {
	good := "# standard setups and a clueless32 position\n" +
		standard3353 + "\n" +
		"\n" +
		standard2467 + "\n" +
		"  " + clueless1 + "  \n" // surrounding blanks are allowed
	goodFile := writeFile(t, "good.aei", good)
	badFile := writeFile(t, "bad.aei", standard3353+"\n"+standard3353+"x\n")
	tests := []struct {
		name       string
		stdin      string
		args       []string
		wantCode   int
		wantOut    string // exact stdout, when not empty
		wantErr    string // a substring of stderr
		wantErrPfx string // a prefix of stderr
	}{
		{name: "counts", args: []string{"movecount", goodFile}, wantOut: "2 3353\n4 2467\n5 20229\n", wantErr: "3 positions, 26049 moves"},
		{name: "stdin", stdin: good, args: []string{"movecount", "-"}, wantOut: "2 3353\n4 2467\n5 20229\n", wantErr: "3 positions"},
		{name: "empty", stdin: "\n# nothing\n", args: []string{"movecount", "-"}, wantErr: "0 positions, 0 moves"},
		{name: "bad side", stdin: "# x\n" + standard3353 + "\nx [" + strings.Repeat(" ", 64) + "]\n", args: []string{"movecount", "-"}, wantCode: 1, wantErrPfx: "stdin:3: "},
		{name: "short board", stdin: "g [rrr]\n", args: []string{"movecount", "-"}, wantCode: 1, wantErrPfx: "stdin:1: "},
		{name: "bad piece", stdin: "\n\ng [" + strings.Repeat("z", 64) + "]\n", args: []string{"movecount", "-"}, wantCode: 1, wantErrPfx: "stdin:3: "},
		{name: "bad file line", args: []string{"movecount", badFile}, wantCode: 1, wantErrPfx: badFile + ":2: "},
		{name: "missing file", args: []string{"movecount", filepath.Join(t.TempDir(), "none.aei")}, wantCode: 1, wantErr: "no such file"},
		{name: "no file", args: []string{"movecount"}, wantCode: 2, wantErr: "usage: analyze movecount"},
		{name: "two files", args: []string{"movecount", goodFile, goodFile}, wantCode: 2, wantErr: "usage: analyze movecount"},
		{name: "bad flag", args: []string{"movecount", "-x", goodFile}, wantCode: 2, wantErr: "flag provided but not defined"},
		{name: "help", args: []string{"movecount", "-h"}, wantCode: 0, wantErr: "-list"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCmd(t, tc.stdin, tc.args...)
			if r.code != tc.wantCode {
				t.Errorf("exit status %d, want %d; stderr:\n%s", r.code, tc.wantCode, r.stderr)
			}
			if tc.wantOut != "" && r.stdout != tc.wantOut {
				t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, tc.wantOut)
			}
			if !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stderr %q does not contain %q", r.stderr, tc.wantErr)
			}
			if !strings.HasPrefix(r.stderr, tc.wantErrPfx) {
				t.Errorf("stderr %q does not start with %q", r.stderr, tc.wantErrPfx)
			}
			if r.code != 0 && tc.wantCode == 1 && strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("error is not one line: %q", r.stderr)
			}
			if strings.Contains(r.stderr, "goroutine") || strings.Contains(r.stderr, "panic") {
				t.Errorf("stack trace on stderr: %s", r.stderr)
			}
		})
	}
}

// Every listed move must replay, step by step, to a legal end of turn, and the
// moves of a position must lead to as many distinct positions as its count.
func TestMovecountList(t *testing.T) {
	input := []string{standard3353, standard2467}
	r := runCmd(t, strings.Join(input, "\n")+"\n", "movecount", "-list", "-")
	if r.code != 0 {
		t.Fatalf("exit status %d: %s", r.code, r.stderr)
	}
	var (
		start  engine.Position
		header string
		ends   = map[string]map[engine.BoardKey]bool{}
	)
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		move, indented := strings.CutPrefix(line, "  ")
		if !indented {
			header = line
			var n int
			if _, err := fmt.Sscanf(line, "%d", &n); err != nil || n < 1 || n > len(input) {
				t.Fatalf("bad position line %q", line)
			}
			start, _ = engine.ParsePosition(input[n-1])
			ends[header] = map[engine.BoardKey]bool{}
			continue
		}
		if header == "" {
			t.Fatalf("move %q before any position", line)
		}
		steps, err := engine.ParseSteps(move)
		if err != nil {
			t.Fatalf("%s: move %q: %v", header, move, err)
		}
		if got := engine.FormatMove(start, steps); got != move {
			t.Errorf("%s: move %q is written %q by FormatMove", header, move, got)
		}
		turn := engine.NewTurn(start)
		for _, st := range steps {
			if _, err := turn.Step(st); err != nil {
				t.Fatalf("%s: move %q: %v", header, move, err)
			}
		}
		if err := turn.CanEnd(); err != nil {
			t.Fatalf("%s: move %q: %v", header, move, err)
		}
		end := turn.End()
		if ends[header][end.Key()] {
			t.Errorf("%s: move %q leads to a position already listed", header, move)
		}
		ends[header][end.Key()] = true
	}
	want := map[string]int{"1 3353": 3353, "2 2467": 2467}
	for h, n := range want {
		if len(ends[h]) != n {
			t.Errorf("position %q: %d moves listed, want %d", h, len(ends[h]), n)
		}
	}
	if len(ends) != len(want) {
		t.Errorf("positions listed: %v", slices.Collect(maps.Keys(ends)))
	}
}

func TestBench(t *testing.T) {
	one := writeFile(t, "one.aei", standard3353+"\n")
	tiny := writeFile(t, "tiny.yaml", "max_turns: 4\nsearch:\n  visits: 16\n  max_nodes: 16384\ncheap_visits: 8\n")
	badConfig := writeFile(t, "bad.yaml", "max_turn: 4\n")
	tests := []struct {
		name     string
		stdin    string
		args     []string
		wantCode int
		wantOut  []string
		wantErr  string
	}{
		{name: "one line", args: []string{"bench", "-runs", "1", one}, wantOut: []string{"positions      1 (", "moves per run  3353\n", "best ", "median "}},
		{name: "stdin", stdin: standard2467 + "\n", args: []string{"bench", "-runs", "2", "-"}, wantOut: []string{"moves per run  2467\n", "run 2 "}},
		{name: "no positions", stdin: "# none\n", args: []string{"bench", "-runs", "1", "-"}, wantCode: 1, wantErr: "no positions"},
		{name: "bad line", stdin: "g [x]\n", args: []string{"bench", "-runs", "1", "-"}, wantCode: 1, wantErr: "stdin:1: "},
		{name: "zero runs", args: []string{"bench", "-runs", "0", one}, wantCode: 2, wantErr: "-runs must be at least 1"},
		{name: "two files", args: []string{"bench", one, one}, wantCode: 2, wantErr: "usage: analyze bench"},
		{name: "help", args: []string{"bench", "-h"}, wantErr: "-runs N"},
		{name: "selfplay tiny", args: []string{"bench", "-selfplay", "-cores", "2", "-games", "2", "-visits", "100", "-config", tiny},
			wantOut: []string{"machine   2 cores", "| self-play rows/s | 2 | ", "| search simulations/s, opening | 2 | ", "| search simulations/s, middlegame | 1 | ", "one self-play worker: "},
			wantErr: "search of the middlegame, 2 threads, searcher reused: "},
		{name: "selfplay with runs", args: []string{"bench", "-selfplay", "-runs", "2"}, wantCode: 2, wantErr: "-runs does not go with -selfplay"},
		{name: "selfplay with file", args: []string{"bench", "-selfplay", one}, wantCode: 2, wantErr: "-selfplay takes no FILE"},
		{name: "selfplay zero cores", args: []string{"bench", "-selfplay", "-cores", "0"}, wantCode: 2, wantErr: "-cores must be at least 1"},
		{name: "selfplay zero games", args: []string{"bench", "-selfplay", "-games", "0"}, wantCode: 2, wantErr: "-games must be at least 1"},
		{name: "selfplay zero visits", args: []string{"bench", "-selfplay", "-visits", "0"}, wantCode: 2, wantErr: "-visits must be at least 1"},
		{name: "selfplay zero repeat", args: []string{"bench", "-selfplay", "-repeat", "0"}, wantCode: 2, wantErr: "-repeat must be at least 1"},
		{name: "repeat without selfplay", args: []string{"bench", "-repeat", "3", one}, wantCode: 2, wantErr: "-repeat goes with -selfplay"},
		{name: "selfplay bad config", args: []string{"bench", "-selfplay", "-config", badConfig}, wantCode: 1, wantErr: "bad.yaml"},
		{name: "games without selfplay", args: []string{"bench", "-games", "3", one}, wantCode: 2, wantErr: "-games goes with -selfplay"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCmd(t, tc.stdin, tc.args...)
			if r.code != tc.wantCode {
				t.Errorf("exit status %d, want %d; stderr:\n%s", r.code, tc.wantCode, r.stderr)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout does not contain %q:\n%s", w, r.stdout)
				}
			}
			if !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stderr %q does not contain %q", r.stderr, tc.wantErr)
			}
		})
	}
}

func TestBenchEmbedded(t *testing.T) {
	if testing.Short() {
		t.Skip("times the 32 embedded positions")
	}
	r := runCmd(t, "", "bench", "-runs", "1")
	if r.code != 0 {
		t.Fatalf("exit status %d: %s", r.code, r.stderr)
	}
	for _, w := range []string{"positions      32 (embedded clueless32.aei)", "moves per run  2987987\n"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("stdout does not contain %q:\n%s", w, r.stdout)
		}
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args     []string
		wantCode int
		out, err string
	}{
		{nil, 2, "", "usage: analyze VERB"},
		{[]string{"frobnicate"}, 2, "", `unknown verb "frobnicate"`},
		{[]string{"-h"}, 0, "usage: analyze VERB", ""},
		{[]string{"help"}, 0, "movecount", ""},
		{[]string{"help", "bench"}, 0, "", "usage: analyze bench"},
	}
	for _, tc := range tests {
		r := runCmd(t, "", tc.args...)
		if r.code != tc.wantCode || !strings.Contains(r.stdout, tc.out) || !strings.Contains(r.stderr, tc.err) {
			t.Errorf("analyze %q: status %d, stdout %q, stderr %q; want status %d, stdout with %q, stderr with %q",
				tc.args, r.code, r.stdout, r.stderr, tc.wantCode, tc.out, tc.err)
		}
	}
}

// The embedded positions must be the shared clueless32 file.
func TestEmbeddedPositions(t *testing.T) {
	ps, err := readPositions(strings.NewReader(clueless32), "clueless32.aei")
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 32 || ps[0].pos.String() != clueless1 {
		t.Errorf("%d positions, first %q", len(ps), ps[0].pos.String())
	}
}

// tamper returns the archive text with the field column of game id set to value.
func tamper(t *testing.T, archive, id, column, value string) string {
	t.Helper()
	lines := strings.Split(archive, "\n")
	col := slices.Index(strings.Split(lines[0], "\t"), column)
	if col < 0 {
		t.Fatalf("no column %q", column)
	}
	for i, line := range lines[1:] {
		f := strings.Split(line, "\t")
		if f[0] == id {
			f[col] = value
			lines[i+1] = strings.Join(f, "\t")
			return strings.Join(lines, "\n")
		}
	}
	t.Fatalf("no game %s", id)
	return ""
}

func TestReplay(t *testing.T) {
	const fixture = "testdata/games5.txt" // five real games, one of each ending but time
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	archive := string(data)
	lines := strings.Split(archive, "\n")
	col := slices.Index(strings.Split(lines[0], "\t"), "movelist")
	var moves669204 string
	for _, line := range lines[1:] {
		if f := strings.Split(line, "\t"); f[0] == "669204" {
			moves669204 = f[col]
		}
	}
	wrongWinner := writeFile(t, "winner.txt", tamper(t, archive, "669204", "result", "b"))
	illegal := writeFile(t, "illegal.txt", tamper(t, archive, "669204", "movelist",
		strings.Replace(moves669204, "2w Rh2n", "2w Rh2s", 1)))
	unfinished := writeFile(t, "unfinished.txt", tamper(t, tamper(t, archive, "669204", "result", ""), "669204", "termination", ""))
	tests := []struct {
		name     string
		stdin    string
		args     []string
		wantCode int
		wantOut  []string
		wantErr  string
	}{
		{name: "all match", args: []string{"replay", fixture}, wantOut: []string{
			"games          5\n", "turns          156 ", "matches        5\n", "mismatches     0\n",
			"  goal           1\n", "  elimination    1\n", "  immobilization 1\n", "  resignation    1\n", "  illegal-move   1\n"}},
		{name: "two files", args: []string{"replay", fixture, fixture}, wantOut: []string{"games          10\n", "matches        10\n"}},
		{name: "stdin", stdin: archive, args: []string{"replay", "-"}, wantOut: []string{"games          5\n", "mismatches     0\n"}},
		{name: "wrong winner", args: []string{"replay", wrongWinner}, wantCode: 1, wantOut: []string{
			wrongWinner + ": game 669204, turn 7w: recorded Silver wins by goal, but by the rules Gold wins by goal\n",
			"matches        4\n", "mismatches     1\n"}, wantErr: "1 of 5 games"},
		{name: "illegal step", args: []string{"replay", illegal}, wantCode: 1, wantOut: []string{
			illegal + ": game 669204, turn 2w: step 1 \"Rh2s\": ", "mismatches     1\n"}},
		{name: "unfinished", args: []string{"replay", unfinished}, wantCode: 1, wantOut: []string{
			unfinished + ": game 669204, turn 7w: recorded as unfinished, but by the rules Gold wins by goal\n"}},
		{name: "not an archive", stdin: "hello\tworld\n", args: []string{"replay", "-"}, wantCode: 1, wantErr: "analyze replay: "},
		{name: "missing file", args: []string{"replay", filepath.Join(t.TempDir(), "none.txt")}, wantCode: 1, wantErr: "no such file"},
		{name: "no file", args: []string{"replay"}, wantCode: 2, wantErr: "usage: analyze replay FILE..."},
		{name: "help", args: []string{"replay", "-h"}, wantErr: "usage: analyze replay"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCmd(t, tc.stdin, tc.args...)
			if r.code != tc.wantCode {
				t.Errorf("exit status %d, want %d; stderr:\n%s", r.code, tc.wantCode, r.stderr)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout does not contain %q:\n%s", w, r.stdout)
				}
			}
			if !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stderr %q does not contain %q", r.stderr, tc.wantErr)
			}
		})
	}
}
