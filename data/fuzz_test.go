package data

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// fuzzShards returns small shards, as bytes, for the seed corpus: every
// compression, one batch and several, and no rows at all.
func fuzzShards(t testing.TB) [][]byte {
	t.Helper()
	dir := t.TempDir()
	var out [][]byte
	for i, c := range []struct {
		opt  WriterOptions
		rows int
	}{
		{WriterOptions{Compression: LZ4, BatchRows: 7}, 20},
		{WriterOptions{Compression: None, BatchRows: 16}, 20},
		{WriterOptions{Compression: Zstd}, 9},
		{WriterOptions{}, 0},
	} {
		path := writeShard(t, filepath.Join(dir, "s"+strconv.Itoa(i)+".arrow"), testMeta(i), c.opt, testRows(c.rows, uint64(i)))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// readAll opens the shard path, reads every row and exports it as Parquet:
// everything a reader of a dataset does. It returns the rows, or the first
// error, which must name the file.
func readAll(t *testing.T, path string) ([]Row, error) {
	t.Helper()
	rows, err := ReadRows(path)
	if err != nil {
		if !strings.HasPrefix(err.Error(), path+": ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("error %q is not one line naming %s", err, path)
		}
		return nil, err
	}
	r, err := Open(path)
	if err != nil {
		t.Fatalf("ReadRows read it, Open refuses it: %v", err)
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("ReadRows read it, Next refuses it: %v", err)
		}
		c, err := ColumnsOf(rec)
		if err != nil {
			t.Fatalf("a validated batch refused by ColumnsOf: %v", err)
		}
		var row Row
		for i := range c.Len {
			c.Row(i, &row)
			_ = c.TerminationOf(i)
		}
	}
	r.Close()
	dst := filepath.Join(filepath.Dir(path), "out.parquet")
	if _, err := WriteParquet(dst, path, "snappy"); err != nil {
		t.Errorf("a shard read whole fails to export: %v", err)
	}
	os.Remove(dst)
	return rows, nil
}

// FuzzRead feeds any bytes, published with a checksum of their own (so that
// the checks past the checksum are the ones tested), to the reader and the
// Parquet export: an error naming the file or valid rows, never a panic or
// an out-of-memory.
func FuzzRead(f *testing.F) {
	for _, b := range fuzzShards(f) {
		f.Add(b)
		f.Add(b[:len(b)/2])
		for _, off := range []int{8, 64, len(b) / 3, len(b) / 2, len(b) - 16, len(b) - 9} {
			if off >= 0 && off < len(b) {
				d := bytes.Clone(b)
				d[off] ^= 0xff
				f.Add(d)
			}
		}
	}
	f.Add([]byte("ARROW1\x00\x00"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "shard-00000.arrow")
		writeWithSum(t, path, b)
		readAll(t, path)
	})
}

// TestEveryByteFlipped flips each byte of a shard in turn (one bit of it).
// With the shard's checksum file, every flip is an error naming the file
// (Open's check of every byte, in memory, at every offset). With a checksum of
// the damaged bytes (as if damaged before it was published), a flip is an
// error naming the file, or rows read whole and exported, never a panic; the
// test counts the flips that change the rows read, which only the checksum
// catches. That second part tries every 401st offset, or every one with
// FLIP_ALL=1 (some 20,000 reads and exports, minutes).
func TestEveryByteFlipped(t *testing.T) {
	dir := t.TempDir()
	orig := writeShard(t, filepath.Join(dir, "orig.arrow"), testMeta(0), WriterOptions{BatchRows: 16}, testRows(40, 9))
	whole, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "shard-00000.arrow")
	if err := os.WriteFile(SumPath(path), []byte(sumLine(path, checksum(whole))), 0o644); err != nil {
		t.Fatal(err)
	}
	caught := 0
	for off := range whole {
		b := bytes.Clone(whole)
		b[off] ^= byte(1 << (off % 8))
		if err := verifySum(path, b); err == nil || !strings.HasPrefix(err.Error(), path+": checksum mismatch") {
			t.Errorf("offset %d: flip accepted with the shard's checksum: %v", off, err)
		} else {
			caught++
		}
	}

	want := normalize(testRows(40, 9))
	stride := 401
	if os.Getenv("FLIP_ALL") == "1" {
		stride = 1
	}
	var tried, errs, same, changed int
	for off := 0; off < len(whole); off += stride {
		b := bytes.Clone(whole)
		b[off] ^= byte(1 << (off % 8))
		tried++
		writeWithSum(t, path, b)
		rows, err := readAll(t, path)
		switch {
		case err != nil:
			errs++
		case reflect.DeepEqual(normalize(rows), want):
			same++
		default:
			changed++
		}
	}
	t.Logf("%d bytes: %d of %d flips caught by the checksum; %d flips with a checksum of the damaged bytes: %d errors, %d harmless, %d changed rows, 0 panics",
		len(whole), caught, len(whole), tried, errs, same, changed)
}
