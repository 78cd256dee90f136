package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/selfplay"
	"github.com/arimaalab/arimaalab/selfplay/selfplaytest"
)

// playRun writes a small self-play run of 4 games in 2 shards to
// DIR/gen=0000/selfplay and returns DIR.
func playRun(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := selfplaytest.Play(filepath.Join(dir, "gen=0000", "selfplay"), selfplaytest.Small{
		Games: 4, GamesPerShard: 2, MaxTurns: 20, Visits: 24, CheapVisits: 8, Seed: 3, Workers: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyRun copies the run directory src to a fresh directory.
func copyRun(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestVerifyVerb checks the verb's output and exit status; package verify's
// tests hold the damage that each check finds.
func TestVerifyVerb(t *testing.T) {
	good := playRun(t)
	res := runCmd(t, "", "verify", good)
	if res.code != 0 || !strings.Contains(res.stdout, "verified 2 shards") {
		t.Fatalf("a good run: status %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
	}
	shard := func(run string, i int) string {
		return selfplay.ShardPath(filepath.Join(run, "gen=0000", "selfplay"), i)
	}
	tests := []struct {
		name   string
		damage func(run string)
		want   func(run string) string // part of the error
	}{
		{"missing shard", func(run string) {
			os.Remove(shard(run, 1))
		}, func(run string) string { return shard(run, 1) + ": missing; the run has 2 shards" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := copyRun(t, good)
			tc.damage(run)
			res := runCmd(t, "", "verify", run)
			want := tc.want(run)
			if res.code != 1 || !strings.Contains(res.stderr, want) || strings.Count(res.stderr, "\n") != 1 {
				t.Fatalf("status %d, stderr %q; want status 1 and one line with %q", res.code, res.stderr, want)
			}
		})
	}
	if res := runCmd(t, "", "verify"); res.code != 2 {
		t.Errorf("no path: status %d", res.code)
	}
}
