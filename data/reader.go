package data

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Reader streams the record batches of a set of shard files, memory-mapped (on
// Linux; read into memory elsewhere). A Reader is not safe for concurrent use.
type Reader struct {
	files  []*shard
	schema *arrow.Schema
	cur    int          // the file being read
	batch  int          // the next batch of that file
	file   int          // the file of rec
	rec    arrow.Record // the last record returned, released by the next call
	closed bool
	mem    memory.Allocator // for the records' buffers, reused once released
}

// shard is one open file.
type shard struct {
	path  string
	b     []byte // the file's bytes, mapped
	unmap func() error
	fr    *ipc.FileReader
	meta  Meta
	lens  []int64 // rows of each record batch
	rows  int64
}

// Open opens the shards named by paths for reading. A path is a file, a
// directory (searched recursively for *.arrow files, so PATH.arrow.tmp files of
// unfinished shards are never seen, and a Hive layout such as RUN/gen=0003/
// works), or a glob pattern (filepath.Match syntax), whose matches are
// directories, searched in the same way, or *.arrow files. A file named
// explicitly may have any name but .tmp. Files are read in the order of paths,
// a directory's in lexical order; a file named twice is read once.
//
// Open checks every file: it must be an Arrow IPC file of this package's
// format, with the dataset schema of its feature names, and the feature version
// of all files must be the same. Errors name the file.
func Open(paths ...string) (*Reader, error) {
	names, err := expand(paths)
	if err != nil {
		return nil, err
	}
	r := &Reader{mem: &bufferPool{}}
	for _, name := range names {
		s, err := openShard(name, r.mem)
		if err != nil {
			r.Close()
			return nil, err
		}
		r.files = append(r.files, s)
		if len(r.files) == 1 {
			r.schema = s.fr.Schema()
			continue
		}
		first := r.files[0]
		if s.meta.FeatureVersion != first.meta.FeatureVersion {
			r.Close()
			return nil, fmt.Errorf("%s: feature version %q, but %s has %q", s.path, s.meta.FeatureVersion, first.path, first.meta.FeatureVersion)
		}
		if !sameFields(s.fr.Schema(), r.schema) {
			r.Close()
			return nil, fmt.Errorf("%s: schema differs from that of %s", s.path, first.path)
		}
	}
	return r, nil
}

// expand turns the paths given to Open into file names.
func expand(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, errors.New("no shard files given")
	}
	var out []string
	seen := make(map[string]bool)
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	walk := func(dir string) error {
		return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".arrow") {
				add(path)
			}
			return nil
		})
	}
	for _, p := range paths {
		if strings.ContainsAny(p, `*?[\`) {
			matches, err := filepath.Glob(p)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			if len(matches) == 0 {
				return nil, fmt.Errorf("%s: no files match", p)
			}
			for _, m := range matches {
				st, err := os.Stat(m)
				switch {
				case err != nil:
					return nil, err
				case st.IsDir():
					if err := walk(m); err != nil {
						return nil, err
					}
				case strings.HasSuffix(m, ".arrow"):
					add(m)
				}
			}
			continue
		}
		st, err := os.Stat(p)
		switch {
		case err != nil:
			return nil, err
		case st.IsDir():
			if err := walk(p); err != nil {
				return nil, err
			}
		case strings.HasSuffix(p, ".tmp"):
			return nil, fmt.Errorf("%s: an unfinished shard (.tmp)", p)
		default:
			add(p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no .arrow files in %s", strings.Join(paths, " "))
	}
	return out, nil
}

// openShard maps the file name and checks it.
func openShard(name string, mem memory.Allocator) (*shard, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close() // a mapping outlives its descriptor
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	b, unmap, err := mapFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s := &shard{path: name, b: b, unmap: unmap}
	if err := s.check(mem); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// check reads the file's footer and schema and checks them.
func (s *shard) check(mem memory.Allocator) (err error) {
	notArrow := fmt.Errorf("%s: not an Arrow IPC file (truncated?)", s.path)
	if !bytes.HasPrefix(s.b, []byte(arrowMagic)) {
		if len(s.b) == 0 {
			return fmt.Errorf("%s: empty file, not an Arrow IPC file", s.path)
		}
		return fmt.Errorf("%s: not an Arrow IPC file", s.path)
	}
	if s.lens, err = batchLengths(s.b); err != nil {
		return notArrow
	}
	for _, n := range s.lens {
		s.rows += n
	}
	func() {
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("arrow/ipc: %v", v)
			}
		}()
		s.fr, err = ipc.NewFileReader(bytes.NewReader(s.b), ipc.WithAllocator(mem))
	}()
	if err != nil {
		return fmt.Errorf("%s: not an Arrow IPC file (truncated?): %w", s.path, err)
	}
	if s.fr.NumRecords() != len(s.lens) {
		return notArrow
	}
	schema := s.fr.Schema()
	if s.meta, err = metaFrom(schema.Metadata()); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	if !sameFields(schema, Schema(s.meta.FeatureNames)) {
		return fmt.Errorf("%s: not the dataset schema (format %s, %d features): %v", s.path, Format, len(s.meta.FeatureNames), schema)
	}
	return nil
}

// sameFields reports whether the schemas have the same field names and types.
func sameFields(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.NumFields() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || !arrow.TypeEqual(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}

// record decodes record batch i of the file.
func (s *shard) record(i int) (rec arrow.Record, err error) {
	defer func() {
		if v := recover(); v != nil { // arrow/ipc panics on some damaged bodies
			rec, err = nil, fmt.Errorf("%s: record batch %d: damaged: %v", s.path, i, v)
		}
	}()
	rec, err = s.fr.RecordAt(i)
	if err != nil {
		return nil, fmt.Errorf("%s: record batch %d: %w", s.path, i, err)
	}
	if rec.NumRows() != s.lens[i] {
		rec.Release()
		return nil, fmt.Errorf("%s: record batch %d: %d rows, the footer says %d", s.path, i, rec.NumRows(), s.lens[i])
	}
	return rec, nil
}

// close releases the file.
func (s *shard) close() error {
	if s.fr != nil {
		s.fr.Close()
		s.fr = nil
	}
	if s.unmap == nil {
		return nil
	}
	err := s.unmap()
	s.unmap, s.b = nil, nil
	if err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	return nil
}

// Files returns the names of the files, in reading order.
func (r *Reader) Files() []string {
	out := make([]string, len(r.files))
	for i, s := range r.files {
		out[i] = s.path
	}
	return out
}

// Meta returns the metadata of file i (in the order of Files).
func (r *Reader) Meta(i int) Meta { return r.files[i].meta }

// FileRows returns the number of rows of file i, from its footer.
func (r *Reader) FileRows(i int) int64 { return r.files[i].rows }

// Rows returns the number of rows of all the files, from their footers,
// without reading the record batches.
func (r *Reader) Rows() int64 {
	var n int64
	for _, s := range r.files {
		n += s.rows
	}
	return n
}

// Schema returns the schema of the first file, with its metadata.
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// Next returns the next record batch, reading the files in order, or io.EOF
// after the last. The record is valid until the next call of Next, Reset or
// Close; Retain it to keep it longer. Columns gives typed access to it.
func (r *Reader) Next() (arrow.Record, error) {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
	if r.closed {
		return nil, errors.New("read from a closed data.Reader")
	}
	for r.cur < len(r.files) {
		s := r.files[r.cur]
		if r.batch < len(s.lens) {
			rec, err := s.record(r.batch)
			r.batch++
			if err != nil {
				return nil, err
			}
			r.rec, r.file = rec, r.cur
			return rec, nil
		}
		r.cur++
		r.batch = 0
	}
	return nil, io.EOF
}

// File returns the index (in Files) of the file the last record came from.
func (r *Reader) File() int { return r.file }

// Reset starts reading again from the first record batch of the first file.
func (r *Reader) Reset() {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
	r.cur, r.batch, r.file = 0, 0, 0
}

// Close releases the files. Records returned by Next stay valid if retained.
func (r *Reader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
	var errs []error
	for _, s := range r.files {
		errs = append(errs, s.close())
	}
	return errors.Join(errs...)
}

// ReadRows reads every row of the shard file path, in order: a convenience
// for tests and small tools.
func ReadRows(path string) ([]Row, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	rows := make([]Row, 0, r.Rows())
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		c, err := ColumnsOf(rec)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for i := range c.Len {
			rows = append(rows, Row{})
			c.Row(i, &rows[len(rows)-1])
		}
	}
}
