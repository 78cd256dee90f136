package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/aei"
	"github.com/arimaalab/arimaalab/mcts"
)

// strictHelperEnv makes TestHelperStrictAEI serve AEI on stdin and stdout.
const strictHelperEnv = "ARIMAALAB_MATCH_STRICT_AEI_HELPER"

// TestHelperStrictAEI is not a test: run as a child process with
// strictHelperEnv set, it is an AEI engine that refuses makemove, setposition,
// go and stop before the first newgame, as Sharp does ("log Error: ... called
// without newgame", and no bestmove ever), and otherwise plays as this
// project's engine with a few simulations a move.
func TestHelperStrictAEI(t *testing.T) {
	if os.Getenv(strictHelperEnv) == "" {
		return
	}
	if err := serveStrict(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// serveStrict runs the strict engine of TestHelperStrictAEI on in and out.
func serveStrict(in io.Reader, out io.Writer) error {
	e, err := aei.NewEngine(aei.Config{Seed: 1, Search: mcts.Config{Visits: 16, MaxNodes: 1 << 14}})
	if err != nil {
		return err
	}
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- e.Run(context.Background(), pr, w) }()
	newgame := false
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := sc.Text()
		cmd, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch cmd {
		case "newgame":
			newgame = true
		case "makemove", "setposition", "go", "stop":
			if !newgame {
				fmt.Fprintf(w, "log Error: %s called without newgame\n", cmd)
				continue
			}
		}
		if _, err := io.WriteString(pw, line+"\n"); err != nil {
			break
		}
	}
	pw.Close()
	return <-done
}

// lockedWriter serializes the writes of the engine and of serveStrict.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestAEINewGameFirst plays a match against an engine that refuses every
// command of a game before newgame: it completes only because every game, the
// first one of an engine process too, starts with newgame. The engine is
// reused for the second game, and it reports no error.
func TestAEINewGameFirst(t *testing.T) {
	s, err := ParseSpec("aei='"+os.Args[0]+"' -test.run=^TestHelperStrictAEI$,name=strict", "")
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return log.Write(p)
	}), nil))
	strict, err := NewAEIPlayerWith(s, AEIOptions{
		// A race-enabled program exiting with status 0 sleeps a second first.
		Env:         append(os.Environ(), strictHelperEnv+"=1", "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")),
		MoveTimeout: 10 * time.Second,
		Logger:      logger,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer strict.Close()
	res, err := Run(context.Background(), player(t, "random"), strict,
		Options{Games: 2, Seed: 3, MaxTurns: 12, Setups: DefaultSetups(), Concurrency: 1, Log: logger})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Stats.Games(); n != 2 {
		t.Fatalf("%d games, want 2", n)
	}
	if n := len(strict.idle); n != 1 {
		t.Errorf("%d idle engines after the match, want 1 (reused by the second game)", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if log.Len() > 0 {
		t.Errorf("the engine reported errors:\n%s", log.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
