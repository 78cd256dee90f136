package data

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
)

// benchRows returns rows like self-play's, from the turns of the real games of
// engine/testdata: the positions' boards and features, the moves played, and
// policies of 8 entries (the move and the game's next moves).
func benchRows(b *testing.B) []Row {
	f, err := os.Open("../engine/testdata/allgames202602.txt")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	recs, err := engine.ReadArchive(f, f.Name())
	if err != nil {
		b.Fatal(err)
	}
	var rows []Row
	for gi, rec := range recs {
		g, err := engine.Replay(rec)
		if err != nil {
			b.Fatal(err)
		}
		moves := g.Moves()
		for i, m := range moves {
			pos := g.PositionBefore(i)
			r := Row{GameID: uint64(gi), Turn: uint16(2 + i/2), Side: uint8(i % 2), Move: m,
				RootValue: float32(i%21-10) / 10, Visits: 800, Result: int8(1 - 2*(i%2)),
				PliesLeft: uint16(len(moves) - i), Termination: rec.Termination.String(), FullSearch: i%4 != 0}
			for k, bb := range pos.Bits {
				r.Board[k] = uint64(bb)
			}
			r.Features = make([]float32, features.N)
			features.Extract(&pos, r.Features)
			for k := range 8 {
				r.Policy = append(r.Policy, PolicyEntry{moves[(i+k)%len(moves)], uint32(400 >> k)})
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// BenchmarkWrite measures writing rows to an LZ4 shard (target: 1 M rows/s).
func BenchmarkWrite(b *testing.B) {
	for _, c := range []Compression{LZ4, Zstd, None} {
		b.Run(string(c), func(b *testing.B) {
			rows := benchRows(b)
			w, err := Create(filepath.Join(b.TempDir(), "bench.arrow"), testMeta(0), WriterOptions{Compression: c})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if err := w.Write(&rows[i%len(rows)]); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkRead measures streaming a shard of 1 M rows with access to the
// columns a trainer reads (target: 10 M rows/s). One op is one row.
func BenchmarkRead(b *testing.B) {
	for _, c := range []Compression{LZ4, Zstd, None} {
		b.Run(string(c), func(b *testing.B) {
			const n = 1 << 20
			rows := benchRows(b)
			path := filepath.Join(b.TempDir(), "bench.arrow")
			w, err := Create(path, testMeta(0), WriterOptions{Compression: c})
			if err != nil {
				b.Fatal(err)
			}
			for i := range n {
				if err := w.Write(&rows[i%len(rows)]); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			r, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			b.ReportAllocs()
			b.ResetTimer()
			var sum float64
			for read := 0; read < b.N; {
				rec, err := r.Next()
				if err == io.EOF {
					r.Reset()
					continue
				}
				if err != nil {
					b.Fatal(err)
				}
				cols, err := ColumnsOf(rec)
				if err != nil {
					b.Fatal(err)
				}
				f := cols.NumFeatures
				for i := range cols.Len {
					x := float32(cols.Result[i]) + cols.RootValue[i]
					for _, v := range cols.Features[i*f : (i+1)*f] {
						x += v
					}
					if cols.FullSearch.Value(i) {
						sum += float64(x)
					}
				}
				read += cols.Len
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			if sum == 0 {
				b.Log("sum is 0")
			}
		})
	}
}
