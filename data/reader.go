package data

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Reader streams the record batches of a set of shard files, memory-mapped (on
// Linux; read into memory elsewhere). It decodes (decompresses) the batches
// after the one being read on other goroutines, up to one per processor
// (GOMAXPROCS), and returns them in order. A Reader is not safe for concurrent
// use.
type Reader struct {
	files  []*shard
	schema *arrow.Schema
	cur    int          // the file of the next batch to decode
	batch  int          // the next batch of that file to decode
	ahead  []*decoding  // batches being decoded, in order
	file   int          // the file of rec
	rec    arrow.Record // the last record returned, released by the next call
	err    error        // the first error of Next, returned by every later call
	closed bool
	mem    memory.Allocator // for the records' buffers, reused once released
}

// decoding is a record batch being decoded.
type decoding struct {
	file int
	done chan struct{} // closed when rec and err are set
	rec  arrow.Record
	err  error
}

// shard is one open file.
type shard struct {
	path  string
	b     []byte // the file's bytes, mapped
	unmap func() error
	mem   memory.Allocator
	fr    *ipc.FileReader // the first reader, which checked the file
	meta  Meta
	lens  []int64 // rows of each record batch
	rows  int64

	// Readers not in use. An ipc.FileReader decodes one batch at a time (its
	// dictionary memo is not safe for concurrent use), so each goroutine that
	// decodes takes a reader of its own.
	mu   sync.Mutex
	idle []*ipc.FileReader
}

// Open opens the shards named by paths for reading. A path is a file, a
// directory (searched recursively for *.arrow files, so PATH.arrow.tmp files of
// unfinished shards are never seen, and a Hive layout such as RUN/gen=0003/
// works), or a glob pattern (filepath.Match syntax), whose matches are
// directories, searched in the same way, or *.arrow files. A file named
// explicitly may have any name but .tmp. Files are read in the order of paths,
// a directory's in lexical order; a file named twice is read once.
//
// Open checks every file: its bytes must match its checksum file
// (PATH.xxh128, see SumSuffix), it must be an Arrow IPC file of this package's
// format whose messages and buffers lie within the file, with the dataset
// schema of its feature names, and the feature version of all files must be
// the same. Every record batch Next returns has passed ValidateRecord. Errors
// name the file.
func Open(paths ...string) (*Reader, error) {
	return openWith(openOptions{}, paths...)
}

// OpenMixed is Open for readers that compute every row's features from its
// board (comparison training, training with the features recomputed): the
// files may hold different feature sets, such as labels scored before the
// feature set changed, so their feature versions and the length of their
// features column may differ. Everything else is checked as Open checks it,
// and Schema returns the first file's.
func OpenMixed(paths ...string) (*Reader, error) {
	return openWith(openOptions{mixedFeatures: true}, paths...)
}

// openOptions are internal settings of Open, for tests and benchmarks.
type openOptions struct {
	noChecksum    bool // skip the checksum files
	mixedFeatures bool // allow files of different feature sets (see OpenMixed)
}

// openWith is Open with options.
func openWith(opt openOptions, paths ...string) (*Reader, error) {
	names, err := expand(paths)
	if err != nil {
		return nil, err
	}
	r := &Reader{mem: &bufferPool{}}
	// The files are mapped and checked (their checksums above all) on up to
	// one goroutine per processor; the first error in the order of names is
	// returned.
	shards := make([]*shard, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, name := range names {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			shards[i], errs[i] = openShard(name, r.mem, opt)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			for _, s := range shards {
				if s != nil {
					s.close()
				}
			}
			return nil, err
		}
	}
	r.files = shards
	r.schema = shards[0].fr.Schema()
	first := shards[0]
	for _, s := range shards[1:] {
		if !opt.mixedFeatures && s.meta.FeatureVersion != first.meta.FeatureVersion {
			r.Close()
			return nil, fmt.Errorf("%s: feature version %q, but %s has %q", s.path, s.meta.FeatureVersion, first.path, first.meta.FeatureVersion)
		}
		if !sameFields(s.fr.Schema(), r.schema, opt.mixedFeatures) {
			r.Close()
			return nil, fmt.Errorf("%s: schema differs from that of %s", s.path, first.path)
		}
	}
	return r, nil
}

// Files returns the shard files Open would read for paths (files,
// directories searched recursively, globs), in the order it would read them,
// without opening them.
func Files(paths ...string) ([]string, error) { return expand(paths) }

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
func openShard(name string, mem memory.Allocator, opt openOptions) (*shard, error) {
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
	s := &shard{path: name, b: b, unmap: unmap, mem: mem}
	if !bytes.HasPrefix(b, []byte(arrowMagic)) {
		s.close()
		if len(b) == 0 {
			return nil, fmt.Errorf("%s: empty file, not an Arrow IPC file", name)
		}
		return nil, fmt.Errorf("%s: not an Arrow IPC file", name)
	}
	if !opt.noChecksum {
		if err := verifySum(name, b); err != nil {
			s.close()
			return nil, err
		}
	}
	if err := s.check(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// check reads the file's footer and schema and checks them.
func (s *shard) check() (err error) {
	notArrow := fmt.Errorf("%s: not an Arrow IPC file (truncated?)", s.path)
	if !bytes.HasPrefix(s.b, []byte(arrowMagic)) {
		if len(s.b) == 0 {
			return fmt.Errorf("%s: empty file, not an Arrow IPC file", s.path)
		}
		return fmt.Errorf("%s: not an Arrow IPC file", s.path)
	}
	if s.lens, err = layout(s.b); err != nil {
		return fmt.Errorf("%s: not an Arrow IPC file (truncated?): %w", s.path, err)
	}
	for _, n := range s.lens {
		s.rows += n
	}
	if s.fr, err = s.newReader(); err != nil {
		return fmt.Errorf("%s: not an Arrow IPC file (truncated?): %w", s.path, err)
	}
	s.idle = append(s.idle, s.fr)
	if s.fr.NumRecords() != len(s.lens) {
		return notArrow
	}
	schema := s.fr.Schema()
	if s.meta, err = metaFrom(schema.Metadata()); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	if !sameFields(schema, Schema(s.meta.FeatureNames), false) {
		return fmt.Errorf("%s: not the dataset schema (format %s, %d features): %s", s.path, Format, len(s.meta.FeatureNames), schemaDiff(schema, Schema(s.meta.FeatureNames)))
	}
	return nil
}

// schemaDiff describes the first difference of the fields of schema a from
// those of b, on one line.
func schemaDiff(a, b *arrow.Schema) string {
	if a.NumFields() != b.NumFields() {
		return fmt.Sprintf("%d fields, want %d", a.NumFields(), b.NumFields())
	}
	for i := range a.NumFields() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || !arrow.TypeEqual(fa.Type, fb.Type) {
			// Quoted: the names come from the file, maybe damaged.
			return fmt.Sprintf("field %d is %q of type %.80q, want %q of type %q", i, fa.Name, fa.Type.String(), fb.Name, fb.Type.String())
		}
	}
	return "the same fields"
}

// sameFields reports whether the schemas have the same field names and types;
// with anyFeatures, the features columns may be lists of any length.
func sameFields(a, b *arrow.Schema, anyFeatures bool) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.NumFields() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name {
			return false
		}
		if anyFeatures && i == ColFeatures {
			// Lists of float32 of any length.
			la, oka := fa.Type.(*arrow.FixedSizeListType)
			lb, okb := fb.Type.(*arrow.FixedSizeListType)
			if !oka || !okb || !arrow.TypeEqual(la.Elem(), lb.Elem()) {
				return false
			}
			continue
		}
		if !arrow.TypeEqual(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}

// newReader returns a new ipc.FileReader of the file.
func (s *shard) newReader() (fr *ipc.FileReader, err error) {
	defer func() {
		if v := recover(); v != nil { // arrow/ipc panics on some damaged footers
			fr, err = nil, fmt.Errorf("arrow/ipc: %v", v)
		}
	}()
	return ipc.NewFileReader(bytes.NewReader(s.b), ipc.WithAllocator(s.mem))
}

// record decodes record batch i of the file. It is safe for concurrent use.
func (s *shard) record(i int) (rec arrow.Record, err error) {
	s.mu.Lock()
	var fr *ipc.FileReader
	if n := len(s.idle); n > 0 {
		fr = s.idle[n-1]
		s.idle = s.idle[:n-1]
	}
	s.mu.Unlock()
	if fr == nil {
		if fr, err = s.newReader(); err != nil {
			return nil, fmt.Errorf("%s: %w", s.path, err)
		}
	}
	defer func() {
		s.mu.Lock()
		s.idle = append(s.idle, fr)
		s.mu.Unlock()
	}()
	defer func() {
		if v := recover(); v != nil { // arrow/ipc panics on some damaged bodies
			rec, err = nil, fmt.Errorf("%s: record batch %d: damaged: %v", s.path, i, v)
		}
	}()
	rec, err = fr.RecordAt(i)
	if err != nil {
		return nil, fmt.Errorf("%s: record batch %d: %w", s.path, i, err)
	}
	if rec.NumRows() != s.lens[i] {
		rec.Release()
		return nil, fmt.Errorf("%s: record batch %d: %d rows, the footer says %d", s.path, i, rec.NumRows(), s.lens[i])
	}
	var first int64
	for _, n := range s.lens[:i] {
		first += n
	}
	if err := validateRecord(rec, first); err != nil {
		rec.Release()
		return nil, fmt.Errorf("%s: record batch %d: %w", s.path, i, err)
	}
	return rec, nil
}

// close releases the file, once no batch is being decoded.
func (s *shard) close() error {
	for _, fr := range s.idle {
		fr.Close()
	}
	s.idle, s.fr = nil, nil
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
func (r *Reader) Meta(i int) Meta {
	m := r.files[i].meta
	m.FeatureNames = slices.Clone(m.FeatureNames)
	m.Extra = maps.Clone(m.Extra)
	return m
}

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
// Close; Retain it to keep it longer. Columns gives typed access to it. After an
// error (a damaged batch), Next returns the same error again.
func (r *Reader) Next() (arrow.Record, error) {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
	if r.closed {
		return nil, errors.New("read from a closed data.Reader")
	}
	if r.err != nil {
		return nil, r.err
	}
	r.decodeAhead(max(2, runtime.GOMAXPROCS(0)))
	if len(r.ahead) == 0 {
		return nil, io.EOF
	}
	d := r.ahead[0]
	r.ahead = r.ahead[1:]
	<-d.done
	if d.err != nil {
		r.err = d.err
		r.stop()
		return nil, d.err
	}
	r.rec, r.file = d.rec, d.file
	return d.rec, nil
}

// decodeAhead starts decoding batches until n are under way or none are left.
func (r *Reader) decodeAhead(n int) {
	for len(r.ahead) < n && r.cur < len(r.files) {
		s := r.files[r.cur]
		if r.batch >= len(s.lens) {
			r.cur++
			r.batch = 0
			continue
		}
		d := &decoding{file: r.cur, done: make(chan struct{})}
		go func(i int) {
			defer close(d.done)
			d.rec, d.err = s.record(i)
		}(r.batch)
		r.ahead = append(r.ahead, d)
		r.batch++
	}
}

// stop waits for the batches under way and drops them.
func (r *Reader) stop() {
	for _, d := range r.ahead {
		<-d.done
		if d.rec != nil {
			d.rec.Release()
		}
	}
	r.ahead = nil
}

// File returns the index (in Files) of the file the last record came from.
func (r *Reader) File() int { return r.file }

// Reset starts reading again from the first record batch of the first file.
func (r *Reader) Reset() {
	if r.rec != nil {
		r.rec.Release()
		r.rec = nil
	}
	r.stop()
	r.cur, r.batch, r.file, r.err = 0, 0, 0, nil
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
	r.stop()
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
