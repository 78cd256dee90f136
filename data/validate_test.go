package data

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/arimaalab/arimaalab/features"
)

// rawRecord writes rows as a shard of one record batch (the Writer checks
// only the feature count and the termination) and returns that batch as
// arrow/ipc decodes it, before any validation.
func rawRecord(t *testing.T, rows []Row, opt WriterOptions) arrow.Record {
	t.Helper()
	opt.BatchRows = max(len(rows), 1)
	path := writeShard(t, filepath.Join(t.TempDir(), "raw.arrow"), testMeta(0), opt, rows)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fr.Close() })
	if fr.NumRecords() != 1 {
		t.Fatalf("%d record batches, want 1", fr.NumRecords())
	}
	rec, err := fr.RecordAt(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Release)
	return rec
}

// TestValidateRanges: each value range of ValidateRecord accepts its ends and
// refuses the values just outside, with an error that names the row and the
// column. The damaged row is the fifth of eight.
func TestValidateRanges(t *testing.T) {
	terms := Terminations()
	last := terms[len(terms)-1]
	decisive := ""
	for _, s := range terms {
		if s != "not-over" && s != "max-turns" {
			decisive = s
			break
		}
	}
	tests := []struct {
		name string
		set  func(r *Row)
		want string // "" when valid
	}{
		{"turn 2", func(r *Row) { r.Turn = 2 }, ""},
		{"turn 1", func(r *Row) { r.Turn = 1 }, "row 4: turn 1"},
		{"side 1", func(r *Row) { r.Side = 1 }, ""},
		{"side 2", func(r *Row) { r.Side = 2 }, "row 4: side 2"},
		{"root value 1", func(r *Row) { r.RootValue = 1 }, ""},
		{"root value -1", func(r *Row) { r.RootValue = -1 }, ""},
		{"root value above 1", func(r *Row) { r.RootValue = math.Nextafter32(1, 2) }, "row 4: root_value"},
		{"root value below -1", func(r *Row) { r.RootValue = math.Nextafter32(-1, -2) }, "row 4: root_value"},
		{"root value NaN", func(r *Row) { r.RootValue = float32(math.NaN()) }, "row 4: root_value NaN"},
		{"result 1", func(r *Row) { r.Result, r.Termination = 1, decisive }, ""},
		{"result -1", func(r *Row) { r.Result, r.Termination = -1, decisive }, ""},
		{"result 2", func(r *Row) { r.Result, r.Termination = 2, decisive }, "row 4: result 2"},
		{"result -2", func(r *Row) { r.Result, r.Termination = -2, decisive }, "row 4: result -2"},
		{"result 0, decisive", func(r *Row) { r.Result, r.Termination = 0, decisive }, "row 4: result 0 with termination " + decisive},
		{"result 1, max-turns", func(r *Row) { r.Result, r.Termination = 1, "max-turns" }, "row 4: result 1 with termination max-turns"},
		{"result -1, not-over", func(r *Row) { r.Result, r.Termination = -1, "not-over" }, "row 4: result -1 with termination not-over"},
		{"result 0, max-turns", func(r *Row) { r.Result, r.Termination = 0, "max-turns" }, ""},
		{"result 0, not-over", func(r *Row) { r.Result, r.Termination = 0, "not-over" }, ""},
		{"last termination", func(r *Row) {
			r.Termination = last
			r.Result = map[bool]int8{true: 0, false: 1}[last == "not-over" || last == "max-turns"]
		}, ""},
		{"plies left 1", func(r *Row) { r.PliesLeft = 1 }, ""},
		{"plies left 0", func(r *Row) { r.PliesLeft = 0 }, "row 4: plies_left 0"},
		{"feature +Inf", func(r *Row) { r.Features[3] = float32(math.Inf(1)) }, "row 4: features 3 (" + features.Names()[3] + ") is +Inf"},
		{"last feature NaN", func(r *Row) { r.Features[features.N-1] = float32(math.NaN()) }, "row 4: features"},
		{"largest feature", func(r *Row) { r.Features[0] = math.MaxFloat32 }, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows := testRows(8, 5)
			for i := range rows {
				rows[i].Result, rows[i].Termination = 0, "not-over"
			}
			tc.set(&rows[4])
			err := ValidateRecord(rawRecord(t, rows, WriterOptions{}))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}

// TestValidateLastRow: a bad value in the last row of a batch, the last
// feature of the last row included, is found; batches of a few thousand rows
// (several bytes of full_search bits per row byte) pass whole.
func TestValidateLastRow(t *testing.T) {
	for _, n := range []int{1, 9, 3000} {
		rows := testRows(n, 8)
		if err := ValidateRecord(rawRecord(t, rows, WriterOptions{Compression: None})); err != nil {
			t.Fatalf("%d rows: %v", n, err)
		}
		rows[n-1].Features[features.N-1] = float32(math.Inf(-1))
		err := ValidateRecord(rawRecord(t, rows, WriterOptions{}))
		if want := "row " + strconv.Itoa(n-1) + ": features"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d rows, last feature of the last row -Inf: error %v, want one with %q", n, err, want)
		}
	}
}

// TestValidateSlice: a slice of a batch is checked over its own rows only,
// numbered from the slice's start, for the features as for the other columns.
func TestValidateSlice(t *testing.T) {
	rows := testRows(40, 6)
	rows[3].Features[2] = float32(math.NaN())
	rows[3].Turn = 0
	rows[30].Features[7] = float32(math.Inf(1))
	rec := rawRecord(t, rows, WriterOptions{})
	for _, c := range []struct {
		from, to int64
		want     string
	}{
		{0, 40, "row 3: "},
		{4, 30, ""},
		{10, 31, "row 20: features 7"},
		{2, 5, "row 1: "},
		{20, 20, ""},
		{31, 40, ""},
	} {
		s := rec.NewSlice(c.from, c.to)
		err := ValidateRecord(s)
		s.Release()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("rows %d to %d: error %v, want %q", c.from, c.to, err, c.want)
		}
	}
}

// TestValidateEmpty: a batch of no rows is valid, built fresh (no buffers
// behind its columns) or sliced from a batch.
func TestValidateEmpty(t *testing.T) {
	b := array.NewRecordBuilder(memory.NewGoAllocator(), Schema(features.Names()))
	defer b.Release()
	fresh := b.NewRecord()
	defer fresh.Release()
	raw := rawRecord(t, testRows(3, 1), WriterOptions{})
	// The builder's dictionary is empty: give the batch the dataset's.
	cols := append([]arrow.Array(nil), fresh.Columns()...)
	term := fresh.Column(ColTermination).(*array.Dictionary)
	cols[ColTermination] = array.NewDictionaryArray(term.DataType(), term.Indices(), raw.Column(ColTermination).(*array.Dictionary).Dictionary())
	defer cols[ColTermination].Release()
	rec := array.NewRecord(fresh.Schema(), cols, 0)
	defer rec.Release()
	if err := ValidateRecord(rec); err != nil {
		t.Errorf("a new empty batch: %v", err)
	}
	s := raw.NewSlice(1, 1)
	defer s.Release()
	if err := ValidateRecord(s); err != nil {
		t.Errorf("an empty slice: %v", err)
	}
}

// TestValidateShortBits: a full_search column whose bits stop before its last
// row is refused.
func TestValidateShortBits(t *testing.T) {
	rows := testRows(200, 2)
	rec := rawRecord(t, rows, WriterOptions{Compression: None})
	cols := rec.Columns()
	full := cols[ColFullSearch].Data()
	bits := full.Buffers()[1]
	short := memory.NewBufferBytes(bits.Bytes()[:len(rows)/8-1])
	damaged := array.NewBooleanData(array.NewData(full.DataType(), full.Len(), []*memory.Buffer{nil, short}, nil, 0, 0))
	defer damaged.Release()
	cols = append([]arrow.Array(nil), cols...)
	cols[ColFullSearch] = damaged
	bad := array.NewRecord(rec.Schema(), cols, rec.NumRows())
	defer bad.Release()
	if err := ValidateRecord(bad); err == nil || !strings.Contains(err.Error(), "full_search") {
		t.Errorf("full_search bits for %d of %d rows: error %v, want one naming full_search", 8*(len(rows)/8-1), len(rows), err)
	}
}

// TestCheckOffsets: the offsets of n values from off must be n+1, from 0 up,
// never decreasing and within the data; errors say where they go wrong.
func TestCheckOffsets(t *testing.T) {
	tests := []struct {
		offsets      []int32
		off, n, size int
		want         string // "" when valid
	}{
		{[]int32{0, 2, 2, 5}, 0, 3, 5, ""},
		{[]int32{0, 2, 2, 5}, 1, 2, 5, ""},
		{[]int32{0, 2, 2, 5}, 3, 0, 5, ""},
		{nil, 0, 0, 0, ""},
		{[]int32{0, 2, 2}, 0, 3, 5, "3 offsets for 3 values from 0"},
		{[]int32{0, 2, 2, 5}, 1, 3, 5, "4 offsets for 3 values from 1"},
		{[]int32{0, 2, 2, 5}, -1, 1, 5, "4 offsets for 1 values from -1"},
		{[]int32{-1, 2, 2, 5}, 0, 3, 5, "offset -1 is negative"},
		{[]int32{0, 2, 6, 5, 7}, 0, 4, 9, "row 2: offsets decrease (6, then 5)"},
		{[]int32{0, 2, 2, 6}, 0, 3, 5, "offsets reach 6, beyond the 5 values"},
	}
	for _, tc := range tests {
		err := checkOffsets(tc.offsets, tc.off, tc.n, tc.size)
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
			t.Errorf("checkOffsets(%v, %d, %d, %d) = %v, want %q", tc.offsets, tc.off, tc.n, tc.size, err, tc.want)
		}
	}
}

// TestFirstNonFinite: NaNs (any payload, either sign) and infinities are
// found, the largest finite values, denormals and zeros are not.
func TestFirstNonFinite(t *testing.T) {
	f := math.Float32frombits
	tests := []struct {
		xs   []float32
		want int
	}{
		{nil, -1},
		{[]float32{0, f(0x80000000), 1, -1, math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, f(0x007fffff)}, -1},
		{[]float32{1, 2, float32(math.Inf(1))}, 2},
		{[]float32{float32(math.Inf(-1)), 0}, 0},
		{[]float32{3, float32(math.NaN()), float32(math.Inf(1))}, 1},
		{[]float32{0, 0, 0, f(0xffc00001)}, 3}, // a negative NaN with a payload
		{[]float32{0, f(0x7f800001)}, 1},       // a signalling NaN
	}
	for _, tc := range tests {
		if got := firstNonFinite(tc.xs); got != tc.want {
			t.Errorf("firstNonFinite(%v) = %d, want %d", tc.xs, got, tc.want)
		}
	}
}
