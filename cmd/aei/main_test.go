package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFile writes content to a file in a fresh temporary directory and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSession runs a session with a search config and checks that the search
// follows it.
func TestSession(t *testing.T) {
	cfg := writeFile(t, "search.yaml", "# settings\nvisits: 123\ntime: 30s\nthreads: 1\ncpuct: 1.2\npriors: heuristic\n")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(context.Background(), []string{"-config", cfg, "-seed", "5"}, inR, outW, &stderr)
		outW.Close()
	}()
	out := bufio.NewScanner(outR)
	until := func(prefix string) []string {
		t.Helper()
		var got []string
		for out.Scan() {
			got = append(got, out.Text())
			if strings.HasPrefix(out.Text(), prefix) {
				return got
			}
		}
		t.Fatalf("no %q in %q", prefix, got)
		return nil
	}
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send("aei")
	until("aeiok")
	send("setposition g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]")
	send("go")
	got := until("bestmove")
	if !strings.Contains(strings.Join(got, "\n"), "info nodes 123\n") {
		t.Errorf("the search did not follow the config: %q", got)
	}
	send("quit")
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit status %d; stderr %s", c, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no exit after quit")
	}
}

func TestCommandLine(t *testing.T) {
	badKey := writeFile(t, "bad.yaml", "visits: 10\nvisit: 20\n")
	badValue := writeFile(t, "bad2.yaml", "threads: -1\n")
	empty := writeFile(t, "empty.yaml", "")
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-config", badKey}, 1, "field visit not found"},
		{[]string{"-config", badValue}, 1, "negative setting"},
		{[]string{"-config", "/nonexistent/x.yaml"}, 1, "-config: "},
		{[]string{"-weights", "/nonexistent/w.json"}, 1, "-weights: "},
		{[]string{"extra"}, 2, "unexpected arguments"},
		{[]string{"-bogus"}, 2, "flag provided but not defined"},
		{[]string{"-h"}, 0, "usage: aei"},
		{[]string{"-config", empty}, 0, ""},
	} {
		var stdout, stderr bytes.Buffer
		got := run(context.Background(), c.args, strings.NewReader(""), &stdout, &stderr)
		if got != c.code || !strings.Contains(stderr.String(), c.err) {
			t.Errorf("%q: status %d, stderr %q; want %d and %q", c.args, got, stderr.String(), c.code, c.err)
		}
	}
}
