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
// real rows (the writer hashes what it writes, in 1 MiB pieces), reading it
// (with column access, as BenchmarkRead) with and without verifying it, and
// the hash alone as the writer computes it (streamed in 1 MiB pieces) and as
// Open does (at once). The metrics are per row; write-% and read-% are the
// hash's cost as a share of writing and of reading unverified (the target is
// under 5%), from the hash alone, steadier than the difference of two timings
// on a shared machine. (Open hashes the mapped file, whose page faults then
// spare the decoding; they are not counted in the hash.)
func BenchmarkChecksum(b *testing.B) {
	for _, c := range []Compression{LZ4, None} {
		b.Run(string(c), func(b *testing.B) {
			const n = 1 << 18
			rows := benchRows(b)
			path := filepath.Join(b.TempDir(), "s.arrow")
			write := func() time.Duration {
				start := time.Now()
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
				return time.Since(start)
			}
			read := func(verify bool) time.Duration {
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
			var wr, rVerify, rPlain, hashW, hashR time.Duration
			var size int64
			for b.Loop() {
				wr += write()
				rPlain += read(false)
				rVerify += read(true)
				buf, err := os.ReadFile(path)
				if err != nil {
					b.Fatal(err)
				}
				size = int64(len(buf))
				start := time.Now()
				h := xxh3.New()
				for k := 0; k < len(buf); k += 1 << 20 {
					h.Write(buf[k:min(k+1<<20, len(buf))])
				}
				_ = h.Sum128()
				hashW += time.Since(start)
				start = time.Now()
				_ = checksum(buf)
				hashR += time.Since(start)
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N*n) }
			b.ReportMetric(float64(size)/n, "bytes/row")
			b.ReportMetric(per(wr), "write-ns/row")
			b.ReportMetric(per(rVerify), "read-ns/row")
			b.ReportMetric(per(rPlain), "read-unverified-ns/row")
			b.ReportMetric(per(hashW), "hash-stream-ns/row")
			b.ReportMetric(per(hashR), "hash-ns/row")
			b.ReportMetric(100*per(hashW)/per(wr), "write-%")
			b.ReportMetric(100*per(hashR)/per(rPlain), "read-%")
		})
	}
}
