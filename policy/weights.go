package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// Version identifies the feature set; a weights file of another version is
// refused.
var Version = func() string {
	sum := sha256.Sum256([]byte(strings.Join(names, "\n")))
	return "p1-" + hex.EncodeToString(sum[:6])
}()

// Weights are the coefficients of the step model: an action's logit is the
// dot product of its features and W, and a node's priors are the softmax of
// its actions' logits.
type Weights struct {
	// W holds one weight a feature, in index order.
	W [N]float32
	// Notes says where the weights come from (the data and the fit).
	Notes string
}

// file is the JSON form of Weights.
type file struct {
	FeatureVersion string             `json:"feature_version"`
	Notes          string             `json:"notes,omitempty"`
	Weights        map[string]float64 `json:"weights"`
}

// Parse reads weights in their JSON form; name names the source in errors.
// Every feature must have a weight and every weight a feature.
func Parse(b []byte, name string) (*Weights, error) {
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if f.FeatureVersion != Version {
		return nil, fmt.Errorf("%s: feature_version %q: want %q (the step features changed; fit the weights again)", name, f.FeatureVersion, Version)
	}
	w := &Weights{Notes: f.Notes}
	for i, n := range names {
		v, ok := f.Weights[n]
		if !ok {
			return nil, fmt.Errorf("%s: weights: no weight for feature %q", name, n)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s: weights: %q is %v", name, n, v)
		}
		w.W[i] = float32(v)
	}
	if len(f.Weights) != N {
		for n := range f.Weights {
			if !slices.Contains(names, n) {
				return nil, fmt.Errorf("%s: weights: unknown feature %q", name, n)
			}
		}
	}
	return w, nil
}

// Load reads a weights file.
func Load(path string) (*Weights, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	return Parse(b, path)
}

// Marshal returns the JSON form of w.
func (w *Weights) Marshal() ([]byte, error) {
	f := file{FeatureVersion: Version, Notes: w.Notes, Weights: make(map[string]float64, N)}
	for i, n := range names {
		f.Weights[n] = math.Round(float64(w.W[i])*1e6) / 1e6
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Save writes w to path through a temporary file renamed when complete,
// making its directory when there is none.
func (w *Weights) Save(path string) error {
	b, err := w.Marshal()
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("policy: %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("policy: %w", err)
	}
	return nil
}

// Logit returns the logit of the step s in the turn t (ending the turn when
// s.Piece is engine.NoPiece); buf, of length N or more, is scratch space.
func (w *Weights) Logit(t *engine.Turn, s engine.Step, buf []float32) float32 {
	Extract(t, s, buf)
	var z float32
	for i, x := range buf[:N] {
		z += x * w.W[i]
	}
	return z
}

// Priors sets out[i] to the prior of steps[i] in the turn t, and, when canEnd,
// out[len(steps)] to that of ending the turn: the softmax of their logits.
// out must have room for them; buf, of length N or more, is scratch space.
func (w *Weights) Priors(t *engine.Turn, steps []engine.Step, canEnd bool, out, buf []float32) {
	n := len(steps)
	if canEnd {
		n++
	}
	out = out[:n]
	top := float32(math.Inf(-1))
	for i := range out {
		s := engine.Step{Piece: engine.NoPiece}
		if i < len(steps) {
			s = steps[i]
		}
		out[i] = w.Logit(t, s, buf)
		top = max(top, out[i])
	}
	var sum float32
	for i, z := range out {
		out[i] = float32(math.Exp(float64(z - top)))
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
}
