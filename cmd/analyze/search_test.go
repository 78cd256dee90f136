package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/mcts"
)

// build returns the position with the pieces listed (such as "Ed4 cc4") and
// side to move, in the AEI form.
func build(t *testing.T, side engine.Color, pieces string) string {
	t.Helper()
	var p engine.Position
	for _, f := range strings.Fields(pieces) {
		pc, err := engine.PieceFromLetter(f[0])
		if err != nil {
			t.Fatal(err)
		}
		sq, err := engine.ParseSquare(f[1:])
		if err != nil {
			t.Fatal(err)
		}
		p.Put(pc, sq)
	}
	p.SetSide(side)
	return p.String()
}

// field returns the rest of the line of out that starts with name, trimmed.
func field(t *testing.T, out, name string) string {
	t.Helper()
	for line := range strings.Lines(out) {
		if rest, ok := strings.CutPrefix(line, name+" "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("no %q line in:\n%s", name, out)
	return ""
}

// play plays move on the position pos (AEI form) and returns the position at
// the end of the turn.
func play(t *testing.T, pos, move string) (start, end engine.Position) {
	t.Helper()
	p, err := engine.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	turn := engine.NewTurn(p)
	if err := turn.PlayMove(move); err != nil {
		t.Fatalf("move %q on %s: %v", move, pos, err)
	}
	return p, turn.End()
}

// silverPieces counts the silver pieces of p.
func silverPieces(p engine.Position) int {
	n := 0
	for t := range engine.PieceType(engine.NumTypes) {
		n += p.Count(engine.MakePiece(engine.Silver, t))
	}
	return n
}

func TestBest(t *testing.T) {
	// Gold's rabbit on a7 reaches a8 once the dog on b8 has pulled the cat
	// away, or walks round: a goal this turn either way.
	goal := build(t, engine.Gold, "Ra7 ca8 Db8 rh8 ea1")
	// The gold elephant on d4 pushes the silver cat from c4 onto the
	// unguarded trap c3.
	capture := build(t, engine.Gold, "Ed4 cc4 ra8 rh8 Ra1 Rh1")
	// Gold's rabbit stands on its goal: the game is over.
	over := build(t, engine.Silver, "Ra8 ra7 Ee1 eh8")
	badWeights := writeFile(t, "bad.json", `{"feature_version": "f0", "scale": 1, "weights": {"bias": 1}}`)
	missing := filepath.Join(t.TempDir(), "none.json")

	tests := []struct {
		name     string
		args     []string
		wantCode int
		check    func(t *testing.T, pos, out string) // on success
		wantErr  string                              // a substring of stderr
	}{
		{name: "goal", args: []string{"-position", goal, "-visits", "100"}, check: func(t *testing.T, pos, out string) {
			if v := field(t, out, "value"); !strings.Contains(v, "+1.000") || !strings.Contains(v, "proven") {
				t.Errorf("value %q, want a proven +1.000", v)
			}
			_, end := play(t, pos, field(t, out, "move"))
			if end.Bits[engine.MakePiece(engine.Gold, engine.Rabbit)]&engine.Rank8 == 0 {
				t.Errorf("move %q does not take a gold rabbit to rank 8", field(t, out, "move"))
			}
		}},
		{name: "capture", args: []string{"-position", capture, "-visits", "3000"}, check: func(t *testing.T, pos, out string) {
			start, end := play(t, pos, field(t, out, "move"))
			if silverPieces(end) >= silverPieces(start) {
				t.Errorf("move %q captures nothing:\n%s", field(t, out, "move"), out)
			}
		}},
		{name: "report", args: []string{"-position", standard3353, "-visits", "300", "-threads", "2", "-seed", "7"}, check: func(t *testing.T, pos, out string) {
			for _, w := range []string{"weights      configs/gen0.json (generation 0, hash ", "visits       ", "simulations  300\n",
				"pv           1g   ", "top moves    (values for Gold)\n", "  move "} {
				if !strings.Contains(out, w) {
					t.Errorf("output does not contain %q:\n%s", w, out)
				}
			}
			if v := field(t, out, "value"); !strings.HasSuffix(v, "for Gold (to move)") {
				t.Errorf("value %q", v)
			}
		}},
		{name: "time only", args: []string{"-position", standard3353, "-time", "30ms"}, check: func(t *testing.T, pos, out string) {
			if field(t, out, "simulations") == "0" {
				t.Errorf("no simulations:\n%s", out)
			}
		}},
		{name: "visits before time", args: []string{"-position", standard3353, "-time", "1m", "-visits", "50"}, check: func(t *testing.T, pos, out string) {
			if s := field(t, out, "simulations"); s != "50" {
				t.Errorf("simulations %s, want 50", s)
			}
		}},
		{name: "silver", args: []string{"-position", strings.Replace(standard3353, "g", "s", 1), "-visits", "400"}, check: func(t *testing.T, pos, out string) {
			if !strings.Contains(out, "pv           1s   ") || !strings.Contains(out, "top moves    (values for Silver)") {
				t.Errorf("the variation is not labelled from 1s:\n%s", out)
			}
		}},
		{name: "full tree", args: []string{"-position", standard3353, "-max-nodes", "1"}, check: func(t *testing.T, pos, out string) {
			if n := field(t, out, "nodes"); !strings.HasSuffix(n, ": the tree is full, which ended the search early (raise -max-nodes)") {
				t.Errorf("nodes %q: the full tree not said", n)
			}
			if s := field(t, out, "simulations"); s == "0" || s == strconv.Itoa(bestVisits) {
				t.Errorf("simulations %s: the full tree did not end the search early", s)
			}
		}},
		{name: "tree not full", args: []string{"-position", standard3353, "-visits", "50", "-max-nodes", "20000"}, check: func(t *testing.T, pos, out string) {
			if n := field(t, out, "nodes"); strings.Contains(n, "full") {
				t.Errorf("nodes %q after 50 simulations", n)
			}
		}},
		{name: "bad position", args: []string{"-position", "g [rrr]"}, wantCode: 1, wantErr: "analyze best: -position: "},
		{name: "bad side", args: []string{"-position", "x [" + strings.Repeat(" ", 64) + "]"}, wantCode: 1, wantErr: "analyze best: -position: "},
		{name: "game over", args: []string{"-position", over}, wantCode: 1, wantErr: "analyze best: -position: the game is over: Gold wins by goal"},
		{name: "missing weights", args: []string{"-position", standard3353, "-weights", missing}, wantCode: 1, wantErr: missing},
		{name: "bad weights", args: []string{"-position", standard3353, "-weights", badWeights}, wantCode: 1, wantErr: "analyze best: -weights: " + badWeights},
		{name: "no position", args: nil, wantCode: 2, wantErr: "-position is required"},
		{name: "zero visits", args: []string{"-position", standard3353, "-visits", "0"}, wantCode: 2, wantErr: "-visits must be at least 1"},
		{name: "zero threads", args: []string{"-position", standard3353, "-threads", "0"}, wantCode: 2, wantErr: "-threads must be at least 1"},
		{name: "zero max nodes", args: []string{"-position", standard3353, "-max-nodes", "0"}, wantCode: 2, wantErr: "-max-nodes must be at least 1"},
		{name: "negative time", args: []string{"-position", standard3353, "-time", "-1s"}, wantCode: 2, wantErr: "-time must not be negative"},
		{name: "argument", args: []string{"-position", standard3353, "extra"}, wantCode: 2, wantErr: "usage: analyze best"},
		{name: "help", args: []string{"-h"}, wantErr: "-json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"best"}, tc.args...)...)
			if r.code != tc.wantCode {
				t.Fatalf("exit status %d, want %d; stderr:\n%s", r.code, tc.wantCode, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stderr %q does not contain %q", r.stderr, tc.wantErr)
			}
			if tc.wantCode == 1 && strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("error is not one line: %q", r.stderr)
			}
			if tc.check != nil {
				tc.check(t, tc.args[1], r.stdout)
			}
		})
	}
}

func TestPVLabels(t *testing.T) {
	pv := []string{"a", "b", "c", "d"}
	if got, want := pvLabels(1, engine.Gold, pv), []string{"1g", "1s", "2g", "2s"}; !slices.Equal(got, want) {
		t.Errorf("from 1g: %v, want %v", got, want)
	}
	if got, want := pvLabels(12, engine.Silver, pv), []string{"12s", "13g", "13s", "14g"}; !slices.Equal(got, want) {
		t.Errorf("from 12s: %v, want %v", got, want)
	}
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		args, want []string
		game       string
	}{
		{[]string{"f"}, []string{"f"}, ""},
		{[]string{"-game", "7", "f"}, []string{"f"}, "7"},
		{[]string{"f", "-game", "7"}, []string{"f"}, "7"},
		{[]string{"f", "-game", "7", "g", "-"}, []string{"f", "g", "-"}, "7"},
		{[]string{"f", "--", "-game", "7"}, []string{"f", "-game", "7"}, ""},
		{[]string{"--", "-x"}, []string{"-x"}, ""},
	}
	for _, tc := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		game := fs.String("game", "", "")
		got, err := parseFlags(fs, tc.args)
		if err != nil || !slices.Equal(got, tc.want) || *game != tc.game {
			t.Errorf("parseFlags(%q) = %q, %v, -game %q; want %q, -game %q", tc.args, got, err, *game, tc.want, tc.game)
		}
	}
}

func TestBestJSON(t *testing.T) {
	r := runCmd(t, "", "best", "-json", "-visits", "500", "-position", standard3353)
	if r.code != 0 {
		t.Fatalf("exit status %d: %s", r.code, r.stderr)
	}
	var res bestJSON
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, r.stdout)
	}
	if res.Position != standard3353 || res.Move == "" || res.Simulations != 500 || res.Visits < 1 ||
		len(res.PV) == 0 || res.PV[0] != res.Move || len(res.Top) == 0 ||
		!slices.ContainsFunc(res.Top, func(m mcts.MoveVisits) bool { return m.Move == res.Move }) ||
		res.Value < -1 || res.Value > 1 || res.Seconds <= 0 {
		t.Errorf("implausible result: %+v", res)
	}
	steps, err := engine.ParseSteps(strings.Join(res.Steps, " "))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := engine.ParsePosition(standard3353)
	if got := engine.FormatMove(p, steps); got != res.Move {
		t.Errorf("steps %v make the move %q, want %q", res.Steps, got, res.Move)
	}

	// A proven goal is JSON too.
	r = runCmd(t, "", "best", "-json", "-position", build(t, engine.Gold, "Ra7 ca8 Db8 rh8 ea1"))
	res = bestJSON{}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || !res.Proven || res.Value != 1 {
		t.Errorf("goal: %v, %+v", err, res)
	}

	// A full tree is said.
	r = runCmd(t, "", "best", "-json", "-max-nodes", "1", "-position", standard3353)
	res = bestJSON{}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || !res.TreeFull || res.Simulations >= bestVisits {
		t.Errorf("full tree: %v, tree_full %v after %d simulations", err, res.TreeFull, res.Simulations)
	}
}

func TestGame(t *testing.T) {
	const fixture = "testdata/games5.txt"
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	// A tiny archive: game 669204 alone (Gold wins by goal at 7g).
	lines := strings.Split(string(data), "\n")
	var one string
	for _, line := range lines[1:] {
		if strings.HasPrefix(line, "669204\t") {
			one = lines[0] + "\n" + line + "\n"
		}
	}
	tiny := writeFile(t, "tiny.txt", one)
	labels669204 := []string{"2g", "2s", "3g", "3s", "4g", "4s", "5g", "5s", "6g", "6s", "7g"}

	tests := []struct {
		name     string
		stdin    string
		args     []string
		wantCode int
		turns    []string // the labels of the turn lines, in order
		wantOut  []string
		wantErr  string
		check    func(t *testing.T, lines map[string][]string)
	}{
		{name: "goal game", args: []string{"-visits", "50", tiny}, turns: labels669204, wantOut: []string{
			"game 669204: ", "Gold wins by goal (recorded)\n", "weights configs/gen0.json (generation 0, hash ", "50 visits per position\n",
			"largest losses, Gold\n", "largest losses, Silver\n", "turns analysed 11 (Gold 6, Silver 5) in ", "mean loss      Gold "},
			check: func(t *testing.T, lines map[string][]string) {
				// 7g reaches the goal: the value after it is the rules' +1.
				if f := lines["7g"]; len(f) < 2 || f[len(f)-2] != "+1.000" {
					t.Errorf("7g: %q, want +1.000 after the goal", f)
				}
			}},
		{name: "by id, flags after the file", args: []string{fixture, "-game", "669204", "-visits", "50"}, turns: labels669204,
			wantOut: []string{"turns analysed 11 "}},
		{name: "stdin", stdin: string(data), args: []string{"-game", "669226", "-visits", "50", "-"}, turns: []string{"2g", "2s", "3g", "3s"},
			wantOut: []string{"Silver wins by resignation (recorded)\n", "turns analysed 4 (Gold 2, Silver 2)"}},
		{name: "unknown id", args: []string{"-game", "123", fixture}, wantCode: 1,
			wantErr: `analyze game: testdata/games5.txt: no game "123"; the file has 5 games: 669192, 669204, 669205, 669226, 669239` + "\n"},
		{name: "no games", stdin: lines[0] + "\n", args: []string{"-"}, wantCode: 1, wantErr: "stdin: no games"},
		{name: "missing file", args: []string{filepath.Join(t.TempDir(), "none.txt")}, wantCode: 1, wantErr: "no such file"},
		{name: "missing weights", args: []string{"-weights", "none.json", tiny}, wantCode: 1, wantErr: "-weights: "},
		{name: "no file", args: nil, wantCode: 2, wantErr: "usage: analyze game"},
		{name: "zero visits", args: []string{"-visits", "0", tiny}, wantCode: 2, wantErr: "-visits must be at least 1"},
		{name: "help", args: []string{"-h"}, wantErr: "-game ID"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCmd(t, tc.stdin, append([]string{"game"}, tc.args...)...)
			if r.code != tc.wantCode {
				t.Fatalf("exit status %d, want %d; stderr:\n%s", r.code, tc.wantCode, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stderr %q does not contain %q", r.stderr, tc.wantErr)
			}
			if tc.wantCode == 1 && strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("error is not one line: %q", r.stderr)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout does not contain %q:\n%s", w, r.stdout)
				}
			}
			if tc.turns != nil {
				lines := checkTurnLines(t, r.stdout, tc.turns)
				if tc.check != nil {
					tc.check(t, lines)
				}
			}
		})
	}
}

// checkTurnLines checks that the per-turn table of analyze game output has one
// line per turn with the labels want, each with values in [-1, 1] that add up,
// and returns the fields of the lines by label.
func checkTurnLines(t *testing.T, out string, want []string) map[string][]string {
	t.Helper()
	byLabel := map[string][]string{}
	table, _, _ := strings.Cut(out, "\nlargest losses")
	var got []string
	for line := range strings.Lines(table) {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.ContainsAny(f[0][:1], "0123456789") {
			continue
		}
		got = append(got, f[0])
		byLabel[f[0]] = f
		n := len(f)
		if n < 6 {
			t.Errorf("short turn line %q", line)
			continue
		}
		var vals [3]float64
		for i := range vals {
			v, err := strconv.ParseFloat(f[n-3+i], 64)
			if err != nil {
				t.Errorf("turn line %q: %v", line, err)
			}
			vals[i] = v
		}
		value, after, loss := vals[0], vals[1], vals[2]
		if d := value - after - loss; d > 0.0015 || d < -0.0015 {
			t.Errorf("turn line %q: loss is not value - after", line)
		}
		for _, v := range []float64{value, after} {
			if v < -1 || v > 1 {
				t.Errorf("turn line %q: value out of [-1, 1]", line)
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("turn lines %v, want %v:\n%s", got, want, out)
	}
	return byLabel
}
