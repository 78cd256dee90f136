package judge

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/engine"
)

// fakeEnv makes the test binary the fake engine (see fakeEngine): its value
// is the file of the fake's scores. fakeLogEnv names the file where the fake
// writes every message it reads.
const (
	fakeEnv    = "JUDGE_TEST_FAKE_ENGINE"
	fakeLogEnv = "JUDGE_TEST_FAKE_LOG"
)

func TestMain(m *testing.M) {
	if table := os.Getenv(fakeEnv); table != "" {
		os.Exit(fakeEngine(table, os.Getenv(fakeLogEnv)))
	}
	os.Exit(m.Run())
}

// fakeEngine serves AEI as Sharp does, with scores from the file table: each
// line "BOARD|KIND|VALUE[|MOVE]" gives, for the 64 squares BOARD with Gold to
// move, the score to report (KIND info: "info score VALUE"; log: Sharp's "log
// Depth 5 Eval VALUE ..."; both: the two, the log line's Eval ten times the
// score plus 7; none: neither) and the bestmove (default: the first move the
// generator makes). Like Sharp it ignores the side to move of setposition
// (Gold is always to move) and wants newgame before setposition and go. A
// position not in the table, or a go out of order, ends it with status 3.
func fakeEngine(table, logFile string) int {
	data, err := os.ReadFile(table)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	type entry struct{ kind, value, move string }
	scores := map[string]entry{}
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		f := strings.Split(l, "|")
		for len(f) < 4 {
			f = append(f, "")
		}
		scores[f[0]] = entry{f[1], f[2], f[3]}
	}
	var log *os.File
	if logFile != "" {
		if log, err = os.OpenFile(logFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer log.Close()
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	board, newgame := "", false
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := sc.Text()
		if log != nil {
			fmt.Fprintln(log, line)
		}
		cmd, rest, _ := strings.Cut(line, " ")
		switch cmd {
		case "aei":
			say("protocol-version 1\nid name fake\nid version 1\naeiok")
		case "isready":
			say("readyok")
		case "setoption":
			say("log %s", rest)
		case "newgame":
			newgame, board = true, ""
		case "setposition":
			if !newgame {
				fmt.Fprintln(os.Stderr, "setposition without newgame")
				return 3
			}
			_, b, _ := strings.Cut(rest, "[")
			board = strings.TrimSuffix(b, "]")
		case "go":
			e, ok := scores[board]
			if !newgame || !ok {
				fmt.Fprintf(os.Stderr, "go out of order or unknown board %q\n", board)
				return 3
			}
			newgame = false
			switch e.kind {
			case "info":
				say("info depth 5\ninfo score %s", e.value)
			case "log":
				say("log Depth 4 Eval 1 Time 0.01\nlog Depth 5 Eval %s Time 0.02 Seed 0123abcd", e.value)
			case "both":
				say("info score %s\nlog Depth 5 Eval %s7 Time 0.02", e.value, e.value)
			}
			move := e.move
			if move == "" {
				p, err := engine.ParsePosition("g [" + board + "]")
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					return 3
				}
				g := engine.NewMoveGen()
				if g.Generate(&p, nil) == 0 {
					return 3
				}
				move = engine.FormatMove(p, g.Steps(0, nil))
			}
			say("bestmove %s", move)
		case "quit":
			return 0
		}
	}
	return 0
}

// score is one line of the fake's table.
type score struct {
	pos         string // the position (any side to move) whose board Gold searches
	kind, value string
	move        string
}

// startFake starts the fake engine with the scores of table and returns the
// Engine and the file of the messages it read.
func startFake(t *testing.T, table []score, opt Options) (*Engine, string) {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	for _, s := range table {
		p, err := engine.ParsePosition(s.pos)
		if err != nil {
			t.Fatal(err)
		}
		str := p.String()
		fmt.Fprintf(&b, "%s|%s|%s|%s\n", str[3:len(str)-1], s.kind, s.value, s.move)
	}
	tableFile, logFile := filepath.Join(dir, "table"), filepath.Join(dir, "log")
	if err := os.WriteFile(tableFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	opt.Command = "'" + os.Args[0] + "'"
	opt.AEI.Env = append(os.Environ(), fakeEnv+"="+tableFile, fakeLogEnv+"="+logFile,
		// A race-enabled program exiting with status 0 sleeps a second first.
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	e, err := Start(t.Context(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, logFile
}

// received returns the messages the fake read, those of some commands only.
func received(t *testing.T, logFile string, cmds ...string) []string {
	t.Helper()
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		cmd, _, _ := strings.Cut(l, " ")
		for _, c := range cmds {
			if cmd == c {
				out = append(out, l)
			}
		}
	}
	return out
}

// board writes the position of side to move with pieces such as "Ra1 ed4".
func board(t *testing.T, side engine.Color, pieces string) string {
	t.Helper()
	var p engine.Position
	for _, w := range strings.Fields(pieces) {
		pc, err := engine.PieceFromLetter(w[0])
		if err != nil {
			t.Fatal(err)
		}
		sq, err := engine.ParseSquare(w[1:])
		if err != nil {
			t.Fatal(err)
		}
		p.Put(pc, sq)
	}
	p.SetSide(side)
	return p.String()
}

// mirror returns the mirror image of the position pos.
func mirror(t *testing.T, pos string) string {
	t.Helper()
	p, err := engine.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	m, err := aei.MirrorPosition(p)
	if err != nil {
		t.Fatal(err)
	}
	return m.String()
}
