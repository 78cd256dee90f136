package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/selfplay/selfplaytest"
)

// selfPlayDir holds the shards of a small self-play run made once by TestMain
// for the tests that need real data.
var selfPlayDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "train-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		selfPlayDir = filepath.Join(dir, "gen=0000", "selfplay")
		if err := playSmall(selfPlayDir); err != nil {
			fmt.Fprintln(os.Stderr, "self-play for the tests:", err)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

// playSmall writes 8 self-play games with tiny searches (2 shards of 4) to dir:
// about 500 rows, in a second or so.
func playSmall(dir string) error {
	return selfplaytest.Play(dir, selfplaytest.Small{Games: 8, GamesPerShard: 4, MaxTurns: 40, Visits: 40, CheapVisits: 12, Seed: 1})
}

// synthetic returns n rows of nf features drawn from a known logistic model:
// feature 0 is the constant 1, the others normal with standard deviation sd;
// the target is a draw of Bernoulli(p) with p = sigmoid(scale * w·f), or p
// itself when soft. Row weights are 1, or uniform in [0.5, 1] when weighted.
func synthetic(n, nf int, scale, sd float64, w []float64, seed uint64, soft, weighted bool) *Dataset {
	rng := rand.New(rand.NewPCG(seed, 99))
	x := make([]float32, n*nf)
	y := make([]float32, n)
	c := make([]float32, n)
	for i := range n {
		row := x[i*nf : (i+1)*nf]
		row[0] = 1
		z := w[0]
		for j := 1; j < nf; j++ {
			row[j] = float32(rng.NormFloat64() * sd)
			z += w[j] * float64(row[j])
		}
		p := 1 / (1 + math.Exp(-scale*z))
		switch {
		case soft:
			y[i] = float32(p)
		case rng.Float64() < p:
			y[i] = 1
		}
		c[i] = 1
		if weighted {
			c[i] = float32(0.5 + rng.Float64()/2)
		}
	}
	d, err := NewDataset(nf, x, y, c)
	if err != nil {
		panic(err)
	}
	return d
}

// trueWeights returns nf weights spread over [-a, a] in a fixed pattern.
func trueWeights(nf int, a float64) []float64 {
	w := make([]float64, nf)
	for j := range w {
		w[j] = a * math.Sin(float64(3*j+1))
	}
	return w
}

// syntheticShards writes shards of the current feature set with random
// features and results drawn from a logistic model of them: rowsPer rows in
// each of files shards, games of 50 rows. The boards are the standard opening.
func syntheticShards(tb testing.TB, dir string, files, rowsPer int, seed uint64) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	w := trueWeights(features.N, 0.5)
	start, err := engine.ParsePosition("g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]")
	if err != nil {
		tb.Fatal(err)
	}
	meta := data.Meta{FeatureNames: features.Names(), FeatureVersion: features.Version(), WeightsHash: "synthetic"}
	for f := range files {
		meta.Shard = f
		wr, err := data.Create(filepath.Join(dir, fmt.Sprintf("shard-%05d.arrow", f)), meta, data.WriterOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		row := data.Row{Features: make([]float32, features.N), Move: "Ra2n", Termination: "goal", Visits: 10}
		for i := range rowsPer {
			k := f*rowsPer + i
			row.GameID = uint64(k / 50)
			row.Turn = uint16(2 + k%50/2)
			row.Side = uint8(k % 2)
			for b := range start.Bits {
				row.Board[b] = uint64(start.Bits[b])
			}
			z := 0.0
			for j := range row.Features {
				v := float32(rng.NormFloat64())
				if j == 0 {
					v = 1
				}
				row.Features[j] = v
				z += w[j] * float64(v)
			}
			p := 1 / (1 + math.Exp(-z))
			row.Result = -1
			if rng.Float64() < p {
				row.Result = 1
			}
			row.RootValue = float32(2*p - 1)
			row.FullSearch = k%4 == 0
			if err := wr.Write(&row); err != nil {
				tb.Fatal(err)
			}
		}
		if err := wr.Close(); err != nil {
			tb.Fatal(err)
		}
	}
}
