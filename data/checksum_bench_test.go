package data

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/zeebo/xxh3"
)

// BenchmarkChecksum measures what the checksum costs, for each compression,
// on 262,144 real rows in one shard or four: writing the shards with and
// without hashing them, reading them together (with column access, as
// BenchmarkRead) with and without verifying them, and the hash alone, as the
// writer computes it (streamed in the 1 MiB pieces its buffer hands to the
// file, hashed while they are in cache) and as Open does (each whole file at
// once, in memory, one after the other). The metrics are per row.
//
// write-% and read-% are the hash alone as a share of writing and of reading
// without the checksum (the target is under 5%), and write-diff-% and
// read-diff-% the differences of the timings with and without the checksum,
// taken one after the other: the whole cost, noisy on a shared machine (they
// can come out negative). All four are medians over the iterations. Open's hash is the
// first to touch a mapped file, whose page faults (some 2 µs a page on a
// virtual machine) it then spares the decoding, and Open hashes several files
// in parallel (one per processor): read-diff-% counts both, read-% neither.
func BenchmarkChecksum(b *testing.B) {
	for _, c := range []Compression{LZ4, None} {
		for _, files := range []int{1, 4} {
			b.Run(fmt.Sprintf("%s/files=%d", c, files), func(b *testing.B) {
				benchChecksum(b, c, files)
			})
		}
	}
}

func benchChecksum(b *testing.B, c Compression, files int) {
	const n = 1 << 18
	rows := benchRows(b)
	dir := b.TempDir()
	var paths []string
	for k := range files {
		paths = append(paths, filepath.Join(dir, fmt.Sprintf("shard-%05d.arrow", k)))
	}
	write := func(name string, hash bool) time.Duration {
		start := time.Now()
		for k := range files {
			path := filepath.Join(dir, fmt.Sprintf(name, k))
			w, err := createWith(path, testMeta(k), WriterOptions{Compression: c}, writerSettings{noChecksum: !hash})
			if err != nil {
				b.Fatal(err)
			}
			for i := k * n / files; i < (k+1)*n/files; i++ {
				if err := w.Write(&rows[i%len(rows)]); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	read := func(verify bool) time.Duration {
		start := time.Now()
		r, err := openWith(openOptions{noChecksum: !verify}, paths...)
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
	piece := make([]byte, 1<<20)
	var wHash, wPlain, rVerify, rPlain, hashW, hashR time.Duration
	var wDiff, rDiff, wShare, rShare []float64
	var size int64
	for b.Loop() {
		wp := write("plain-%05d.arrow", false)
		wh := write("shard-%05d.arrow", true)
		rp := read(false)
		rv := read(true)
		wPlain, wHash, rPlain, rVerify = wPlain+wp, wHash+wh, rPlain+rp, rVerify+rv
		wDiff = append(wDiff, float64(wh-wp)/float64(wp))
		rDiff = append(rDiff, float64(rv-rp)/float64(rp))
		hw, hr := hashW, hashR
		size = 0
		for _, path := range paths {
			buf, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			size += int64(len(buf))
			h := xxh3.New()
			for k := 0; k < len(buf); k += len(piece) {
				m := copy(piece, buf[k:])
				start := time.Now()
				h.Write(piece[:m])
				hashW += time.Since(start)
			}
			_ = h.Sum128()
			start := time.Now()
			_ = checksum(buf)
			hashR += time.Since(start)
		}
		wShare = append(wShare, float64(hashW-hw)/float64(wp))
		rShare = append(rShare, float64(hashR-hr)/float64(rp))
	}
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N*n) }
	b.ReportMetric(float64(size)/n, "bytes/row")
	b.ReportMetric(per(wHash), "write-ns/row")
	b.ReportMetric(per(wPlain), "write-unhashed-ns/row")
	b.ReportMetric(per(rVerify), "read-ns/row")
	b.ReportMetric(per(rPlain), "read-unverified-ns/row")
	b.ReportMetric(per(hashW), "hash-write-ns/row")
	b.ReportMetric(per(hashR), "hash-read-ns/row")
	b.ReportMetric(100*median(wShare), "write-%")
	b.ReportMetric(100*median(rShare), "read-%")
	b.ReportMetric(100*median(wDiff), "write-diff-%")
	b.ReportMetric(100*median(rDiff), "read-diff-%")
}

// median returns the median of x (which it sorts).
func median(x []float64) float64 {
	slices.Sort(x)
	n := len(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}
