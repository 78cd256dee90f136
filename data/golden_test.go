package data

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
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
	flatbuffers "github.com/google/flatbuffers/go"
)

// The golden shards in testdata/golden pin the file format: they were written
// once by this package's writer and are committed, so that a change of the
// format, in the writer and the reader alike, fails these tests until the files
// are written again on purpose:
//
//	go test ./data -run '^TestGolden' -update
//
// (then review the diff of testdata/golden, and of docs/data.md: a change of
// the format also changes Format and the documentation).
var update = flag.Bool("update", false, "rewrite the golden shards in testdata/golden with the current writer")

// goldenDir holds the golden shards and their checksum files.
const goldenDir = "testdata/golden"

// goldenShards are the golden files: one per compression the writer offers,
// the default (the zero WriterOptions' compression) in two record batches.
var goldenShards = []struct {
	name    string
	opt     WriterOptions
	codec   string  // the compression of every record batch: lz4, zstd or none
	batches []int64 // rows of each record batch
}{
	{"default.arrow", WriterOptions{BatchRows: 3}, "lz4", []int64{3, 2}},
	{"zstd.arrow", WriterOptions{Compression: Zstd}, "zstd", []int64{5}},
	{"none.arrow", WriterOptions{Compression: None}, "none", []int64{5}},
}

// goldenMeta is the metadata of every golden shard.
func goldenMeta() Meta {
	return Meta{
		FeatureNames:      []string{"material", "trap_control", "goal_threat"},
		FeatureVersion:    "golden-1",
		WeightsGeneration: 7,
		WeightsHash:       "sha256:9f86d081884c7d65",
		Search:            `{"visits":64,"cpuct":1.25}`,
		EngineVersion:     "golden",
		RunSeed:           1<<63 + 5, // above 2^53: not a float64
		Shard:             3,
		Extra:             map[string]string{"golden.note": "data/golden_test.go -update", "arimaalab.games": "2"},
	}
}

// goldenMetadata is the schema metadata every golden shard holds, in order:
// the package's keys, then the extra ones sorted.
var goldenMetadata = [][2]string{
	{"arimaalab.feature_names", "material,trap_control,goal_threat"},
	{"arimaalab.feature_version", "golden-1"},
	{"arimaalab.weights_generation", "7"},
	{"arimaalab.weights_hash", "sha256:9f86d081884c7d65"},
	{"arimaalab.search", `{"visits":64,"cpuct":1.25}`},
	{"arimaalab.engine_version", "golden"},
	{"arimaalab.run_seed", "9223372036854775813"},
	{"arimaalab.shard", "3"},
	{"arimaalab.format", "1"},
	{"arimaalab.games", "2"},
	{"golden.note", "data/golden_test.go -update"},
}

// goldenFields is the schema of the golden shards: name, type, nullability.
var goldenFields = []string{
	"game_id uint64 not null",
	"turn uint16 not null",
	"side uint8 not null",
	"board fixed_size_list<item: uint64, nullable>[12] nullable",
	"features fixed_size_list<item: float32, nullable>[3] nullable",
	"move utf8 not null",
	"root_value float32 not null",
	"visits uint32 not null",
	"policy list<item: struct<move: utf8, visits: uint32>, nullable> nullable",
	"result int8 not null",
	"plies_left uint16 not null",
	"termination dictionary<values=utf8, indices=int8, ordered=false> not null",
	"full_search bool not null",
}

// goldenTerminations is the termination dictionary of every batch.
var goldenTerminations = []string{"not-over", "goal", "elimination", "immobilization", "repetition", "resignation", "time", "illegal-move", "max-turns", "other"}

// goldenRows are the rows of every golden shard: a game won by Gold's goal at
// 3g and the last two turns of a game stopped at max-turns, with edge values
// (64-bit ids and bitboards, signed zero, the largest and smallest float32,
// empty strings and policies, the largest visits).
func goldenRows() []Row {
	negZero := float32(math.Copysign(0, -1))
	start := [BoardLen]uint64{0xff00, 0x81, 0x42, 0x24, 0x10, 0x08, 0xff << 48, 0x81 << 56, 0x42 << 56, 0x24 << 56, 0x08 << 56, 0x10 << 56}
	late := [BoardLen]uint64{1 << 55, 0, 0, 1 << 20, 0, 1 << 36, 0xff, 0, 0, 0, 1 << 63, 1 << 9}
	return []Row{
		{GameID: 1<<53 + 1, Turn: 2, Side: 0, Board: start, Features: []float32{0, negZero, 1.5},
			Move: "Ed2n Ed3n Ed4n Ed5w", RootValue: 0.25, Visits: 800,
			Policy: []PolicyEntry{{"Ed2n Ed3n Ed4n Ed5w", 500}, {"Ra2n", 200}, {"Mc2n Mc3n", 100}},
			Result: 1, PliesLeft: 3, Termination: "goal", FullSearch: true},
		{GameID: 1<<53 + 1, Turn: 2, Side: 1, Board: start, Features: []float32{math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32},
			Move: "ed7s ed6s", RootValue: -1, Visits: 0, Policy: nil,
			Result: -1, PliesLeft: 2, Termination: "goal", FullSearch: false},
		{GameID: 1<<53 + 1, Turn: 3, Side: 0, Board: start, Features: []float32{-2.25, 1e-3, 100},
			Move: "Ra2n Ra3n Ra4n Ra5n", RootValue: 1, Visits: math.MaxUint32,
			Policy: []PolicyEntry{{"", math.MaxUint32}},
			Result: 1, PliesLeft: 1, Termination: "goal", FullSearch: true},
		{GameID: math.MaxUint64, Turn: 40, Side: 1, Board: late, Features: []float32{-1, 2, -3},
			Move: "", RootValue: float32(1) / 3, Visits: 64,
			Policy: []PolicyEntry{{"hb7s", 1}, {"pass", 0}},
			Result: 0, PliesLeft: 2, Termination: "max-turns", FullSearch: false},
		{GameID: math.MaxUint64, Turn: 41, Side: 0, Board: late, Features: []float32{0.5, -0.5, 0.125},
			Move: "Cf3w Ce3x", RootValue: -0.5, Visits: 1, Policy: []PolicyEntry{},
			Result: 0, PliesLeft: 1, Termination: "max-turns", FullSearch: true},
	}
}

// writeGolden writes the golden rows as shard path with options opt.
func writeGolden(t *testing.T, path string, opt WriterOptions) {
	t.Helper()
	rows := goldenRows()
	w, err := Create(path, goldenMeta(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGoldenWrite writes the golden rows with the current writer and compares
// the file with the golden one: the schema and its metadata, the compression
// and rows of each record batch, and every column's values as arrow decodes
// them (arrow/ipc's reader, not this package's). The uncompressed file must be
// the golden bytes exactly. With -update it rewrites the golden files instead.
func TestGoldenWrite(t *testing.T) {
	for _, g := range goldenShards {
		t.Run(g.name, func(t *testing.T) {
			golden := filepath.Join(goldenDir, g.name)
			if *update {
				writeGolden(t, golden, g.opt)
				return
			}
			path := filepath.Join(t.TempDir(), g.name)
			writeGolden(t, path, g.opt)
			want, got := readFile(t, golden), readFile(t, path)
			compareIPC(t, got, want)
			if g.codec == "none" && !bytes.Equal(got, want) {
				t.Errorf("the writer's uncompressed file (%d bytes) differs from %s (%d bytes): the encoding changed", len(got), golden, len(want))
			}
		})
	}
}

// TestGoldenRead reads the golden shards with Open (checksum, layout, schema,
// validation of every batch) and checks every field of every row, the
// metadata, the schema and each batch's compression against the values
// written in this file.
func TestGoldenRead(t *testing.T) {
	if *update {
		t.Skip("-update: the golden files are being written")
	}
	for _, g := range goldenShards {
		t.Run(g.name, func(t *testing.T) {
			path := filepath.Join(goldenDir, g.name)
			b := readFile(t, path)

			// The file as arrow sees it: schema, metadata, compression.
			codecs, err := batchCodecs(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(codecs) != len(g.batches) {
				t.Errorf("%d record batches, want %d", len(codecs), len(g.batches))
			}
			for i, c := range codecs {
				if c != g.codec {
					t.Errorf("record batch %d: compression %s, want %s", i, c, g.codec)
				}
			}
			fr, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(memory.NewGoAllocator()))
			if err != nil {
				t.Fatal(err)
			}
			defer fr.Close()
			checkGoldenSchema(t, fr.Schema())

			// The file as this package reads it.
			r, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got, want := r.Meta(0), goldenMeta(); !reflect.DeepEqual(got, want) {
				t.Errorf("Meta\n got %+v\nwant %+v", got, want)
			}
			var lens []int64
			var rows []Row
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				lens = append(lens, rec.NumRows())
				c, err := ColumnsOf(rec)
				if err != nil {
					t.Fatal(err)
				}
				if d := stringValues(c.TerminationDict); !slices.Equal(d, goldenTerminations) {
					t.Errorf("termination dictionary %q, want %q", d, goldenTerminations)
				}
				for i := range c.Len {
					var row Row
					c.Row(i, &row)
					rows = append(rows, row)
				}
			}
			if !slices.Equal(lens, g.batches) {
				t.Errorf("record batches of %v rows, want %v", lens, g.batches)
			}
			compareRows(t, rows, goldenRows())
		})
	}
}

// checkGoldenSchema checks the fields and metadata of a golden shard's schema.
func checkGoldenSchema(t *testing.T, sc *arrow.Schema) {
	t.Helper()
	var fields []string
	for _, f := range sc.Fields() {
		null := "not null"
		if f.Nullable {
			null = "nullable"
		}
		fields = append(fields, f.Name+" "+f.Type.String()+" "+null)
	}
	if !slices.Equal(fields, goldenFields) {
		t.Errorf("schema fields\n got %q\nwant %q", fields, goldenFields)
	}
	md := sc.Metadata()
	var kv [][2]string
	for i, k := range md.Keys() {
		kv = append(kv, [2]string{k, md.Values()[i]})
	}
	if !slices.Equal(kv, goldenMetadata) {
		t.Errorf("schema metadata\n got %q\nwant %q", kv, goldenMetadata)
	}
}

// compareRows compares rows field by field, floats by their bits.
func compareRows(t *testing.T, got, want []Row) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d rows, want %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		g, w := &got[i], &want[i]
		diff := func(field string, gv, wv any) {
			t.Errorf("row %d: %s = %v, want %v", i, field, gv, wv)
		}
		if g.GameID != w.GameID {
			diff("game_id", g.GameID, w.GameID)
		}
		if g.Turn != w.Turn {
			diff("turn", g.Turn, w.Turn)
		}
		if g.Side != w.Side {
			diff("side", g.Side, w.Side)
		}
		if g.Board != w.Board {
			diff("board", g.Board, w.Board)
		}
		if !slices.Equal(floatBits(g.Features), floatBits(w.Features)) {
			diff("features", g.Features, w.Features)
		}
		if g.Move != w.Move {
			diff("move", fmt.Sprintf("%q", g.Move), fmt.Sprintf("%q", w.Move))
		}
		if math.Float32bits(g.RootValue) != math.Float32bits(w.RootValue) {
			diff("root_value", g.RootValue, w.RootValue)
		}
		if g.Visits != w.Visits {
			diff("visits", g.Visits, w.Visits)
		}
		if !slices.Equal(g.Policy, w.Policy) {
			diff("policy", g.Policy, w.Policy)
		}
		if g.Result != w.Result {
			diff("result", g.Result, w.Result)
		}
		if g.PliesLeft != w.PliesLeft {
			diff("plies_left", g.PliesLeft, w.PliesLeft)
		}
		if g.Termination != w.Termination {
			diff("termination", g.Termination, w.Termination)
		}
		if g.FullSearch != w.FullSearch {
			diff("full_search", g.FullSearch, w.FullSearch)
		}
	}
}

// compareIPC compares two Arrow IPC files as arrow/ipc decodes them: schema
// and metadata, the compression of each record batch, and each batch's
// columns.
func compareIPC(t *testing.T, got, want []byte) {
	t.Helper()
	open := func(b []byte) *ipc.FileReader {
		fr, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(memory.NewGoAllocator()))
		if err != nil {
			t.Fatal(err)
		}
		return fr
	}
	g, w := open(got), open(want)
	defer g.Close()
	defer w.Close()
	if !g.Schema().Equal(w.Schema()) {
		t.Errorf("schema\n got %v\nwant %v", g.Schema(), w.Schema())
	}
	if gm, wm := g.Schema().Metadata(), w.Schema().Metadata(); !slices.Equal(gm.Keys(), wm.Keys()) || !slices.Equal(gm.Values(), wm.Values()) {
		t.Errorf("schema metadata\n got %v\nwant %v", gm, wm)
	}
	gc, err := batchCodecs(got)
	if err != nil {
		t.Fatal(err)
	}
	wc, err := batchCodecs(want)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gc, wc) {
		t.Errorf("record batches compressed %v, want %v", gc, wc)
	}
	if g.NumRecords() != w.NumRecords() {
		t.Errorf("%d record batches, want %d", g.NumRecords(), w.NumRecords())
		return
	}
	for i := range g.NumRecords() {
		gr, err := g.RecordAt(i)
		if err != nil {
			t.Fatal(err)
		}
		wr, err := w.RecordAt(i)
		if err != nil {
			t.Fatal(err)
		}
		if gr.NumRows() != wr.NumRows() {
			t.Errorf("record batch %d: %d rows, want %d", i, gr.NumRows(), wr.NumRows())
		} else {
			for k := range int(wr.NumCols()) {
				if k < int(gr.NumCols()) && !array.Equal(gr.Column(k), wr.Column(k)) {
					t.Errorf("record batch %d: column %s\n got %v\nwant %v", i, wr.ColumnName(k), gr.Column(k), wr.Column(k))
				}
			}
		}
		gr.Release()
		wr.Release()
	}
}

// batchCodecs returns the compression of each record batch of the Arrow IPC
// file b (lz4, zstd or none), read from the messages' headers (flatbuffers,
// per the Arrow format's File.fbs and Message.fbs), which arrow/ipc does not
// expose.
func batchCodecs(b []byte) (codecs []string, err error) {
	defer func() {
		if v := recover(); v != nil {
			codecs, err = nil, fmt.Errorf("damaged file: %v", v)
		}
	}()
	tail := len(arrowMagic) + 4
	if len(b) < 8+tail {
		return nil, errors.New("too short for an Arrow IPC file")
	}
	size := int(binary.LittleEndian.Uint32(b[len(b)-tail:]))
	footer := b[len(b)-tail-size : len(b)-tail]
	ft := flatbuffers.Table{Bytes: footer, Pos: flatbuffers.GetUOffsetT(footer)}
	o := flatbuffers.UOffsetT(ft.Offset(10)) // Footer.recordBatches
	if o == 0 {
		return nil, nil
	}
	vec, n := ft.Vector(o), ft.VectorLen(o)
	for i := range n {
		blk := flatbuffers.Table{Bytes: footer, Pos: vec + flatbuffers.UOffsetT(i*24)} // Block
		off := blk.GetInt64(blk.Pos)
		msg := b[off+8:] // the continuation marker and the length
		mt := flatbuffers.Table{Bytes: msg, Pos: flatbuffers.GetUOffsetT(msg)}
		var rb flatbuffers.Table
		mt.Union(&rb, flatbuffers.UOffsetT(mt.Offset(8))) // Message.header: RecordBatch
		co := flatbuffers.UOffsetT(rb.Offset(10))         // RecordBatch.compression
		if co == 0 {
			codecs = append(codecs, "none")
			continue
		}
		bc := flatbuffers.Table{Bytes: rb.Bytes, Pos: rb.Indirect(rb.Pos + co)}
		codec := byte(0) // BodyCompression.codec, LZ4_FRAME by default
		if o := flatbuffers.UOffsetT(bc.Offset(4)); o != 0 {
			codec = bc.GetByte(bc.Pos + o)
		}
		switch codec {
		case 0:
			codecs = append(codecs, "lz4")
		case 1:
			codecs = append(codecs, "zstd")
		default:
			codecs = append(codecs, fmt.Sprintf("codec %d", codec))
		}
	}
	return codecs, nil
}

// TestGoldenFilesSmall keeps the golden files small and complete: each shard
// with its checksum file, and nothing else in the directory.
func TestGoldenFilesSmall(t *testing.T) {
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, g := range goldenShards {
		want = append(want, g.name, g.name+SumSuffix)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		if info, err := e.Info(); err == nil && info.Size() > 8<<10 {
			t.Errorf("%s: %d bytes, more than 8 KiB", e.Name(), info.Size())
		}
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("%s holds %q, want %q", goldenDir, names, want)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func floatBits(f []float32) []uint32 {
	out := make([]uint32, len(f))
	for i, v := range f {
		out[i] = math.Float32bits(v)
	}
	return out
}

func stringValues(a *array.String) []string {
	out := make([]string, a.Len())
	for i := range out {
		out[i] = strings.Clone(a.Value(i))
	}
	return out
}
