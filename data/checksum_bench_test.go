package data

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zeebo/xxh3"
)

// BenchmarkChecksum measures what the checksum costs: writing a shard of
// real rows with and without hashing it, reading it (with column access, as
// BenchmarkRead) with and without verifying it, and the hash alone, fed as
// the writer feeds it (4 KiB pieces) and at once as Open does. The metrics
// are per row; write-% and read-% are the hash's cost as a share of writing
// and reading (the target is under 5%), from the hash alone, which is steadier
// than the difference of two timings on a shared machine.
func BenchmarkChecksum(b *testing.B) {
	for _, c := range []Compression{LZ4, None} {
		b.Run(string(c), func(b *testing.B) {
			const n = 1 << 18
			rows := benchRows(b)
			dir := b.TempDir()
			write := func(path string, hash bool) time.Duration {
				start := time.Now()
				w, err := Create(path, testMeta(0), WriterOptions{Compression: c})
				if err != nil {
					b.Fatal(err)
				}
				if !hash {
					w.bw.h = nil
				}
				for i := range n {
					if err := w.Write(&rows[i%len(rows)]); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				return time.Since(start)
			}
			read := func(path string, verify bool) time.Duration {
				start := time.Now()
				r, err := openWith(openOptions{noChecksum: !verify}, path)
				if err != nil {
					b.Fatal(err)
				}
				defer r.Close()
				var sum float32
				for {
					rec, err := r.Next()
					if err == io.EOF {
						break
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
						for _, v := range cols.Features[i*f : (i+1)*f] {
							sum += v
						}
					}
				}
				_ = sum
				return time.Since(start)
			}
			path := filepath.Join(dir, "s.arrow")
			var wHash, wPlain, rVerify, rPlain, hStream, hOnce time.Duration
			for b.Loop() {
				wPlain += write(filepath.Join(dir, "plain.arrow"), false)
				wHash += write(path, true)
				rPlain += read(path, false)
				rVerify += read(path, true)
				buf, err := os.ReadFile(path)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				h := xxh3.New()
				for k := 0; k < len(buf); k += 4096 {
					h.Write(buf[k:min(k+4096, len(buf))])
				}
				_ = h.Sum128()
				hStream += time.Since(start)
				start = time.Now()
				_ = checksum(buf)
				hOnce += time.Since(start)
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N*n) }
			b.ReportMetric(per(wHash), "write-ns/row")
			b.ReportMetric(per(wPlain), "write-unhashed-ns/row")
			b.ReportMetric(per(rVerify), "read-ns/row")
			b.ReportMetric(per(rPlain), "read-unverified-ns/row")
			b.ReportMetric(per(hStream), "hash-stream-ns/row")
			b.ReportMetric(per(hOnce), "hash-ns/row")
			b.ReportMetric(100*per(hStream)/per(wPlain), "write-%")
			b.ReportMetric(100*per(hOnce)/per(rPlain), "read-%")
		})
	}
}
