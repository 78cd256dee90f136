package data

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/zeebo/xxh3"
)

// PolicyEntry is a move of a search's root and the visits it got.
type PolicyEntry struct {
	Move   string
	Visits uint32
}

// Row is one turn played: a row of the dataset. See the package documentation
// for the meaning of each field.
type Row struct {
	GameID      uint64
	Turn        uint16
	Side        uint8
	Board       [BoardLen]uint64
	Features    []float32 // len(Meta.FeatureNames) values
	Move        string
	RootValue   float32
	Visits      uint32
	Policy      []PolicyEntry
	Result      int8
	PliesLeft   uint16
	Termination string // one of Terminations()
	FullSearch  bool
}

// Compression is the compression of the record batches of a file.
type Compression string

// The compressions. LZ4 (LZ4 frames) is the default: fast to write and read.
const (
	LZ4  Compression = "lz4"
	Zstd Compression = "zstd"
	None Compression = "none"
)

// DefaultBatchRows is the number of rows of a record batch unless told otherwise.
const DefaultBatchRows = 4096

// WriterOptions are the settings of a Writer. The zero value gives LZ4 and
// DefaultBatchRows, and the Writer claims the shard itself.
type WriterOptions struct {
	Compression Compression // "" means LZ4
	BatchRows   int         // rows per record batch; 0 means DefaultBatchRows
	// Claim is the caller's claim on the shard (see TakeClaim), which the
	// caller releases. When nil, Create claims the shard (TakeOver as in
	// ClaimOptions) and Close or Abort releases the claim.
	Claim    *Claim
	TakeOver bool
}

// Writer writes one shard: rows buffered into record batches of an Arrow IPC
// file written to PATH.tmp, published as PATH by Close with its checksum file
// PATH.xxh128. The writer holds the shard's claim (PATH.claim) from Create to
// Close or Abort, so that no other writer touches the shard meanwhile. A Writer
// is not safe for concurrent use.
type Writer struct {
	path, tmp string
	claim     *Claim
	ownClaim  bool // Create took the claim: Close and Abort release it
	f         *os.File
	hf        *hashingFile
	bw        *posWriter
	fw        *ipc.FileWriter
	schema    *arrow.Schema
	nfeat     int
	batchRows int

	gameID       *array.Uint64Builder
	turn         *array.Uint16Builder
	side         *array.Uint8Builder
	board        *array.FixedSizeListBuilder
	boardVals    *array.Uint64Builder
	feats        *array.FixedSizeListBuilder
	featVals     *array.Float32Builder
	move         *array.StringBuilder
	rootValue    *array.Float32Builder
	visits       *array.Uint32Builder
	policy       *array.ListBuilder
	policyEntry  *array.StructBuilder
	policyMove   *array.StringBuilder
	policyVisits *array.Uint32Builder
	result       *array.Int8Builder
	pliesLeft    *array.Uint16Builder
	term         *array.Int8Builder
	full         *array.BooleanBuilder
	builders     []array.Builder
	dict         arrow.Array // the termination dictionary, the same for every batch

	// sizes of the last batch, to reserve as much for the next
	moveBytes, policyBytes, policyEntries int

	encoding chan struct{} // closed when the batch being encoded is written; nil if none

	pending int   // rows in the builders
	rows    int64 // rows written, pending included
	done    bool  // closed or aborted
	err     error // the first write error: the file is then unusable (set by the encoder)
}

// Create starts writing the shard path with the metadata meta: it creates the
// directories of path, claims the shard (unless opt.Claim holds its claim
// already; a shard claimed by another writer is a *ClaimError) and creates the
// file path+".tmp" (replacing a stale one). Call Close to publish the file, or
// Abort to give it up.
func Create(path string, meta Meta, opt WriterOptions) (*Writer, error) {
	return createWith(path, meta, opt, writerSettings{})
}

// writerSettings are internal settings of Create, for benchmarks.
type writerSettings struct {
	noChecksum bool // hash nothing and write no checksum file
}

// createWith is Create with internal settings.
func createWith(path string, meta Meta, opt WriterOptions, set writerSettings) (w *Writer, err error) {
	md, err := meta.metadata()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var ipcOpt []ipc.Option
	switch opt.Compression {
	case "", LZ4:
		ipcOpt = append(ipcOpt, ipc.WithLZ4(), ipc.WithCompressConcurrency(runtime.GOMAXPROCS(0)))
	case Zstd:
		ipcOpt = append(ipcOpt, ipc.WithZstd(), ipc.WithCompressConcurrency(runtime.GOMAXPROCS(0)))
	case None:
	default:
		return nil, fmt.Errorf("%s: unknown compression %q (want lz4, zstd or none)", path, opt.Compression)
	}
	if opt.BatchRows < 0 {
		return nil, fmt.Errorf("%s: negative batch size %d", path, opt.BatchRows)
	}
	if opt.BatchRows == 0 {
		opt.BatchRows = DefaultBatchRows
	}
	nfeat := len(meta.FeatureNames)
	schema := arrow.NewSchema(fields(nfeat), &md)
	mem := &bufferPool{}
	ipcOpt = append(ipcOpt, ipc.WithSchema(schema), ipc.WithAllocator(mem))

	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	claim, own := opt.Claim, false
	if claim == nil {
		if claim, err = TakeClaim(path, ClaimOptions{TakeOver: opt.TakeOver}); err != nil {
			return nil, err
		}
		own = true
		defer func() {
			if err != nil {
				claim.Release()
			}
		}()
	} else if claim.path != path {
		return nil, fmt.Errorf("%s: the writer was given the claim of %s", path, claim.path)
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return nil, err
	}
	hf := &hashingFile{f: f}
	if !set.noChecksum {
		hf.h = xxh3.New()
	}
	bw := &posWriter{w: bufio.NewWriterSize(hf, 1<<20)}
	fw, err := ipc.NewFileWriter(bw, ipcOpt...)
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("%s: %w", tmp, err)
	}

	w = &Writer{path: path, tmp: tmp, claim: claim, ownClaim: own, f: f, hf: hf, bw: bw, fw: fw, schema: schema, nfeat: nfeat, batchRows: opt.BatchRows}
	w.gameID = array.NewUint64Builder(mem)
	w.turn = array.NewUint16Builder(mem)
	w.side = array.NewUint8Builder(mem)
	w.board = array.NewFixedSizeListBuilder(mem, BoardLen, arrow.PrimitiveTypes.Uint64)
	w.boardVals = w.board.ValueBuilder().(*array.Uint64Builder)
	w.feats = array.NewFixedSizeListBuilder(mem, int32(nfeat), arrow.PrimitiveTypes.Float32)
	w.featVals = w.feats.ValueBuilder().(*array.Float32Builder)
	w.move = array.NewStringBuilder(mem)
	w.rootValue = array.NewFloat32Builder(mem)
	w.visits = array.NewUint32Builder(mem)
	w.policy = array.NewListBuilder(mem, policyType())
	w.policyEntry = w.policy.ValueBuilder().(*array.StructBuilder)
	w.policyMove = w.policyEntry.FieldBuilder(0).(*array.StringBuilder)
	w.policyVisits = w.policyEntry.FieldBuilder(1).(*array.Uint32Builder)
	w.result = array.NewInt8Builder(mem)
	w.pliesLeft = array.NewUint16Builder(mem)
	w.term = array.NewInt8Builder(mem)
	w.full = array.NewBooleanBuilder(mem)
	// In the order of the schema; the termination builder makes the indices.
	w.builders = []array.Builder{w.gameID, w.turn, w.side, w.board, w.feats, w.move, w.rootValue,
		w.visits, w.policy, w.result, w.pliesLeft, w.term, w.full}

	db := array.NewStringBuilder(mem)
	defer db.Release()
	t := terminations()
	db.AppendValues(t[:], nil)
	w.dict = db.NewArray()
	w.reserve()
	return w, nil
}

// reserve makes room for a batch in the builders: batchRows rows, and strings
// and policy entries as many as in the last batch.
func (w *Writer) reserve() {
	n := w.batchRows
	for _, b := range w.builders {
		b.Reserve(n)
	}
	w.boardVals.Reserve(n * BoardLen)
	w.featVals.Reserve(n * w.nfeat)
	w.move.ReserveData(w.moveBytes + w.moveBytes/8)
	w.policyEntry.Reserve(w.policyEntries + w.policyEntries/8)
	w.policyMove.Reserve(w.policyEntries + w.policyEntries/8)
	w.policyVisits.Reserve(w.policyEntries + w.policyEntries/8)
	w.policyMove.ReserveData(w.policyBytes + w.policyBytes/8)
}

// Rows returns the number of rows written so far.
func (w *Writer) Rows() int64 { return w.rows }

// Path returns the final path of the shard (without .tmp).
func (w *Writer) Path() string { return w.path }

// Write adds the row r. It checks that r has one feature per feature name and a
// known termination. Rows go to the file a record batch at a time, encoded on
// another goroutine: an error writing a batch is returned by a later Write or
// by Close. Write copies r: the caller may reuse it.
func (w *Writer) Write(r *Row) error {
	if w.done {
		return fmt.Errorf("%s: write after close", w.tmp)
	}
	if len(r.Features) != w.nfeat {
		return fmt.Errorf("%s: row of game %d turn %d has %d features, want %d", w.tmp, r.GameID, r.Turn, len(r.Features), w.nfeat)
	}
	ti := terminationIndex(r.Termination)
	if ti < 0 {
		return fmt.Errorf("%s: row of game %d turn %d: unknown termination %q", w.tmp, r.GameID, r.Turn, r.Termination)
	}
	w.gameID.UnsafeAppend(r.GameID)
	w.turn.UnsafeAppend(r.Turn)
	w.side.UnsafeAppend(r.Side)
	w.board.Append(true)
	w.boardVals.AppendValues(r.Board[:], nil)
	w.feats.Append(true)
	w.featVals.AppendValues(r.Features, nil)
	w.move.Append(r.Move)
	w.rootValue.UnsafeAppend(r.RootValue)
	w.visits.UnsafeAppend(r.Visits)
	w.policy.Append(true)
	for i := range r.Policy {
		w.policyEntry.Append(true)
		w.policyMove.Append(r.Policy[i].Move)
		w.policyVisits.Append(r.Policy[i].Visits)
	}
	w.result.UnsafeAppend(r.Result)
	w.pliesLeft.UnsafeAppend(r.PliesLeft)
	w.term.UnsafeAppend(int8(ti))
	w.full.UnsafeAppend(r.FullSearch)
	w.pending++
	w.rows++
	if w.pending >= w.batchRows {
		return w.flush()
	}
	return nil
}

// flush hands the pending rows as a record batch to a goroutine that encodes,
// compresses and writes it while the next batch is being built. One batch at
// a time is encoded: flush first waits for the previous one.
func (w *Writer) flush() error {
	if w.pending == 0 {
		return w.wait()
	}
	w.moveBytes = w.move.DataLen()
	w.policyBytes = w.policyMove.DataLen()
	w.policyEntries = w.policyMove.Len()
	cols := make([]arrow.Array, NumCols)
	for i, b := range w.builders {
		cols[i] = b.NewArray()
	}
	idx := cols[ColTermination]
	cols[ColTermination] = array.NewDictionaryArray(terminationType(), idx, w.dict)
	idx.Release()
	rec := array.NewRecord(w.schema, cols, int64(w.pending))
	for _, c := range cols {
		c.Release()
	}
	w.pending = 0
	w.reserve()
	if err := w.wait(); err != nil {
		rec.Release()
		return err
	}
	done := make(chan struct{})
	w.encoding = done
	go func() {
		defer close(done)
		defer rec.Release()
		if err := w.fw.Write(rec); err != nil {
			w.err = fmt.Errorf("%s: %w", w.tmp, err)
		}
	}()
	return nil
}

// wait waits for the batch being encoded, if any, and returns the first error
// of the encoder.
func (w *Writer) wait() error {
	if w.encoding != nil {
		<-w.encoding
		w.encoding = nil
	}
	return w.err
}

// Close publishes the shard: it writes the pending rows and the file's footer,
// syncs the file to disk, writes the checksum file PATH.xxh128 (the hash of
// the bytes written, synced, through a temporary file), renames the file from PATH.tmp to PATH, syncs the
// directory and releases the claim. After an error the .tmp file is removed.
// Closing a closed Writer does nothing.
func (w *Writer) Close() error {
	if w.done {
		return nil
	}
	if w.ownClaim {
		defer w.claim.Release()
	}
	err := w.finish()
	if err == nil && !w.claim.Held() {
		_, owner, _ := readClaim(ClaimPath(w.path))
		err = &ClaimError{Path: w.path, Owner: owner, Why: "it took the claim over from this writer, which did not publish the shard"}
	}
	if err == nil && w.hf.h != nil {
		h := w.hf.h.Sum128().Bytes()
		err = writeSum(w.path, hex.EncodeToString(h[:]))
	}
	if err != nil {
		w.f.Close()
		os.Remove(w.tmp)
		return err
	}
	if err := os.Rename(w.tmp, w.path); err != nil {
		os.Remove(w.tmp)
		os.Remove(SumPath(w.path))
		return err
	}
	if err := syncDir(filepath.Dir(w.path)); err != nil {
		return fmt.Errorf("%s: %w", w.path, err)
	}
	return nil
}

// finish flushes everything to the .tmp file, syncs and closes it.
func (w *Writer) finish() error {
	defer w.release()
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.wait(); err != nil {
		return err
	}
	if err := w.fw.Close(); err != nil {
		return fmt.Errorf("%s: %w", w.tmp, err)
	}
	if err := w.bw.w.Flush(); err != nil {
		return err // an *os.PathError naming the file
	}
	if err := w.f.Sync(); err != nil {
		return err
	}
	if err := w.f.Close(); err != nil {
		return err
	}
	return nil
}

// Abort gives up the shard: it closes and removes the .tmp file. Aborting a
// closed Writer does nothing.
func (w *Writer) Abort() error {
	if w.done {
		return nil
	}
	w.wait()
	w.release()
	w.f.Close()
	err := os.Remove(w.tmp)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	if w.ownClaim {
		err = errors.Join(err, w.claim.Release())
	}
	return err
}

// release frees the builders and marks w done.
func (w *Writer) release() {
	w.done = true
	for _, b := range w.builders {
		b.Release()
	}
	w.dict.Release()
}

// syncDir syncs the directory dir, so that a rename in it is durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// hashingFile writes to a file and hashes what it writes, for the checksum
// file (unless h is nil). It sits behind the 1 MiB buffer of a posWriter, so that it hashes
// large pieces: XXH3 streams at some 28 GB/s in 1 MiB pieces, but 5 GB/s in
// 4 KiB ones.
type hashingFile struct {
	f *os.File
	h *xxh3.Hasher
}

func (w *hashingFile) Write(b []byte) (int, error) {
	n, err := w.f.Write(b)
	if w.h != nil {
		w.h.Write(b[:n])
	}
	return n, err
}

// posWriter is a buffered writer that knows its position, for ipc.FileWriter,
// which needs an io.WriteSeeker but only asks for the current position.
type posWriter struct {
	w   *bufio.Writer
	pos int64
}

func (p *posWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.pos += int64(n)
	return n, err
}

func (p *posWriter) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekCurrent {
		return p.pos, errors.New("the shard writer can only tell its position")
	}
	return p.pos, nil
}
