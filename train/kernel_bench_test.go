package train

import "testing"

// BenchmarkKernel times the loss and gradient of one block of 4,096 rows of
// 64 features on one core: the inner loop of every pass.
func BenchmarkKernel(b *testing.B) {
	const n, nf = blockRows, 64
	d := synthetic(n, nf, 1, 1, trueWeights(nf, 0.3), 1, false, false)
	v := trueWeights(nf, 0.1)
	blk := block{n: n, x: d.X, y: d.Y, c: d.W}
	k := lossGradKernel(v)
	acc := make([]float64, 1+nf)
	for b.Loop() {
		k(&blk, acc)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}
