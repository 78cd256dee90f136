package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/judge"
)

// TestLabel runs analyze label with this project's engine as the judge
// (acting as Sharp: Silver's positions must be mirrored): the summary, shards
// that analyze verify passes (those of a successors file's groups too), a
// second run that finds them written, verify's
// checks of labelled games (a missing shard, rows out of order, a result
// that does not alternate), and the errors of bad command lines and files
// (one line each, naming the file and line).
func TestLabel(t *testing.T) {
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	t.Setenv(aeiHelperEnv, "sharp")
	helper := "'" + os.Args[0] + "' -test.run=^TestHelperAEIEngine$"
	games := "testdata/games5.txt"
	out := filepath.Join(t.TempDir(), "labels")
	args := []string{"label", "-engine", helper, "-option", "visits=40", "-option", "threads=1", "-out", out,
		"-n", "12", "-seed", "2", "-shard-size", "4", "-workers", "2", games}
	r := runCmd(t, "", args...)
	if r.code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", r.code, r.stderr)
	}
	m := regexp.MustCompile(`^positions 12 in .*/labels: shards written (\d), skipped \(already done\) 0\n` +
		`rows 12, scores info score 12, mean \|score\| \d+\.\d\d rabbits\n` +
		`engine time \d+\.\ds on 2 engines \(\d\.\d{3}s a position\), wall \d+\.\ds, \d+\.\d rows/s\n$`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("stdout:\n%s", r.stdout)
	}
	shards := m[1]
	if strings.Contains(r.stderr, "WARN") {
		t.Errorf("the engine reported errors:\n%s", r.stderr)
	}
	v := runCmd(t, "", "verify", out)
	if v.code != 0 || !strings.Contains(v.stdout, "verified "+shards+" shards, 12 rows, ") {
		t.Fatalf("verify: status %d\n%s%s", v.code, v.stdout, v.stderr)
	}
	again := runCmd(t, "", args...)
	if again.code != 0 || !strings.Contains(again.stdout, "shards written 0, skipped (already done) "+shards+"\nrows 0 (every shard was written already)\n") {
		t.Errorf("again: status %d\n%s%s", again.code, again.stdout, again.stderr)
	}

	// Verify's checks of labelled shards.
	rewriteShard := func(path string, change func([]data.Row) []data.Row) {
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
	// The first shard holds whole games; find two rows of one game.
	rows, err := data.ReadRows(judge.ShardPath(out, 0))
	if err != nil {
		t.Fatal(err)
	}
	pair := -1
	for i := 1; i < len(rows); i++ {
		if rows[i].GameID == rows[i-1].GameID {
			pair = i
			break
		}
	}
	if pair < 0 {
		t.Fatalf("no game of two rows in the first shard")
	}
	for _, c := range []struct {
		name   string
		damage func(dir string)
		want   string
	}{
		{"missing shard", func(dir string) { os.Remove(judge.ShardPath(dir, 1)) }, "shard-00001.arrow: missing; the run has " + shards + " shards"},
		{"rows out of order", func(dir string) {
			rewriteShard(judge.ShardPath(dir, 0), func(r []data.Row) []data.Row { r[pair-1], r[pair] = r[pair], r[pair-1]; return r })
		}, "shard-00000.arrow: row " + strconv.Itoa(pair) + " (game "},
		{"result", func(dir string) {
			rewriteShard(judge.ShardPath(dir, 0), func(r []data.Row) []data.Row {
				if r[pair].Result == 0 {
					r[pair].Result, r[pair].Termination = 1, "goal"
				} else {
					r[pair].Result = -r[pair].Result
				}
				return r
			})
		}, "shard-00000.arrow: row " + strconv.Itoa(pair) + " (game "},
	} {
		dir := copyRun(t, out)
		c.damage(dir)
		res := runCmd(t, "", "verify", dir)
		if res.code != 1 || !strings.Contains(res.stderr, c.want) || strings.Count(res.stderr, "\n") != 1 {
			t.Errorf("verify, %s: status %d, stderr %q; want status 1 and one line with %q", c.name, res.code, res.stderr, c.want)
		}
	}

	// Groups of positions one move after one position (analyze successors),
	// labelled for train -pairs: a group's rows share a game id, a turn and a
	// side, and verify passes them.
	succ := filepath.Join(t.TempDir(), "succ.aei")
	if r := runCmd(t, "", "successors", "-every", "16", "-pick", "2", "-random", "1", "-out", succ, games); r.code != 0 {
		t.Fatalf("successors: status %d\n%s", r.code, r.stderr)
	}
	grouped := filepath.Join(t.TempDir(), "grouped")
	if r := runCmd(t, "", "label", "-engine", helper, "-option", "visits=40", "-option", "threads=1", "-out", grouped,
		"-shard-size", "6", "-workers", "2", succ); r.code != 0 {
		t.Fatalf("label of groups: status %d\n%s", r.code, r.stderr)
	}
	grows, err := data.ReadRows(judge.ShardPath(grouped, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(grows) < 2 {
		t.Fatalf("the first shard of groups holds %d rows, want at least 2", len(grows))
	}
	if grows[0].GameID != grows[1].GameID || grows[0].Turn != grows[1].Turn || grows[0].Side != grows[1].Side {
		t.Fatalf("the first two rows of a group differ in game, turn or side: %d %d %d, %d %d %d",
			grows[0].GameID, grows[0].Turn, grows[0].Side, grows[1].GameID, grows[1].Turn, grows[1].Side)
	}
	if v := runCmd(t, "", "verify", grouped); v.code != 0 {
		t.Errorf("verify of labelled groups: status %d\n%s%s", v.code, v.stdout, v.stderr)
	}

	badPositions := writeFile(t, "bad.aei", standard3353+"\n\ng [rr]\n")
	header, _, _ := strings.Cut(readFile(t, games), "\n")
	empty := writeFile(t, "empty.txt", header+"\n") // an archive without games
	o := filepath.Join(t.TempDir(), "x")
	base := []string{"label", "-engine", helper, "-out", o}
	for _, c := range []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no files", base, 2, "want archive or position files"},
		{"no engine", []string{"label", "-out", o, games}, 2, "-engine is required"},
		{"no out", []string{"label", "-engine", helper, games}, 2, "-out DIR is required"},
		{"negative n", append(base, "-n", "-1", games), 2, "-n must not be negative"},
		{"every 0", append(base, "-every", "0", games), 2, "-every must be at least 1"},
		{"workers 0", append(base, "-workers", "0", games), 2, "-workers must be at least 1"},
		{"scale 0", append(base, "-scale", "0", games), 2, "-scale must be positive"},
		{"shard size 0", append(base, "-shard-size", "0", games), 2, "-shard-size must be at least 1"},
		{"bad option", append(base, "-option", "depth", games), 2, `"depth" is not NAME=VALUE`},
		{"a file twice", append(base, games, games), 2, "testdata/games5.txt is named twice"},
		{"bad position file", append(base, badPositions), 1, badPositions + ":3: "},
		{"no positions", append(base, empty), 1, "analyze label: no positions in " + empty},
		{"missing file", append(base, "/nonexistent/games.txt"), 1, "/nonexistent/games.txt"},
		{"missing engine", []string{"label", "-engine", "/nonexistent/engine", "-out", o, games}, 1, "analyze label: -engine: aei: starting the engine"},
		{"another run", []string{"label", "-engine", helper, "-option", "visits=40", "-option", "threads=1", "-out", out,
			"-n", "12", "-seed", "3", "-shard-size", "4", games}, 1, "shard-00000.arrow was written with selection.seed 2, but this run has 3"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.err) || c.code == 1 && strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%s: exit status %d, stderr %q; want %d and %q", c.name, r.code, r.stderr, c.code, c.err)
		}
	}
}

// readFile returns the content of the file name.
func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
