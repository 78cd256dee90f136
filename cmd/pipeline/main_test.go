package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/pipeline"
)

func TestPipeline(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"-verify-only"}, &out, &errOut); code != 0 {
		t.Fatalf("exit status %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{
		"engine verification\n",
		"move counts   32 positions of clueless32.aei, 2987987 moves: all as expected",
		"replay        147 games of allgames202602.txt, ",
		"all legal, results as recorded",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout does not contain %q:\n%s", want, out.String())
		}
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr is not empty (no terminal, so no progress bar): %q", errOut.String())
	}
}

func TestPipelineUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-h"}, 0, "usage: pipeline"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"-nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"-preset", "huge"}, 1, "no pipeline preset"},
		{[]string{"-generations", "-2"}, 2, "-generations -2: want at least 1"},
		{[]string{"-preset", "standard", "-config", "/nonexistent/mine.yaml"}, 1, "/nonexistent/mine.yaml"},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errOut)
		if code != tc.code || !strings.Contains(errOut.String(), tc.err) {
			t.Errorf("pipeline %q: status %d, stderr %q; want %d and %q", tc.args, code, errOut.String(), tc.code, tc.err)
		}
	}
}

// A wrong count or a wrong result must fail the verification, naming the problem.
func TestPipelineFailure(t *testing.T) {
	v, err := embeddedVerification()
	if err != nil {
		t.Fatal(err)
	}
	v.counts = v.counts[:3]
	v.counts[1].want++
	v.games = v.games[:4]
	rec := &v.games[1] // game 669123, Gold wins by goal
	if rec.Termination != engine.Goal {
		t.Fatalf("game %s: termination %v, want goal", rec.ID, rec.Termination)
	}
	rec.Result = rec.Result.Other()
	var out bytes.Buffer
	err = verify(v, &out, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "2 problems") {
		t.Errorf("error %v, want verification failed with 2 problems", err)
	}
	for _, want := range []string{
		"3 positions of clueless32.aei",
		"1 WRONG",
		"clueless32.aei:2: 20203 moves, expected 20204\n",
		"allgames202602.txt: game 669123, turn ",
		"but by the rules Gold wins by goal\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout does not contain %q:\n%s", want, out.String())
		}
	}
}

func TestParseCounts(t *testing.T) {
	pos := "# comment\n" + strings.SplitN(clueless32, "\n", 2)[0] + "\n"
	tests := []struct {
		name, expected, err string
	}{
		{"ok", "2 20229\n", ""},
		{"missing count", "", "clueless32.aei:2: no expected count"},
		{"extra count", "2 20229\n5 10\n", "a count for line 5"},
		{"bad count", "2 x\n", "clueless32.aei.expected:1: "},
	}
	for _, tc := range tests {
		cases, err := parseCounts("clueless32.aei", pos, tc.expected)
		switch {
		case tc.err == "" && (err != nil || len(cases) != 1 || cases[0].line != 2 || cases[0].want != 20229):
			t.Errorf("%s: %v, %+v", tc.name, err, cases)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		}
	}
}

// TestPipelineClaimed: a pipeline on a directory that another runs is
// refused at once, before the engine verification, naming the other.
func TestPipelineClaimed(t *testing.T) {
	dir := t.TempDir()
	claim, err := pipeline.ClaimRun(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer claim.Release()
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"-out", dir}, &out, &errOut)
	want := fmt.Sprintf("pipeline: %s: another pipeline runs this directory: pid %d on host ", dir, os.Getpid())
	if code != 1 || !strings.HasPrefix(errOut.String(), want) || strings.Count(errOut.String(), "\n") != 1 || out.Len() != 0 {
		t.Errorf("exit status %d, stdout %q, stderr %q; want 1, nothing and one line starting %q", code, out.String(), errOut.String(), want)
	}
}
