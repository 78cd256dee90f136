package data

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// readParquet reads the Parquet file path back into rows with pqarrow. (The
// interop check of CI reads the exports with DuckDB too.)
func readParquet(t *testing.T, path string) ([]Row, map[string]string) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	kv := map[string]string{}
	for _, e := range pf.MetaData().KeyValueMetadata() {
		if e.Value != nil {
			kv[e.Key] = *e.Value
		}
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1000}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, 1000)
	defer tr.Release()
	var rows []Row
	for tr.Next() {
		rec := int8Dictionary(t, tr.Record())
		defer rec.Release()
		c, err := ColumnsOf(rec)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, col := range []int{ColBoard, ColFeatures, ColPolicy} {
			if n := rec.Column(col).NullN(); n != 0 {
				t.Errorf("%s: column %d has %d nulls", path, col, n)
			}
		}
		for i := range c.Len {
			rows = append(rows, Row{})
			c.Row(i, &rows[len(rows)-1])
		}
	}
	return rows, kv
}

// int8Dictionary returns rec with its termination column's dictionary indices,
// which Parquet readers give as int32, as int8.
func int8Dictionary(t *testing.T, rec arrow.Record) arrow.Record {
	t.Helper()
	d, ok := rec.Column(ColTermination).(*array.Dictionary)
	if !ok {
		t.Fatalf("termination column of type %s", rec.Column(ColTermination).DataType())
	}
	b := array.NewInt8Builder(memory.NewGoAllocator())
	defer b.Release()
	for i := range d.Len() {
		b.Append(int8(d.GetValueIndex(i)))
	}
	idx := b.NewArray()
	defer idx.Release()
	term := array.NewDictionaryArray(terminationType(), idx, d.Dictionary())
	defer term.Release()
	cols := slices.Clone(rec.Columns())
	cols[ColTermination] = term
	fields := slices.Clone(rec.Schema().Fields())
	fields[ColTermination].Type = terminationType()
	return array.NewRecord(arrow.NewSchema(fields, nil), cols, rec.NumRows())
}

func TestWriteParquet(t *testing.T) {
	dir := t.TempDir()
	n := 5000
	if testing.Short() {
		n = 1500
	}
	rows := testRows(n, 11)
	src := writeShard(t, filepath.Join(dir, "run", "gen=0002", "selfplay", "shard-00004.arrow"), testMeta(4), WriterOptions{BatchRows: 1000}, rows)
	for _, codec := range []string{"", "snappy", "zstd"} {
		t.Run("codec "+codec, func(t *testing.T) {
			dst := filepath.Join(dir, "out"+codec, "gen=0002", "selfplay", "shard-00004.parquet")
			n, err := WriteParquet(dst, src, codec)
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(len(rows)) {
				t.Errorf("WriteParquet wrote %d rows, want %d", n, len(rows))
			}
			if _, err := os.Stat(dst + ".tmp"); !os.IsNotExist(err) {
				t.Errorf("%s.tmp left: %v", dst, err)
			}
			got, kv := readParquet(t, dst)
			if len(got) != len(rows) {
				t.Fatalf("read back %d rows, want %d", len(got), len(rows))
			}
			for i := range rows {
				if !reflect.DeepEqual(normalize(got[i:i+1]), normalize(rows[i:i+1])) {
					t.Fatalf("row %d read back:\n %+v\nwant %+v", i, got[i], rows[i])
				}
			}
			if kv[KeyFeatureVersion] != testMeta(0).FeatureVersion || kv[KeyShard] != "4" || kv["note"] != "test shard" {
				t.Errorf("key-value metadata %v", kv)
			}
		})
	}
	if _, err := WriteParquet(filepath.Join(dir, "x.parquet"), src, "gzip"); err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("codec gzip: error %v", err)
	}
	bad := filepath.Join(dir, "bad.arrow")
	if err := os.WriteFile(bad, []byte("not arrow"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteParquet(filepath.Join(dir, "bad.parquet"), bad, ""); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("bad shard: error %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.parquet.tmp")); !os.IsNotExist(err) {
		t.Errorf("bad.parquet.tmp left: %v", err)
	}
}
