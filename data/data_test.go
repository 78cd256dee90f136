package data

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
)

// testMeta returns the metadata of test shard number shard.
func testMeta(shard int) Meta {
	return Meta{
		FeatureNames:      features.Names(),
		FeatureVersion:    features.Version(),
		WeightsGeneration: 3,
		WeightsHash:       "sha256:0123abcd",
		Search:            `{"visits":800,"cpuct":1.5}`,
		EngineVersion:     "engine-test",
		RunSeed:           1<<63 + 12345,
		Shard:             shard,
		Extra:             map[string]string{"note": "test shard", "z.key": "last"},
	}
}

// moveNames are move strings of the sizes real moves have.
var moveNames = []string{"Ed2n Ed3n Ed4n Ed5w", "Ra2n", "hb7s hb6s Rb5n Rb4x", "Mc4e Md4n", "Cf3w Ce3x dg6s dg5s", "pass"}

// testRows returns n rows of games of varied lengths: every termination, empty
// and multi-entry policies, both sides, extreme values.
func testRows(n int, seed uint64) []Row {
	rng := rand.New(rand.NewPCG(seed, 7))
	terms := Terminations()
	rows := make([]Row, n)
	game, turn, left := uint64(seed)<<32, uint16(2), 0
	term, winner := "", uint8(0)
	for i := range rows {
		if left == 0 {
			game++
			turn = 2
			left = 1 + rng.IntN(30)
			term = terms[int(game)%len(terms)]
			winner = uint8(rng.IntN(2))
		}
		r := &rows[i]
		r.GameID = game
		r.Turn = turn
		r.Side = uint8(turn % 2)
		for k := range r.Board {
			r.Board[k] = rng.Uint64()
		}
		r.Board[0] = ^uint64(0)
		r.Features = make([]float32, features.N)
		for k := range r.Features {
			r.Features[k] = float32(rng.NormFloat64() * 5)
		}
		r.Move = moveNames[rng.IntN(len(moveNames))]
		r.RootValue = float32(rng.Float64()*2 - 1)
		r.Visits = uint32(rng.IntN(5000))
		for range rng.IntN(6) { // 0..5 entries
			r.Policy = append(r.Policy, PolicyEntry{moveNames[rng.IntN(len(moveNames))], uint32(rng.IntN(1000))})
		}
		switch {
		case term == "max-turns" || term == "not-over":
			r.Result = 0
		case r.Side == winner:
			r.Result = 1
		default:
			r.Result = -1
		}
		r.PliesLeft = uint16(left)
		r.Termination = term
		r.FullSearch = rng.IntN(4) != 0
		turn++
		left--
	}
	if n > 0 {
		rows[0].Visits = ^uint32(0)
		rows[0].Policy = []PolicyEntry{{"", 0}, {"Ee2n", ^uint32(0)}}
		rows[0].Move = ""
	}
	return rows
}

// writeShard writes rows to path and returns the path.
func writeShard(t testing.TB, path string, meta Meta, opt WriterOptions, rows []Row) string {
	t.Helper()
	w, err := Create(path, meta, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if w.Rows() != int64(len(rows)) {
		t.Errorf("Rows() = %d, want %d", w.Rows(), len(rows))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeWithSum writes b to path with its checksum file, as if published.
func writeWithSum(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(SumPath(path), []byte(sumLine(path, checksum(b))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// normalize makes nil and empty slices alike for comparisons.
func normalize(rows []Row) []Row {
	out := slices.Clone(rows)
	for i := range out {
		if len(out[i].Policy) == 0 {
			out[i].Policy = nil
		}
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	rows := testRows(1000, 1)
	// Every termination and policies of every size appear.
	seenTerm := map[string]bool{}
	seenPolicy := map[int]bool{}
	for _, r := range rows {
		seenTerm[r.Termination] = true
		seenPolicy[len(r.Policy)] = true
	}
	if len(seenTerm) != len(Terminations()) || len(seenPolicy) < 6 {
		t.Fatalf("test rows miss cases: terminations %v, policy sizes %v", seenTerm, seenPolicy)
	}
	tests := []struct {
		name string
		opt  WriterOptions
		n    int // rows written, all if 0
	}{
		{"default", WriterOptions{}, 0},
		{"lz4", WriterOptions{Compression: LZ4, BatchRows: 7}, 0},
		{"zstd", WriterOptions{Compression: Zstd, BatchRows: 100}, 0},
		{"none", WriterOptions{Compression: None, BatchRows: 1000}, 0},
		{"one row batches", WriterOptions{BatchRows: 1}, 60},
	}
	all := rows
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := all
			if tt.n > 0 {
				rows = all[:tt.n]
			}
			path := writeShard(t, filepath.Join(t.TempDir(), "gen=0003", "selfplay", "shard-00001.arrow"), testMeta(1), tt.opt, rows)
			got, err := ReadRows(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(normalize(got), normalize(rows)) {
				for i := range rows {
					if !reflect.DeepEqual(normalize(got[i:i+1]), normalize(rows[i:i+1])) {
						t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], rows[i])
					}
				}
				t.Fatalf("got %d rows, want %d", len(got), len(rows))
			}

			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if !reflect.DeepEqual(r.Meta(0), testMeta(1)) {
				t.Errorf("Meta(0) = %+v, want %+v", r.Meta(0), testMeta(1))
			}
			if r.Rows() != int64(len(rows)) || r.FileRows(0) != int64(len(rows)) {
				t.Errorf("Rows() = %d, FileRows(0) = %d, want %d", r.Rows(), r.FileRows(0), len(rows))
			}
			md := r.Schema().Metadata()
			for k, want := range map[string]string{
				KeyFeatureNames:      strings.Join(features.Names(), ","),
				KeyFeatureVersion:    features.Version(),
				KeyWeightsGeneration: "3",
				KeyWeightsHash:       "sha256:0123abcd",
				KeySearch:            `{"visits":800,"cpuct":1.5}`,
				KeyEngineVersion:     "engine-test",
				KeyRunSeed:           "9223372036854788153",
				KeyShard:             "1",
				KeyFormat:            "1",
				"note":               "test shard",
			} {
				if i := md.FindKey(k); i < 0 || md.Values()[i] != want {
					t.Errorf("metadata %s = %q (present %v), want %q", k, md.Values()[max(i, 0)], i >= 0, want)
				}
			}
			// Stream the batches with column access; read twice (Reset).
			for pass := range 2 {
				n, batches := 0, 0
				var sum float64
				for {
					rec, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					batches++
					c, err := ColumnsOf(rec)
					if err != nil {
						t.Fatal(err)
					}
					if r.File() != 0 {
						t.Errorf("File() = %d", r.File())
					}
					for i := range c.Len {
						want := &rows[n+i]
						if c.GameID[i] != want.GameID || c.RootValue[i] != want.RootValue ||
							c.Features[i*c.NumFeatures+5] != want.Features[5] || c.Board[i*BoardLen+11] != want.Board[11] ||
							c.TerminationOf(i) != want.Termination || c.FullSearch.Value(i) != want.FullSearch ||
							int(c.PolicyOffsets[i+1]-c.PolicyOffsets[i]) != len(want.Policy) {
							t.Fatalf("pass %d row %d: columns differ from %+v", pass, n+i, *want)
						}
						sum += float64(c.RootValue[i])
					}
					n += c.Len
				}
				if n != len(rows) {
					t.Errorf("pass %d: streamed %d rows, want %d", pass, n, len(rows))
				}
				if bs := tt.opt.BatchRows; bs > 0 && batches != (len(rows)+bs-1)/bs {
					t.Errorf("pass %d: %d batches, want %d", pass, batches, (len(rows)+bs-1)/bs)
				}
				r.Reset()
			}
		})
	}
}

func TestEmptyShard(t *testing.T) {
	path := writeShard(t, filepath.Join(t.TempDir(), "empty.arrow"), testMeta(0), WriterOptions{}, nil)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Rows() != 0 {
		t.Errorf("Rows() = %d", r.Rows())
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next() error %v, want EOF", err)
	}
}

func TestAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shard-00000.arrow")
	w, err := Create(path, testMeta(0), WriterOptions{BatchRows: 10})
	if err != nil {
		t.Fatal(err)
	}
	rows := testRows(25, 2)
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&rows[0]); err == nil {
		t.Error("Write after Abort: no error")
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close after Abort: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("Abort left %v", entries)
	}
}

func TestTmpNeverVisible(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "gen=0001", "selfplay")
	writeShard(t, filepath.Join(sub, "shard-00000.arrow"), testMeta(0), WriterOptions{}, testRows(10, 3))
	open := filepath.Join(sub, "shard-00001.arrow")
	w, err := Create(open, testMeta(1), WriterOptions{BatchRows: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	rows := testRows(10, 4)
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(open + ".tmp"); err != nil {
		t.Fatalf("no .tmp while writing: %v", err)
	}
	if _, err := os.Stat(open); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the shard exists before Close: %v", err)
	}
	for _, arg := range []string{dir, sub, filepath.Join(dir, "gen=*"), filepath.Join(sub, "*")} {
		r, err := Open(arg)
		if err != nil {
			t.Fatalf("Open(%s): %v", arg, err)
		}
		if got := r.Files(); len(got) != 1 || filepath.Base(got[0]) != "shard-00000.arrow" || r.Rows() != 10 {
			t.Errorf("Open(%s) reads %v (%d rows)", arg, got, r.Rows())
		}
		r.Close()
	}
	if _, err := Open(open + ".tmp"); err == nil || !strings.Contains(err.Error(), ".tmp") {
		t.Errorf("Open of the .tmp file: error %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Rows() != 20 || len(r.Files()) != 2 {
		t.Errorf("after Close: %v, %d rows", r.Files(), r.Rows())
	}
}

func TestOpenPaths(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for g := 1; g <= 2; g++ {
		for s := range 2 {
			p := filepath.Join(dir, fmt.Sprintf("gen=%04d", g), "selfplay", fmt.Sprintf("shard-%05d.arrow", s))
			writeShard(t, p, testMeta(s), WriterOptions{}, testRows(5+s, uint64(10*g+s)))
			want = append(want, p)
		}
	}
	// Files that must be skipped in directories.
	for _, name := range []string{"shard-00000.games.txt", "shard-00009.arrow.tmp", "notes.json"} {
		if err := os.WriteFile(filepath.Join(dir, "gen=0001", "selfplay", name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		paths []string
		want  []string
	}{
		{"run directory", []string{dir}, want},
		{"hive glob", []string{filepath.Join(dir, "gen=*", "selfplay", "*.arrow")}, want},
		{"directory glob", []string{filepath.Join(dir, "gen=*")}, want},
		{"everything glob", []string{filepath.Join(dir, "gen=0001", "selfplay", "*")}, want[:2]},
		{"one generation", []string{filepath.Join(dir, "gen=0002")}, want[2:]},
		{"files, duplicates once", []string{want[3], want[0], want[3], dir}, []string{want[3], want[0], want[1], want[2]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Open(tt.paths...)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got := r.Files(); !slices.Equal(got, tt.want) {
				t.Errorf("Files() = %v, want %v", got, tt.want)
			}
			var n int64
			for i := range r.Files() {
				n += r.FileRows(i)
			}
			if r.Rows() != n {
				t.Errorf("Rows() = %d, files sum to %d", r.Rows(), n)
			}
		})
	}
	for _, bad := range [][]string{{}, {filepath.Join(dir, "none")}, {filepath.Join(dir, "x*")}, {t.TempDir()}} {
		if r, err := Open(bad...); err == nil {
			r.Close()
			t.Errorf("Open(%q): no error", bad)
		}
	}
}

// writeForeignArrow writes an Arrow IPC file of another schema.
func writeForeignArrow(t *testing.T, path string) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewInt64Builder(memory.NewGoAllocator())
	b.AppendValues([]int64{1, 2, 3}, nil)
	col := b.NewArray()
	rec := array.NewRecord(schema, []arrow.Array{col}, 3)
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := writeShard(t, filepath.Join(dir, "good.arrow"), testMeta(0), WriterOptions{BatchRows: 50}, testRows(500, 5))
	whole, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	random := make([]byte, 5000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	files := []struct {
		name    string
		content []byte
		want    string
	}{
		{"half.arrow", whole[:len(whole)/2], "not an Arrow IPC file (truncated?)"},
		{"nofooter.arrow", whole[:len(whole)-3], "not an Arrow IPC file (truncated?)"},
		{"random.arrow", random, "not an Arrow IPC file"},
		{"data.json", []byte(`{"rows": [1, 2, 3]}`), "not an Arrow IPC file"},
		{"empty.arrow", nil, "empty file"},
		{"magic.arrow", []byte("ARROW1\x00\x00"), "not an Arrow IPC file (truncated?)"},
		// Metadata strings damaged in place: a control character in one, and
		// JSON that is no longer JSON.
		{"newline.arrow", bytes.Replace(whole, []byte("engine-test"), []byte("engine\ntest"), -1), "metadata arimaalab.engine_version = \"engine\\ntest\": not printable"},
		{"json.arrow", bytes.Replace(whole, []byte(`"cpuct"`), []byte(`"cpuct}`), -1), "not valid JSON"},
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(dir, f.name)
			writeWithSum(t, path, f.content)
			r, err := Open(good, path)
			if err == nil {
				r.Close()
				t.Fatal("no error")
			}
			msg := err.Error()
			t.Log(msg)
			if !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, f.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line %q naming %s", msg, f.want, path)
			}
		})
	}
	t.Run("foreign arrow", func(t *testing.T) {
		path := filepath.Join(dir, "foreign.arrow")
		writeForeignArrow(t, path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		writeWithSum(t, path, b)
		_, err = Open(path)
		if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), "not an arimaalab dataset") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("damaged body", func(t *testing.T) {
		// Bytes overwritten in the middle: the checksum tells. With a
		// checksum of the damaged bytes, whatever the damage, an error that
		// names the file (from Open or Next) or valid values, never a crash.
		oneLine := func(what string, err error, path string) {
			t.Helper()
			if msg := err.Error(); !strings.HasPrefix(msg, path+": ") || strings.Contains(msg, "\n") {
				t.Errorf("%s: error %q, want one line naming %s", what, msg, path)
			}
		}
		// 64 bytes damaged at each 32nd of the file: at these places some
		// damage Open sees (the footer's layout), some Next (a compressed
		// buffer, an offset of the policy column) and some neither (valid
		// values, such as features).
		refusedOpen, refusedNext := 0, 0
		for k := 1; k < 32; k++ {
			off := k * len(whole) / 32
			b := slices.Clone(whole)
			for i := off; i < off+64; i++ {
				b[i] ^= 0x5a
			}
			path := filepath.Join(dir, fmt.Sprintf("damaged-%d.arrow", off))
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(SumPath(path), []byte(sumLine(path, checksum(whole))), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Open(path); err == nil || !strings.HasPrefix(err.Error(), path+": checksum mismatch") {
				t.Errorf("Open with the checksum of the undamaged file: %v", err)
			}
			writeWithSum(t, path, b)
			r, err := Open(path)
			if err != nil {
				oneLine("Open", err, path)
				refusedOpen++
				continue
			}
			var rows int64
			for {
				rec, err := r.Next()
				if err == io.EOF {
					// Read to the end: every row the footer promised, each
					// valid.
					if rows != r.Rows() || rows != 500 {
						t.Errorf("offset %d: %d rows read to the end, the file has %d, want 500", off, rows, r.Rows())
					}
					break
				}
				if err != nil {
					oneLine("Next", err, path)
					refusedNext++
					break
				}
				if err := ValidateRecord(rec); err != nil {
					t.Errorf("offset %d: Next returned a record that fails validation: %v", off, err)
				}
				cols, err := ColumnsOf(rec)
				if err != nil {
					t.Errorf("offset %d: Next returned a record ColumnsOf refuses: %v", off, err)
				} else {
					var row Row
					for i := range int(rec.NumRows()) {
						cols.Row(i, &row)
					}
				}
				rows += rec.NumRows()
			}
			r.Close()
		}
		t.Logf("of 31 damaged files, %d refused by Open, %d by Next, %d read to the end", refusedOpen, refusedNext, 31-refusedOpen-refusedNext)
		if refusedOpen == 0 || refusedNext == 0 {
			t.Errorf("%d damaged files refused by Open, %d by Next: want some of each, or the damage tests little", refusedOpen, refusedNext)
		}
	})
}

func TestFeatureVersionMismatch(t *testing.T) {
	dir := t.TempDir()
	a := writeShard(t, filepath.Join(dir, "a.arrow"), testMeta(0), WriterOptions{}, testRows(3, 1))
	m := testMeta(1)
	m.FeatureVersion = "f1-000000000000"
	b := writeShard(t, filepath.Join(dir, "b.arrow"), m, WriterOptions{}, testRows(3, 2))
	_, err := Open(a, b)
	if err == nil || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), b) || !strings.Contains(err.Error(), "feature version") {
		t.Errorf("error %v, want one naming both files", err)
	}
	// A different feature count is a different schema and version.
	m = testMeta(2)
	m.FeatureNames = []string{"bias", "material"}
	m.FeatureVersion = "f1-111111111111"
	c := writeShard(t, filepath.Join(dir, "c.arrow"), m, WriterOptions{}, []Row{{Turn: 2, Result: 1, PliesLeft: 1, Features: []float32{1, 2}, Termination: "goal"}})
	if _, err := Open(a, c); err == nil {
		t.Errorf("Open of shards with %d and 2 features: no error", len(testMeta(0).FeatureNames))
	}
	got, err := ReadRows(c)
	if err != nil || len(got) != 1 || !slices.Equal(got[0].Features, []float32{1, 2}) {
		t.Errorf("ReadRows of the 2-feature shard: %v, %v", got, err)
	}

	// OpenMixed reads them all, each batch with its own file's features.
	r, err := OpenMixed(a, b, c)
	if err != nil {
		t.Fatalf("OpenMixed of three feature sets: %v", err)
	}
	defer r.Close()
	var widths []int
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("OpenMixed: Next: %v", err)
		}
		cols, err := ColumnsOf(rec)
		if err != nil {
			t.Fatalf("OpenMixed: file %d: %v", r.File(), err)
		}
		widths = append(widths, cols.NumFeatures)
	}
	if n := len(testMeta(0).FeatureNames); !slices.Equal(widths, []int{n, n, 2}) {
		t.Errorf("OpenMixed: batches of %v features, want %d, %d and 2", widths, n, n)
	}
}

func TestWriterErrors(t *testing.T) {
	dir := t.TempDir()
	bad := func(f func(*Meta)) Meta {
		m := testMeta(0)
		f(&m)
		return m
	}
	creates := []struct {
		name string
		meta Meta
		opt  WriterOptions
		want string
	}{
		{"compression", testMeta(0), WriterOptions{Compression: "gzip"}, "unknown compression"},
		{"batch rows", testMeta(0), WriterOptions{BatchRows: -1}, "negative batch"},
		{"no features", bad(func(m *Meta) { m.FeatureNames = nil }), WriterOptions{}, "no feature names"},
		{"comma", bad(func(m *Meta) { m.FeatureNames = []string{"a,b"} }), WriterOptions{}, "comma"},
		{"no version", bad(func(m *Meta) { m.FeatureVersion = "" }), WriterOptions{}, "no feature version"},
		{"search json", bad(func(m *Meta) { m.Search = "{visits: 8" }), WriterOptions{}, "not valid JSON"},
		{"control character", bad(func(m *Meta) { m.EngineVersion = "v1\x00" }), WriterOptions{}, "not printable"},
		{"reserved key", bad(func(m *Meta) { m.Extra = map[string]string{KeyShard: "9"} }), WriterOptions{}, "reserved"},
	}
	for _, c := range creates {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".arrow")
			w, err := Create(path, c.meta, c.opt)
			if err == nil {
				w.Abort()
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %q, want %q naming %s", err, c.want, path)
			}
		})
	}
	w, err := Create(filepath.Join(dir, "rows.arrow"), testMeta(0), WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	r := testRows(1, 1)[0]
	r.Features = r.Features[:3]
	if err := w.Write(&r); err == nil || !strings.Contains(err.Error(), "3 features") {
		t.Errorf("short feature vector: error %v", err)
	}
	r = testRows(1, 1)[0]
	r.Termination = "checkmate"
	if err := w.Write(&r); err == nil || !strings.Contains(err.Error(), "checkmate") {
		t.Errorf("unknown termination: error %v", err)
	}
}

// The termination dictionary is the engine's list of terminations, in order.
func TestTerminationsMatchEngine(t *testing.T) {
	terms := Terminations()
	for i, name := range terms {
		if got := engine.Termination(i).String(); got != name {
			t.Errorf("termination %d: engine says %q, data %q", i, got, name)
		}
	}
	if s := engine.Termination(len(terms)).String(); !strings.HasPrefix(s, "termination(") {
		t.Errorf("the engine has a termination %q unknown to data", s)
	}
	terms[0] = "changed"
	if Terminations()[0] != "not-over" {
		t.Error("Terminations returns shared state")
	}
}

func TestSchema(t *testing.T) {
	s := Schema(features.Names())
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name)
		if want := f.Name == "board" || f.Name == "features" || f.Name == "policy"; f.Nullable != want {
			t.Errorf("%s: Nullable %v, want %v", f.Name, f.Nullable, want)
		}
	}
	want := []string{"game_id", "turn", "side", "board", "features", "move", "root_value", "visits", "policy", "result", "plies_left", "termination", "full_search"}
	if !slices.Equal(names, want) || len(want) != NumCols {
		t.Errorf("fields %v, want %v", names, want)
	}
	want2 := "fixed_size_list<item: float32, nullable>[" + fmt.Sprint(features.N) + "]"
	if got := s.Field(ColFeatures).Type.String(); got != want2 {
		t.Errorf("features field %s, want %s", got, want2)
	}
}

// Columns works on slices of records, whose arrays have offsets.
func TestColumnsOfSlice(t *testing.T) {
	rows := testRows(300, 21)
	path := writeShard(t, filepath.Join(t.TempDir(), "s.arrow"), testMeta(0), WriterOptions{}, rows)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	for _, span := range [][2]int64{{0, 300}, {1, 2}, {17, 250}, {299, 300}, {5, 5}} {
		s := rec.NewSlice(span[0], span[1])
		c, err := ColumnsOf(s)
		if err != nil {
			t.Fatal(err)
		}
		if c.Len != int(span[1]-span[0]) || len(c.GameID) != c.Len || len(c.Features) != c.Len*c.NumFeatures || len(c.PolicyOffsets) != c.Len+1 {
			t.Errorf("slice %v: lengths %d %d %d %d", span, c.Len, len(c.GameID), len(c.Features), len(c.PolicyOffsets))
		}
		var got Row
		for i := range c.Len {
			c.Row(i, &got)
			if want := rows[int(span[0])+i]; !reflect.DeepEqual(normalize([]Row{got}), normalize([]Row{want})) {
				t.Fatalf("slice %v row %d:\n got %+v\nwant %+v", span, i, got, want)
			}
		}
		s.Release()
	}
}

// TestOpenManyFiles: files are checked in parallel, but read in the order
// given, and of several bad files the first named is the one reported.
func TestOpenManyFiles(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := range 9 {
		paths = append(paths, writeShard(t, filepath.Join(dir, fmt.Sprintf("s%d.arrow", i)), testMeta(i), WriterOptions{BatchRows: 8}, testRows(10+i, uint64(i))))
	}
	r, err := Open(paths...)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Files(), paths) {
		t.Errorf("files %v, want %v", r.Files(), paths)
	}
	for i := range paths {
		if r.Meta(i).Shard != i || r.FileRows(i) != int64(10+i) {
			t.Errorf("file %d: shard %d, %d rows", i, r.Meta(i).Shard, r.FileRows(i))
		}
	}
	r.Close()
	for _, k := range []int{2, 6} {
		b, _ := os.ReadFile(paths[k])
		b[len(b)/2] ^= 1
		os.WriteFile(paths[k], b, 0o644)
	}
	if _, err := Open(paths...); err == nil || !strings.HasPrefix(err.Error(), paths[2]+": checksum mismatch") {
		t.Errorf("error %v, want the checksum mismatch of %s", err, paths[2])
	}
}
