package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
)

func TestShow(t *testing.T) {
	posFile := writeFile(t, "p.aei", "# two\n"+standard3353+"\n\n"+clueless1+"\n")
	moveFile := writeFile(t, "m.txt", "2g Ee2n Ee3n\n2s ed7s\n")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string // substrings of stdout, in order
		wantErr  string   // a substring of stderr
		frames   int      // boards drawn, when not 0
	}{
		{name: "position", args: []string{"show", "-position", standard3353}, want: []string{"Gold to move\n    a b c d e f g h\n", "2 | H D C M E C D H | 2\n"}, frames: 1},
		{name: "position file", args: []string{"show", posFile}, want: []string{posFile + ":2: Gold to move", posFile + ":4: Gold to move"}, frames: 2},
		{name: "move list", args: []string{"show", "-moves", "2g Ee2n Ee3n 2s ed7s"}, want: []string{"game: 2 moves, unfinished", "2g  Gold to move  (position 1 of 3)", "move:   2g Ee2n Ee3n", "end  Gold to move  (position 3 of 3)", "result: unfinished"}, frames: 3},
		{name: "move list file", args: []string{"show", moveFile, "-turn", "2s"}, want: []string{"game: 2 moves, unfinished\n\n2s  Silver to move  (position 2 of 3)", "4 | . . . .[E]. . . | 4", "last:   2g Ee2n Ee3n\nmove:   2s ed7s\n"}, frames: 1},
		{name: "archive", args: []string{"show", "-game", "669168", "-turn", "end", "../../engine/testdata/allgames202602.txt"}, want: []string{"game 669168, browni3141 (Gold) vs bot_dolores_v1 (Silver): 59 moves, Gold wins by goal", "result: Gold wins by goal"}, frames: 1},
		{name: "archive, every position", args: []string{"show", "../../engine/testdata/allgames202602.txt", "-game", "669168"}, frames: 60},
		{name: "no source", args: []string{"show"}, wantCode: 2, wantErr: "want one of -position, -moves or a PATH"},
		{name: "two sources", args: []string{"show", "-position", standard3353, posFile}, wantCode: 2, wantErr: "want one of -position, -moves or a PATH"},
		{name: "bad position", args: []string{"show", "-position", "g [rr]"}, wantCode: 1, wantErr: "analyze show: -position: "},
		{name: "bad move list", args: []string{"show", "-moves", "2g Ee2s"}, wantCode: 1, wantErr: `analyze show: -moves: move list: turn 2g: step 1 "Ee2s": e1 is occupied by R`},
		{name: "bad turn", args: []string{"show", moveFile, "-turn", "9g"}, wantCode: 1, wantErr: "-turn: turn 9g: the game's moves run from 2g to 2s"},
		{name: "missing game", args: []string{"show", "-game", "1", "../../engine/testdata/allgames202602.txt"}, wantCode: 1, wantErr: `no game "1"`},
		{name: "missing file", args: []string{"show", filepath.Join(t.TempDir(), "none.txt")}, wantCode: 1, wantErr: "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", tt.args...)
			if r.code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", r.code, tt.wantCode, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.wantErr) {
				t.Errorf("stderr %q, want %q", r.stderr, tt.wantErr)
			}
			at := 0
			for _, w := range tt.want {
				i := strings.Index(r.stdout[at:], w)
				if i < 0 {
					t.Fatalf("stdout lacks %q after offset %d:\n%s", w, at, r.stdout)
				}
				at += i + len(w)
			}
			if n := strings.Count(r.stdout, "  +-----------------+\n    a b c d e f g h\n"); tt.frames != 0 && n != tt.frames {
				t.Errorf("%d boards, want %d", n, tt.frames)
			}
		})
	}
}

// TestShowRun steps through a self-play game of a run by its id, with the
// search's values.
func TestShowRun(t *testing.T) {
	run := playRun(t)
	recs, err := readArchiveFile(filepath.Join(run, "gen=0000", "selfplay", "shard-00001.games.txt"))
	if err != nil {
		t.Fatal(err)
	}
	id := recs[0].ID
	r := runCmd(t, "", "show", "-game", id, run)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "game "+id+": ") || !strings.Contains(r.stdout, "search: value ") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	if n, want := strings.Count(r.stdout, "search: value "), len(recs[0].Moves)-2; n < want-1 || n > want {
		t.Errorf("%d moves with the search's value, want %d", n, want)
	}
	r = runCmd(t, "", "show", run)
	if r.code != 1 || !strings.Contains(r.stderr, "4 games in 2 files; name one with -game ID") {
		t.Errorf("a run without -game: exit %d, %s", r.code, r.stderr)
	}
}

func readArchiveFile(path string) ([]engine.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return engine.ReadArchive(f, path)
}

func TestPlayVerb(t *testing.T) {
	save := filepath.Join(t.TempDir(), "game.txt")
	r := runCmd(t, "\nEe2n Ee3n\nquit\n", "play", "-visits", "100", "-bot-setup", "standard", "-save", save)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, w := range []string{"Bot: arimaalab-gen0, weights configs/gen0.json", "100 simulations a move, 1 thread", "2g you: Ee2n Ee3n", "2s arimaalab-gen0: ", "Game left unfinished."} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
		}
	}
	recs, err := readArchiveFile(save)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Gold != "you" || recs[0].Silver != "arimaalab-gen0" || len(recs[0].Moves) != 5 {
		t.Fatalf("saved %+v", recs)
	}
	if _, err := engine.Verify(recs[0]); err != nil {
		t.Errorf("the saved game does not replay: %v", err)
	}
	// Silver, with its setup given: the bot moves first.
	r = runCmd(t, "resign\n", "play", "-color", "silver", "-setup", "standard", "-visits", "50")
	if r.code != 0 || !strings.Contains(r.stdout, "2g arimaalab-gen0: ") || !strings.Contains(r.stdout, "Gold wins by resignation.") {
		t.Errorf("silver: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, bad := range []struct{ args, want string }{
		{"-color red", `-color "red": want gold or silver`},
		{"-bot-setup odd", `-bot-setup "odd": want random or standard`},
		{"-visits 0", "-visits must be at least 1"},
		{"extra", "no arguments, only flags"},
	} {
		r := runCmd(t, "", append([]string{"play"}, strings.Fields(bad.args)...)...)
		if r.code != 2 || !strings.Contains(r.stderr, bad.want) {
			t.Errorf("%s: exit %d, %q", bad.args, r.code, r.stderr)
		}
	}
	r = runCmd(t, "", "play", "-setup", "Ra1", "-visits", "10")
	if r.code != 1 || !strings.Contains(r.stderr, `analyze play: setup "Ra1": 1 pieces placed, 16 needed`) {
		t.Errorf("bad -setup: exit %d, %q", r.code, r.stderr)
	}
}
