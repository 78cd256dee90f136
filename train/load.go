package train

import (
	"context"
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/arimaalab/arimaalab/data"
)

// Loaded is a dataset read into memory, split by game.
type Loaded struct {
	// Train and Val are the training and validation rows (Val may have none).
	Train, Val *Dataset
	// Files are the shard files read, Read the rows read from them, and
	// LeftOut the rows read but not used (unfinished games for the result
	// target).
	Files   []string
	Read    int64
	LeftOut int64
	// FeatureNames names the features of the rows.
	FeatureNames []string
}

// Load reads the shards named by paths (files, directories or glob
// patterns, as data.Open takes them) into memory: the features of all the
// rows as one contiguous slice, split into training and validation rows by
// game, with their targets, weights, games and phases. threads goroutines (0:
// one) copy or recompute the features; progress, when set, is called with the
// rows read so far and the total.
func Load(ctx context.Context, paths []string, opt RowOptions, threads int, progress func(done, total int64)) (*Loaded, error) {
	s, err := openShards(paths, opt)
	if err != nil {
		return nil, err
	}
	defer s.close()
	return s.load(ctx, threads, progress)
}

// loadJob is a record batch whose rows src are to be filled into the rows
// dst of the dataset.
type loadJob struct {
	rec     arrow.Record
	cols    *data.Columns
	file    int
	fileRow int64 // the row in its file of the record's first row
	src     []int32
	dst     []int64
}

// load reads the rows into memory. One allocation of every row read holds
// them all: training rows fill it from the front and validation rows from the
// back, which then move down to follow the training rows, in file order.
func (s *shards) load(ctx context.Context, threads int, progress func(done, total int64)) (*Loaded, error) {
	n, nf := s.read, s.nf
	x := make([]float32, n*int64(nf))
	y := make([]float32, n)
	w := make([]float32, n)
	game := make([]uint64, n)
	phase := make([]Phase, n)
	nt, top := int64(0), n // training rows are [0, nt), validation rows [top, n)
	var read, done int64

	produce := func(ctx context.Context, emit func(*loadJob) error) error {
		return s.records(func() bool { return read < n }, func(rec arrow.Record, file int, fileRow int64) error {
			c, err := data.ColumnsOf(rec)
			if err != nil {
				return fmt.Errorf("%s: %w", s.r.Files()[file], err)
			}
			j := &loadJob{rec: rec, cols: c, file: file, fileRow: fileRow}
			for i := range c.Len {
				if read == n {
					break
				}
				read++
				val, yi, wi, ph, ok, err := s.decide(c, i)
				if err != nil {
					return s.rowError(file, fileRow+int64(i), c, i, "%v", err)
				}
				if !ok {
					continue
				}
				var d int64
				if val {
					top--
					d = top
				} else {
					d = nt
					nt++
				}
				y[d], w[d], game[d], phase[d] = yi, wi, c.GameID[i], ph
				j.src = append(j.src, int32(i))
				j.dst = append(j.dst, d)
			}
			rec.Retain()
			return emit(j)
		})
	}
	work := func(_ int, j *loadJob) (int, error) {
		for k, i := range j.src {
			d := j.dst[k]
			if err := s.fill(j.cols, int(i), x[d*int64(nf):(d+1)*int64(nf)]); err != nil {
				return 0, s.rowError(j.file, j.fileRow+int64(i), j.cols, int(i), "%v", err)
			}
		}
		return j.cols.Len, nil
	}
	reduce := func(rows int) error {
		done += int64(rows)
		if progress != nil {
			progress(min(done, n), n)
		}
		return nil
	}
	if err := scan(ctx, threads, produce, work, func(j *loadJob) { j.rec.Release() }, reduce); err != nil {
		return nil, err
	}

	// Move the validation rows down after the training rows, reversed into
	// file order.
	nv := n - top
	if top > nt {
		copy(x[nt*int64(nf):], x[top*int64(nf):])
		copy(y[nt:], y[top:])
		copy(w[nt:], w[top:])
		copy(game[nt:], game[top:])
		copy(phase[nt:], phase[top:])
	}
	tmp := make([]float32, nf)
	for a, b := nt, nt+nv-1; a < b; a, b = a+1, b-1 {
		ra, rb := x[a*int64(nf):(a+1)*int64(nf)], x[b*int64(nf):(b+1)*int64(nf)]
		copy(tmp, ra)
		copy(ra, rb)
		copy(rb, tmp)
		y[a], y[b] = y[b], y[a]
		w[a], w[b] = w[b], w[a]
		game[a], game[b] = game[b], game[a]
		phase[a], phase[b] = phase[b], phase[a]
	}
	part := func(lo, hi int64) *Dataset {
		return &Dataset{
			NumFeatures: nf,
			X:           x[lo*int64(nf) : hi*int64(nf) : hi*int64(nf)],
			Y:           y[lo:hi:hi],
			W:           w[lo:hi:hi],
			GameID:      game[lo:hi:hi],
			Phase:       phase[lo:hi:hi],
		}
	}
	return &Loaded{
		Train:        part(0, nt),
		Val:          part(nt, nt+nv),
		Files:        s.r.Files(),
		Read:         read,
		LeftOut:      read - nt - nv,
		FeatureNames: s.names,
	}, nil
}
