package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// ParquetRowGroup is the number of rows of a row group of a Parquet export.
const ParquetRowGroup = 64 * DefaultBatchRows

// WriteParquet writes the rows of the shard file src as the Parquet file dst,
// compressed with codec ("snappy", the default when empty, or "zstd"), and
// returns the number of rows. The schema and its metadata are those of the
// shard; the Arrow schema is stored too (pqarrow.WithStoreSchema), so that
// Arrow readers get the unsigned and dictionary types back. Like a shard, dst
// is written to dst.tmp and renamed when complete. The shard is checked as Open
// checks it (its checksum, then every batch) and an error leaves no file.
func WriteParquet(dst, src string, codec string) (rows int64, err error) {
	var c compress.Compression
	switch codec {
	case "", "snappy":
		c = compress.Codecs.Snappy
	case "zstd":
		c = compress.Codecs.Zstd
	default:
		return 0, fmt.Errorf("unknown Parquet compression %q (want snappy or zstd)", codec)
	}
	r, err := Open(src)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	if len(r.Files()) != 1 {
		return 0, fmt.Errorf("%s: not one shard file", src)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return 0, err
	}
	tmp := dst + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return 0, err
	}
	defer func() {
		if v := recover(); v != nil { // a last resort: every batch was validated
			rows, err = 0, fmt.Errorf("%s: export to %s: %v", src, dst, v)
		}
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	props := parquet.NewWriterProperties(
		// Version 1 data pages are some 20 times slower to write with pqarrow.
		parquet.WithDataPageVersion(parquet.DataPageV2),
		parquet.WithVersion(parquet.V2_LATEST),
		parquet.WithCompression(c),
		parquet.WithMaxRowGroupLength(ParquetRowGroup),
		parquet.WithAllocator(r.mem),
	)
	bw := bufio.NewWriterSize(f, 1<<20) // not an io.Closer: pqarrow leaves f open
	fw, err := pqarrow.NewFileWriter(r.Schema(), bw, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", tmp, err)
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fw.Close()
			return 0, err
		}
		if err := fw.WriteBuffered(rec); err != nil {
			return 0, fmt.Errorf("%s: %w", tmp, err)
		}
		rows += rec.NumRows()
	}
	if err := fw.Close(); err != nil {
		return 0, fmt.Errorf("%s: %w", tmp, err)
	}
	if err := errors.Join(bw.Flush(), f.Sync()); err != nil {
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp, dst); err != nil {
		return 0, err
	}
	return rows, syncDir(filepath.Dir(dst))
}
