package weights

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arimaalab/arimaalab/engine"
	"github.com/arimaalab/arimaalab/features"
)

// testWeights returns weights for the current feature set with varied values.
func testWeights(t testing.TB) *Weights {
	t.Helper()
	vals := make([]float64, features.N)
	for i := range vals {
		vals[i] = float64(i%7-3) * 0.25
	}
	vals[features.Index("harlog")] = 1
	w, err := New(vals, 0.13, 4)
	if err != nil {
		t.Fatal(err)
	}
	w.Lineage = Lineage{
		Parent:  3,
		Dataset: []string{"run/gen=0003/selfplay"},
		Rows:    123456,
		Target:  "blend:0.5",
		Metrics: map[string]float64{"val_logloss": 0.61, "train_logloss": 0.6},
		Created: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Notes:   "test",
	}
	return w
}

func TestSaveLoadRoundTrip(t *testing.T) {
	w := testWeights(t)
	path := filepath.Join(t.TempDir(), "gen-4.json")
	if err := w.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("temporary file left behind: %v", err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Check(); err != nil {
		t.Fatal(err)
	}
	if got.Source != path {
		t.Errorf("Source = %q, want %q", got.Source, path)
	}
	got.Source = w.Source
	if !equal(got, w) {
		t.Errorf("round trip changed the weights:\n got %+v\nwant %+v", got, w)
	}
	if got.Hash() != w.Hash() {
		t.Errorf("Hash changed: %s, %s", got.Hash(), w.Hash())
	}

	// The file is for people: one feature per line, in feature order.
	data, _ := os.ReadFile(path)
	text := string(data)
	last := -1
	for _, n := range features.Names() {
		i := strings.Index(text, "\n    \""+n+"\": ")
		if i < 0 {
			t.Fatalf("feature %q not on a line of its own in\n%s", n, text)
		}
		if i < last {
			t.Errorf("feature %q out of order", n)
		}
		last = i
	}
	// Saving the loaded weights writes the same bytes.
	path2 := filepath.Join(t.TempDir(), "again.json")
	if err := got.Save(path2); err != nil {
		t.Fatal(err)
	}
	if data2, _ := os.ReadFile(path2); string(data2) != text {
		t.Errorf("second save differs:\n%s\n%s", text, data2)
	}
}

func equal(a, b *Weights) bool {
	return a.FeatureVersion == b.FeatureVersion && slices.Equal(a.Features, b.Features) &&
		slices.Equal(a.Values, b.Values) && a.Scale == b.Scale && a.Generation == b.Generation &&
		a.Lineage.Parent == b.Lineage.Parent && slices.Equal(a.Lineage.Dataset, b.Lineage.Dataset) &&
		a.Lineage.Rows == b.Lineage.Rows && a.Lineage.Target == b.Lineage.Target &&
		a.Lineage.Created.Equal(b.Lineage.Created) && a.Lineage.Notes == b.Lineage.Notes &&
		len(a.Lineage.Metrics) == len(b.Lineage.Metrics) && a.Source == b.Source
}

func TestSaveErrors(t *testing.T) {
	w := testWeights(t)
	if err := w.Save(filepath.Join(t.TempDir(), "no", "such", "dir", "w.json")); err == nil {
		t.Error("Save into a missing directory succeeded")
	}
	w.Values[2] = math.NaN()
	path := filepath.Join(t.TempDir(), "nan.json")
	if err := w.Save(path); err == nil || !strings.Contains(err.Error(), `"material_camel"`) {
		t.Errorf("Save of a NaN weight: err = %v, want one naming material_camel", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("a failed Save left a file")
	}
}

// fileText returns a valid weights file for the current feature set, with
// replacements applied (old, new, old, new, ...).
func fileText(t *testing.T, repl ...string) []byte {
	t.Helper()
	data, err := testWeights(t).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(s, repl[i]) {
			t.Fatalf("file has no %q", repl[i])
		}
		s = strings.Replace(s, repl[i], repl[i+1], 1)
	}
	return []byte(s)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want string // in the error
	}{
		{"unknown field", fileText(t, `"scale":`, `"scael": 1, "scale":`), `unknown field "scael"`},
		{"unknown lineage field", fileText(t, `"rows":`, `"rowz": 1, "rows":`), `unknown field "rowz"`},
		{"repeated feature", fileText(t, `"bias":`, `"harlog": 1, "bias":`), `"harlog" appears twice`},
		{"weight not a number", fileText(t, `"bias": -0.75`, `"bias": "x"`), `feature "bias": want a number`},
		{"weights not an object", fileText(t, `"weights": {`, `"weights": [1], "x": {`), `want an object`},
		{"trailing data", append(fileText(t), "{}"...), "data after"},
		{"no version", fileText(t, `"feature_version": "`+features.Version()+`"`, `"feature_version": ""`), "no feature_version"},
		{"no scale", fileText(t, `"scale": 0.13`, `"scale": 0`), "no scale"},
		{"empty weights", []byte(`{"feature_version": "f1-x", "scale": 1, "weights": {}}`), "no weights"},
		{"not JSON", []byte(`feature_version = 1`), "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.data, "gen-4.json")
			if err == nil {
				t.Fatalf("no error for\n%s", tt.data)
			}
			if !strings.HasPrefix(err.Error(), "gen-4.json: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want gen-4.json: ... %q", err, tt.want)
			}
		})
	}
}

func TestParseMinimal(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"feature_version": "` + features.Version() + `", "scale": 0.5, "weights": {`)
	for i, n := range features.Names() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"` + n + `": 1`)
	}
	b.WriteString("}}")
	w, err := Parse([]byte(b.String()), "min.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Check(); err != nil {
		t.Fatal(err)
	}
	if w.Lineage.Parent != -1 || w.Generation != 0 {
		t.Errorf("defaults: parent %d, generation %d; want -1, 0", w.Lineage.Parent, w.Generation)
	}
}

func TestCheck(t *testing.T) {
	v := features.Version()
	tests := []struct {
		name   string
		change func(w *Weights)
		want   string // the whole error; "" for none
	}{
		{"ok", func(w *Weights) {}, ""},
		{"reordered", func(w *Weights) {
			slices.Reverse(w.Features)
			slices.Reverse(w.Values)
		}, ""},
		{"older feature set", func(w *Weights) {
			w.FeatureVersion = "f1-000000000000"
			i := slices.Index(w.Features, "rabbit_rank5")
			w.Features = slices.Delete(w.Features, i, i+1)
			w.Values = slices.Delete(w.Values, i, i+1)
		}, `gen-4.json: feature set f1-000000000000, features package has ` + v + `: missing "rabbit_rank5"`},
		{"newer feature set", func(w *Weights) {
			w.FeatureVersion = "f1-111111111111"
			w.Features = append(w.Features, "elephant_blockade")
			w.Values = append(w.Values, 0.5)
		}, `gen-4.json: feature set f1-111111111111, features package has ` + v + `: unknown feature "elephant_blockade"`},
		{"version edited", func(w *Weights) { w.FeatureVersion = "f1-222222222222" },
			`gen-4.json: feature set f1-222222222222, features package has ` + v + `: same names`},
		{"names edited", func(w *Weights) { w.Features[1] = "material_elefant" },
			`gen-4.json: feature set ` + v + `: missing "material_elephant"`},
		{"duplicate", func(w *Weights) { w.Features[1] = "bias" },
			`gen-4.json: feature set ` + v + `: "bias" appears twice`},
		{"infinite weight", func(w *Weights) { w.Values[0] = math.Inf(1) }, `gen-4.json: weight "bias" is +Inf`},
		{"negative scale", func(w *Weights) { w.Scale = -1 }, `gen-4.json: scale -1 is not a positive number`},
		{"lengths differ", func(w *Weights) { w.Values = w.Values[1:] },
			fmt.Sprintf("gen-4.json: %d feature names but %d values", features.N, features.N-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := testWeights(t)
			w.Source = "gen-4.json"
			tt.change(w)
			err := w.Check()
			got := ""
			if err != nil {
				got = err.Error()
			}
			want := tt.want
			if got != want {
				t.Errorf("Check() = %q\nwant       %q", got, want)
			}
			if _, err := NewLinear(w); (err == nil) != (want == "") {
				t.Errorf("NewLinear error %v, Check error %q", err, want)
			}
		})
	}
}

func TestCloneIsDeep(t *testing.T) {
	w := testWeights(t)
	c := w.Clone()
	c.Values[0] = 99
	c.Features[0] = "x"
	c.Lineage.Dataset[0] = "y"
	c.Lineage.Metrics["val_logloss"] = 5
	if w.Values[0] == 99 || w.Features[0] == "x" || w.Lineage.Dataset[0] == "y" || w.Lineage.Metrics["val_logloss"] == 5 {
		t.Error("Clone shares memory with the original")
	}
}

// randomPositions plays random legal steps from random setups and returns n
// positions of the games.
func randomPositions(n int, seed uint64) []engine.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []engine.Position
	var buf []engine.Step
	for len(out) < n {
		var p engine.Position
		for c := range engine.Color(2) {
			var set []engine.Piece
			for t := range engine.PieceType(engine.NumTypes) {
				for range engine.StandardCount[t] {
					set = append(set, engine.MakePiece(c, t))
				}
			}
			rng.Shuffle(len(set), func(i, j int) { set[i], set[j] = set[j], set[i] })
			for i, pc := range set {
				r := i / 8
				if c == engine.Silver {
					r = 7 - r
				}
				p.Put(pc, engine.MakeSquare(i%8, r))
			}
		}
		for ply := 0; ply < 120 && len(out) < n; ply++ {
			tr := engine.NewTurn(p)
			for tr.Used < engine.MaxSteps {
				buf = tr.LegalSteps(buf[:0])
				if len(buf) == 0 {
					break
				}
				tr.Play(buf[rng.IntN(len(buf))])
				if tr.CanEnd() == nil && rng.IntN(3) == 0 {
					break
				}
			}
			if tr.CanEnd() != nil {
				break
			}
			p = tr.End()
			if engine.EndOfTurn(&p, nil, nil).Over() {
				break
			}
			out = append(out, p)
		}
	}
	return out
}

// mirror returns p with colours swapped, ranks mirrored and the other side to move.
func mirror(p *engine.Position) engine.Position {
	var m engine.Position
	for pc := range engine.Piece(12) {
		for b := p.Bits[pc]; b != 0; b &= b - 1 {
			sq := b.First()
			m.Put(engine.MakePiece(pc.Color().Other(), pc.Type()), engine.MakeSquare(sq.File(), 7-sq.Rank()))
		}
	}
	m.SetSide(p.Side.Other())
	return m
}

// withoutPorted returns w with the terms ported from Sharp's evaluation
// weighted 0.
func withoutPorted(w *Weights) *Weights {
	c := w.Clone()
	for i, name := range c.Features {
		if features.Ported(features.Index(name)) {
			c.Values[i] = 0
		}
	}
	return c
}

// TestLinearEvaluate checks the evaluation against its definition, with the
// ported terms weighted and without them (when Score leaves them out).
func TestLinearEvaluate(t *testing.T) {
	for _, c := range []struct {
		name string
		w    *Weights
	}{{"ported terms weighted", testWeights(t)}, {"no ported term weighted", withoutPorted(testWeights(t))}} {
		t.Run(c.name, func(t *testing.T) {
			w := c.w
			l, err := NewLinear(w)
			if err != nil {
				t.Fatal(err)
			}
			if l.Generation() != 4 || l.Scale() != float32(0.13) || l.Hash() != w.Hash() {
				t.Errorf("Generation %d Scale %v Hash %s", l.Generation(), l.Scale(), l.Hash())
			}
			var f [features.N]float32
			for _, p := range randomPositions(2000, 1) {
				v := l.Evaluate(&p)
				if !(v >= -1 && v <= 1) {
					t.Fatalf("%s: value %v outside [-1, 1]", p.String(), v)
				}
				// Against the definition, in float64.
				features.Extract(&p, f[:])
				dot := 0.0
				for i, x := range f {
					wv, _ := w.Value(features.Names()[i])
					dot += wv * float64(x)
				}
				want := 2/(1+math.Exp(-w.Scale*dot)) - 1
				if math.Abs(float64(v)-want) > 1e-4 {
					t.Fatalf("%s: Evaluate = %v, want 2*sigmoid(%v*%v)-1 = %v", p.String(), v, w.Scale, dot, want)
				}
				if s := l.Score(&p); math.Abs(float64(s)-dot) > 1e-3*max(1, math.Abs(dot)) {
					t.Fatalf("%s: Score = %v, want %v", p.String(), s, dot)
				}
				m := mirror(&p)
				if vm := l.Evaluate(&m); vm != v {
					t.Fatalf("%s: value %v, mirrored %s: %v", p.String(), v, m.String(), vm)
				}
			}
		})
	}
}

// TestLinearFileOrder checks that the order of the weights in a file does not
// matter.
func TestLinearFileOrder(t *testing.T) {
	w := testWeights(t)
	r := w.Clone()
	slices.Reverse(r.Features)
	slices.Reverse(r.Values)
	a, err := NewLinear(w)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewLinear(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range randomPositions(200, 2) {
		if a.Evaluate(&p) != b.Evaluate(&p) {
			t.Fatalf("%s: order changes the value", p.String())
		}
	}
	if w.Hash() != r.Hash() {
		t.Error("order changes the hash")
	}
}

// TestLinearConcurrent evaluates from several goroutines at once (run with -race).
func TestLinearConcurrent(t *testing.T) {
	l, err := NewLinear(testWeights(t))
	if err != nil {
		t.Fatal(err)
	}
	ps := randomPositions(500, 3)
	want := make([]float32, len(ps))
	for i := range ps {
		want[i] = l.Evaluate(&ps[i])
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 4 * len(ps) {
				i := (k*7 + g*13) % len(ps)
				if v := l.Evaluate(&ps[i]); v != want[i] {
					errs <- ps[i].String()
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("%s: concurrent value differs", e)
	}
}

func TestLinearNoAllocation(t *testing.T) {
	l, err := NewLinear(testWeights(t))
	if err != nil {
		t.Fatal(err)
	}
	ps := randomPositions(20, 4)
	i := 0
	if a := testing.AllocsPerRun(1000, func() {
		l.Evaluate(&ps[i%len(ps)])
		i++
	}); a != 0 {
		t.Errorf("Evaluate allocates %v times per call", a)
	}
}

func TestNewLinearNil(t *testing.T) {
	if _, err := NewLinear(nil); err == nil {
		t.Error("NewLinear(nil) succeeded")
	}
}

// BenchmarkEvaluate measures Evaluate with the ported terms weighted and
// without them.
func BenchmarkEvaluate(b *testing.B) {
	ps := randomPositions(1024, 5)
	for _, c := range []struct {
		name string
		w    *Weights
	}{{"ported", testWeights(b)}, {"base", withoutPorted(testWeights(b))}} {
		b.Run(c.name, func(b *testing.B) {
			l, err := NewLinear(c.w)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			var sink float32
			for b.Loop() {
				sink += l.Evaluate(&ps[i&1023])
				i++
			}
			_ = sink
		})
	}
}
