package train

import (
	"context"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/arimaalab/arimaalab/data"
)

// stream is one side of the split (training or validation) of a set of shard
// files, read anew at every pass: nothing of the rows stays in memory between
// passes, only the record batches being worked on (at most 4 per thread).
type stream struct {
	s   *shards
	val bool // the validation side
}

// streamJob is a record batch to work on.
type streamJob struct {
	rec     arrow.Record
	file    int
	fileRow int64 // the row in its file of the record's first row
	rows    int   // rows of the record to use (fewer after MaxRows)
}

func (st *stream) numFeatures() int { return st.s.nf }

// sum implements source: a pass over the files, one record batch a job.
func (st *stream) sum(ctx context.Context, threads, accLen int, work func(b *block, acc []float64)) ([]float64, error) {
	s := st.s
	scratch := make([]*block, max(threads, 1))
	total := make([]float64, accLen)
	produce := func(ctx context.Context, emit func(streamJob) error) error {
		read := int64(0)
		return s.records(func() bool { return read < s.read }, func(rec arrow.Record, file int, fileRow int64) error {
			n := int(min(rec.NumRows(), s.read-read))
			rec.Retain()
			if err := emit(streamJob{rec: rec, file: file, fileRow: fileRow, rows: n}); err != nil {
				return err
			}
			read += int64(n)
			return nil
		})
	}
	do := func(worker int, j streamJob) ([]float64, error) {
		c, err := data.ColumnsOf(j.rec)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.r.Files()[j.file], err)
		}
		b := scratch[worker]
		if b == nil {
			b = &block{}
			scratch[worker] = b
		}
		b.n = 0
		b.x, b.y, b.c, b.phase = b.x[:0], b.y[:0], b.c[:0], b.phase[:0]
		for i := range j.rows {
			val, y, w, ph, ok, err := s.decide(c, i)
			if err != nil {
				return nil, s.rowError(j.file, j.fileRow+int64(i), c, i, "%v", err)
			}
			if !ok || val != st.val {
				continue
			}
			k := len(b.x)
			b.x = append(b.x, make([]float32, s.nf)...)
			if err := s.fill(c, i, b.x[k:]); err != nil {
				return nil, s.rowError(j.file, j.fileRow+int64(i), c, i, "%v", err)
			}
			b.y = append(b.y, y)
			b.c = append(b.c, w)
			b.phase = append(b.phase, ph)
			b.n++
		}
		acc := make([]float64, accLen)
		work(b, acc)
		return acc, nil
	}
	reduce := func(acc []float64) error {
		for k, v := range acc {
			total[k] += v
		}
		return nil
	}
	err := scan(ctx, threads, produce, do, func(j streamJob) { j.rec.Release() }, reduce)
	return total, err
}
