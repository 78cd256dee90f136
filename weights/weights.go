// Package weights holds the weights of the linear evaluation: the weights file
// format, its checks against the current feature set, and the evaluation itself
// (Linear).
//
// A weights file is JSON, written for people to read and edit:
//
//	{
//	  "feature_version": "f1-0123456789ab",
//	  "generation": 3,
//	  "scale": 0.13,
//	  "weights": {
//	    "bias": 0.2,
//	    "material_elephant": 0,
//	    ...
//	  },
//	  "lineage": {
//	    "parent": 2,
//	    "dataset": ["run/gen=0002/selfplay"],
//	    "rows": 1000000,
//	    "target": "result",
//	    "metrics": {"val_logloss": 0.61},
//	    "created": "2026-03-01T12:00:00Z",
//	    "notes": "..."
//	  }
//	}
//
// The weights object maps feature names to values, written in feature order.
// Unknown keys anywhere are errors. See docs/weights.md.
package weights

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/arimaalab/arimaalab/features"
)

// Weights is one generation of evaluation weights with where it came from.
type Weights struct {
	// FeatureVersion is the feature set the weights were made for (see
	// features.Version).
	FeatureVersion string
	// Features and Values are the feature names and their weights, in the same
	// order: the order of the file, which Save keeps.
	Features []string
	Values   []float64
	// Scale multiplies the weighted sum before the squashing (see Linear).
	Scale float64
	// Generation is the generation number: 0 for the hand-set weights.
	Generation int
	// Lineage records how the weights were made.
	Lineage Lineage
	// Source names where the weights were read from (a file name), for
	// messages; it is not stored in the file.
	Source string
}

// Lineage records how a generation of weights was made.
type Lineage struct {
	// Parent is the generation trained from (whose games made the data), or -1
	// for none.
	Parent int `json:"parent"`
	// Dataset lists the shard files or directories trained on.
	Dataset []string `json:"dataset,omitempty"`
	// Rows is the number of rows trained on.
	Rows int64 `json:"rows"`
	// Target is the value target: "result", "value" or a blend such as "blend:0.5".
	Target string `json:"target,omitempty"`
	// Metrics holds training and validation measures, such as "val_logloss".
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Created is when the weights were made.
	Created time.Time `json:"created,omitzero"`
	// Notes is free text.
	Notes string `json:"notes,omitempty"`
}

// fileFormat is the JSON layout of a weights file.
type fileFormat struct {
	FeatureVersion string       `json:"feature_version"`
	Generation     int          `json:"generation"`
	Scale          float64      `json:"scale"`
	Weights        orderedFloat `json:"weights"`
	Lineage        Lineage      `json:"lineage"`
}

// orderedFloat is a JSON object of numbers that keeps the order of its keys.
type orderedFloat struct {
	keys   []string
	values []float64
}

// MarshalJSON writes the object with its keys in order.
func (m orderedFloat) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		v := m.values[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("weight %q is %v", k, v)
		}
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object of numbers in order; a repeated key is an error.
func (m *orderedFloat) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("weights: want an object of feature names and numbers, got %v", tok)
	}
	m.keys, m.values = nil, nil
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		k := tok.(string) // object keys are strings
		if seen[k] {
			return fmt.Errorf("weights: feature %q appears twice", k)
		}
		seen[k] = true
		tok, err = dec.Token()
		if err != nil {
			return err
		}
		n, ok := tok.(json.Number)
		if !ok {
			return fmt.Errorf("weights: feature %q: want a number, got %v", k, tok)
		}
		v, err := n.Float64()
		if err != nil {
			return fmt.Errorf("weights: feature %q: %w", k, err)
		}
		m.keys = append(m.keys, k)
		m.values = append(m.values, v)
	}
	_, err = dec.Token() // the closing brace
	return err
}

// Load reads and parses the weights file at path. It does not call Check.
func Load(path string) (*Weights, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	return Parse(data, path)
}

// Parse reads weights in the file format from data; name (a file name) is used
// in errors and kept as Source. Unknown fields, a repeated feature and trailing
// data are errors; feature_version, scale and weights must be given. It does not
// call Check.
func Parse(data []byte, name string) (*Weights, error) {
	var f fileFormat
	f.Lineage.Parent = -1
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: data after the weights object", name)
	}
	w := &Weights{
		FeatureVersion: f.FeatureVersion,
		Features:       f.Weights.keys,
		Values:         f.Weights.values,
		Scale:          f.Scale,
		Generation:     f.Generation,
		Lineage:        f.Lineage,
		Source:         name,
	}
	switch {
	case w.FeatureVersion == "":
		return nil, fmt.Errorf("%s: no feature_version", name)
	case len(w.Features) == 0:
		return nil, fmt.Errorf("%s: no weights", name)
	case w.Scale == 0:
		return nil, fmt.Errorf("%s: no scale", name)
	}
	return w, nil
}

// Marshal returns the weights in the file format, indented, ending in a newline.
func (w *Weights) Marshal() ([]byte, error) {
	if err := w.checkShape(); err != nil {
		return nil, fmt.Errorf("%s: %w", w.name(), err)
	}
	f := fileFormat{
		FeatureVersion: w.FeatureVersion,
		Generation:     w.Generation,
		Scale:          w.Scale,
		Weights:        orderedFloat{w.Features, w.Values},
		Lineage:        w.Lineage,
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", w.name(), err)
	}
	return append(data, '\n'), nil
}

// Save writes the weights to path safely: to path+".tmp", synced, then renamed
// over path, so that a reader never sees a partial file.
func (w *Weights) Save(path string) (err error) {
	data, err := w.Marshal()
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	// Make the rename durable where the system allows syncing a directory.
	if d, derr := os.Open(filepath.Dir(path)); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// name returns the Source for messages, or "weights" when there is none.
func (w *Weights) name() string {
	if w.Source != "" {
		return w.Source
	}
	return "weights"
}

// checkShape checks what any weights must satisfy, feature set aside.
func (w *Weights) checkShape() error {
	if len(w.Features) != len(w.Values) {
		return fmt.Errorf("%d feature names but %d values", len(w.Features), len(w.Values))
	}
	for i, v := range w.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("weight %q is %v", w.Features[i], v)
		}
	}
	if math.IsNaN(w.Scale) || math.IsInf(w.Scale, 0) || w.Scale <= 0 {
		return fmt.Errorf("scale %v is not a positive number", w.Scale)
	}
	return nil
}

// Check reports whether the weights fit the current feature set: the same
// version and the same feature names (each once, in any order), every value and
// the scale finite, the scale positive. The error is one line naming the source
// and the first difference, such as
//
//	gen-3.json: feature set f1-abc..., features package has f1-def...: missing "rabbit_rank5"
func (w *Weights) Check() error {
	if err := w.checkShape(); err != nil {
		return fmt.Errorf("%s: %w", w.name(), err)
	}
	cur := features.Names()
	diff := nameDiff(w.Features, cur)
	if w.FeatureVersion != features.Version() {
		if diff == "" {
			diff = "same names"
		}
		return fmt.Errorf("%s: feature set %s, features package has %s: %s", w.name(), w.FeatureVersion, features.Version(), diff)
	}
	if diff != "" {
		return fmt.Errorf("%s: feature set %s: %s", w.name(), w.FeatureVersion, diff)
	}
	return nil
}

// nameDiff describes the first difference between the names of a file and the
// current names, or returns "" when they hold the same names once each.
func nameDiff(file, cur []string) string {
	in := make(map[string]int, len(file))
	for _, n := range file {
		in[n]++
		if in[n] == 2 {
			return fmt.Sprintf("%q appears twice", n)
		}
	}
	for _, n := range cur {
		if in[n] == 0 {
			return fmt.Sprintf("missing %q", n)
		}
	}
	for _, n := range file {
		if !slices.Contains(cur, n) {
			return fmt.Sprintf("unknown feature %q", n)
		}
	}
	return ""
}

// Value returns the weight of the named feature, and whether there is one.
func (w *Weights) Value(name string) (float64, bool) {
	i := slices.Index(w.Features, name)
	if i < 0 {
		return 0, false
	}
	return w.Values[i], true
}

// Hash returns a short hex digest that identifies what the evaluation computes:
// the feature version, the scale and each feature's weight (in the order of
// the current feature set when the weights pass Check, else in file order).
// Lineage and the source are left out.
func (w *Weights) Hash() string {
	h := sha256.New()
	io.WriteString(h, w.FeatureVersion)
	fmt.Fprintf(h, "\nscale %s\n", strconv.FormatFloat(w.Scale, 'g', -1, 64))
	order := w.Features
	if w.Check() == nil {
		order = features.Names()
	}
	for _, n := range order {
		v, _ := w.Value(n)
		fmt.Fprintf(h, "%s %s\n", n, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// Clone returns a deep copy of w.
func (w *Weights) Clone() *Weights {
	c := *w
	c.Features = slices.Clone(w.Features)
	c.Values = slices.Clone(w.Values)
	c.Lineage.Dataset = slices.Clone(w.Lineage.Dataset)
	if w.Lineage.Metrics != nil {
		c.Lineage.Metrics = make(map[string]float64, len(w.Lineage.Metrics))
		for k, v := range w.Lineage.Metrics {
			c.Lineage.Metrics[k] = v
		}
	}
	return &c
}

// New returns weights for the current feature set: values in feature order
// (len(values) must be features.N), the given scale and generation, and a
// lineage with no parent.
func New(values []float64, scale float64, generation int) (*Weights, error) {
	if len(values) != features.N {
		return nil, fmt.Errorf("weights: %d values for %d features", len(values), features.N)
	}
	w := &Weights{
		FeatureVersion: features.Version(),
		Features:       features.Names(),
		Values:         slices.Clone(values),
		Scale:          scale,
		Generation:     generation,
		Lineage:        Lineage{Parent: -1},
	}
	if err := w.Check(); err != nil {
		return nil, err
	}
	return w, nil
}
