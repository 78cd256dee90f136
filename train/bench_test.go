package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"
)

// heapPeak samples the heap in use every few milliseconds until stop, and
// keeps the largest value.
type heapPeak struct {
	wg   sync.WaitGroup
	done chan struct{}
	peak uint64
}

func startHeapPeak() *heapPeak {
	runtime.GC()
	h := &heapPeak{done: make(chan struct{})}
	h.wg.Go(func() {
		var m runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&m)
			h.peak = max(h.peak, m.HeapInuse)
			select {
			case <-h.done:
				return
			case <-t.C:
			}
		}
	})
	return h
}

// stop ends the sampling and returns the peak in MB.
func (h *heapPeak) stop() float64 {
	close(h.done)
	h.wg.Wait()
	return float64(h.peak) / (1 << 20)
}

// BenchmarkFit1M fits 1 M rows x 64 features (drawn targets) to
// convergence from zero weights, with one thread per CPU. The rows take 256
// MB of features; heap-MB is the peak heap in use during the fit (rows
// included), alloc-MB what the fit itself allocated.
//
// The "independent" rows have unit normal features; the "correlated" ones mix
// neighbouring features (f_j = u_j + 0.9 u_{j-1}), scale them from 0.1 to 10
// and make a quarter of them rare counts (nonzero in 5% of the rows), as real
// features are: a harder problem for L-BFGS.
func BenchmarkFit1M(b *testing.B) {
	const n, nf = 1_000_000, 64
	for _, correlated := range []bool{false, true} {
		name := "independent"
		d := synthetic(n, nf, 1, 1, trueWeights(nf, 0.3), 1, false, false)
		if correlated {
			name = "correlated"
			d = correlate(d, trueWeights(nf, 0.3), 2)
		}
		b.Run(name, func(b *testing.B) { benchFit(b, d) })
	}
}

// correlate turns the independent features of d into correlated, badly
// scaled and partly sparse ones, and draws new targets from the weights w.
func correlate(d *Dataset, w []float64, seed uint64) *Dataset {
	rng := rand.New(rand.NewPCG(seed, 5))
	nf := d.NumFeatures
	sd := make([]float64, nf)
	for j := range sd {
		sd[j] = math.Pow(10, float64(j%5)/2-1) // 0.1 to 10
	}
	u := make([]float64, nf)
	for i := range d.Rows() {
		row := d.X[i*nf : (i+1)*nf]
		for j := range u {
			u[j] = float64(row[j])
		}
		z := w[0]
		for j := 1; j < nf; j++ {
			f := u[j] + 0.9*u[j-1]
			if j%4 == 0 { // a rare count
				f = 0
				if rng.Float64() < 0.05 {
					f = float64(1 + rng.IntN(3))
				}
			}
			row[j] = float32(f * sd[j])
			z += w[j] / sd[j] * float64(row[j])
		}
		d.Y[i] = 0
		if rng.Float64() < 1/(1+math.Exp(-z)) {
			d.Y[i] = 1
		}
	}
	return d
}

func benchFit(b *testing.B, d *Dataset) {
	nf := d.NumFeatures
	threads := runtime.GOMAXPROCS(0)
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		h := startHeapPeak()
		r, err := Fit(context.Background(), d, make([]float64, nf), FitOptions{Scale: 1, L2: 1e-6, Threads: threads})
		peak := h.stop()
		if err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(r.Iterations), "iterations")
		b.ReportMetric(float64(r.Evaluations), "passes")
		b.ReportMetric(peak, "heap-MB")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "alloc-MB")
		b.ReportMetric(float64(len(d.X)*4)/(1<<20), "data-MB")
	}
}

// BenchmarkRun measures whole runs over synthetic shards of the current
// feature set (36 features, 50,000 rows a shard) at two sizes, in memory and
// streamed: the peak heap of a streamed run should stay flat as the data
// grows, that of a run in memory grows with it.
func BenchmarkRun(b *testing.B) {
	for _, rows := range []int{100_000, 400_000} {
		dir := b.TempDir()
		syntheticShards(b, dir, rows/50_000, 50_000, 1)
		for _, stream := range []bool{false, true} {
			mode := "memory"
			if stream {
				mode = "stream"
			}
			b.Run(fmt.Sprintf("%s/rows=%d", mode, rows), func(b *testing.B) {
				o := DefaultOptions()
				o.Data, o.Stream, o.Threads = []string{dir}, stream, runtime.GOMAXPROCS(0)
				o.L2 = 1e-6
				for b.Loop() {
					h := startHeapPeak()
					res, err := Run(context.Background(), o)
					peak := h.stop()
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(peak, "heap-MB")
					b.ReportMetric(float64(res.Report.Fit.Evaluations), "passes")
				}
			})
		}
	}
}
