package verify

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/data"
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

// rewrite replaces shard i of run by the rows change makes of its rows,
// published with a good checksum (as a buggy writer would).
func rewrite(t *testing.T, run string, i int, change func([]data.Row) []data.Row) {
	t.Helper()
	path := selfplay.ShardPath(filepath.Join(run, "gen=0000", "selfplay"), i)
	r, err := data.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	meta := r.Meta(0)
	r.Close()
	rows, err := data.ReadRows(path)
	if err != nil {
		t.Fatal(err)
	}
	rows = change(rows)
	w, err := data.Create(path, meta, data.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for k := range rows {
		if err := w.Write(&rows[k]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// check verifies every shard of run, then the runs' completeness, and
// returns the shards and rows verified and the first error.
func check(run string) (shards int, rows int64, err error) {
	files, err := data.Files(run)
	if err != nil {
		return 0, 0, err
	}
	v := New(io.Discard)
	for _, f := range files {
		n, _, err := v.Shard(f)
		if err != nil {
			return shards, rows, err
		}
		shards, rows = shards+1, rows+n
	}
	return shards, rows, v.Complete()
}

func TestVerify(t *testing.T) {
	good := playRun(t)
	shards, rows, err := check(good)
	if err != nil || shards != 2 || rows == 0 {
		t.Fatalf("a good run: %d shards, %d rows, %v", shards, rows, err)
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
		{"shard renamed", func(run string) {
			os.Rename(shard(run, 1), filepath.Join(run, "elsewhere.arrow"))
			os.Rename(data.SumPath(shard(run, 1)), data.SumPath(filepath.Join(run, "elsewhere.arrow")))
		}, func(run string) string { return `the checksum of "shard-00001.arrow", not of elsewhere.arrow` }},
		{"flipped byte", func(run string) {
			b, _ := os.ReadFile(shard(run, 0))
			b[len(b)/2] ^= 4
			os.WriteFile(shard(run, 0), b, 0o644)
		}, func(run string) string { return shard(run, 0) + ": checksum mismatch" }},
		{"no checksum", func(run string) {
			os.Remove(data.SumPath(shard(run, 1)))
		}, func(run string) string { return shard(run, 1) + ": no checksum file" }},
		{"other records", func(run string) {
			b, _ := os.ReadFile(selfplay.GamesPath(filepath.Dir(shard(run, 1)), 1))
			os.WriteFile(selfplay.GamesPath(filepath.Dir(shard(run, 0)), 0), b, 0o644)
		}, func(run string) string { return "shard-00000.games.txt: game 1 is" }},
		{"impossible board", func(run string) {
			rewrite(t, run, 0, func(r []data.Row) []data.Row { r[3].Board[5] = 0xFF; return r }) // 8 gold elephants
		}, func(run string) string { return shard(run, 0) + ": row 3 (game" }},
		{"features not of the board", func(run string) {
			rewrite(t, run, 1, func(r []data.Row) []data.Row { r[2].Features[1] += 1; return r })
		}, func(run string) string { return "feature material_elephant is" }},
		{"game cut short", func(run string) {
			rewrite(t, run, 0, func(r []data.Row) []data.Row { return append(r[:4:4], r[5:]...) })
		}, func(run string) string { return shard(run, 0) + ": row 4 (game" }},
		{"result flipped", func(run string) {
			rewrite(t, run, 1, func(r []data.Row) []data.Row {
				if r[1].Result != 0 {
					r[1].Result = -r[1].Result
				} else {
					r[1].Result, r[1].Termination = 1, "goal"
				}
				return r
			})
		}, func(run string) string { return shard(run, 1) + ": row 1 (game" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := t.TempDir()
			if err := os.CopyFS(run, os.DirFS(good)); err != nil {
				t.Fatal(err)
			}
			tc.damage(run)
			_, _, err := check(run)
			want := tc.want(run)
			if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v; want one line with %q", err, want)
			}
		})
	}
}
