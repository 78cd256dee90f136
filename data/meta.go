package data

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
)

// Meta is what a shard records about how it was made, stored in the schema
// metadata of its file.
type Meta struct {
	// FeatureNames names the elements of the features column, in order. Each
	// name is non-empty and has no comma.
	FeatureNames []string
	// FeatureVersion is the feature-set version (features.Version()). All the
	// files a Reader opens have the same.
	FeatureVersion string
	// WeightsGeneration and WeightsHash identify the weights the games were
	// played with.
	WeightsGeneration int
	WeightsHash       string
	// Search is the search settings as JSON (empty, or valid JSON).
	Search string
	// EngineVersion is the version of the engine that played.
	EngineVersion string
	// RunSeed is the run's seed and Shard the shard's number in the run.
	RunSeed uint64
	Shard   int
	// Extra holds further metadata keys; they must not be the package's own
	// (the Key constants). Reading fills it with every key that is not.
	Extra map[string]string
}

// metadata returns m as schema metadata, the package's keys first, then the
// extra keys sorted.
func (m *Meta) metadata() (arrow.Metadata, error) {
	if len(m.FeatureNames) == 0 {
		return arrow.Metadata{}, errors.New("no feature names")
	}
	for _, n := range m.FeatureNames {
		if n == "" || strings.ContainsRune(n, ',') {
			return arrow.Metadata{}, fmt.Errorf("bad feature name %q: empty or with a comma", n)
		}
	}
	if m.FeatureVersion == "" {
		return arrow.Metadata{}, errors.New("no feature version")
	}
	if m.Search != "" && !json.Valid([]byte(m.Search)) {
		return arrow.Metadata{}, fmt.Errorf("search settings are not valid JSON: %.40q", m.Search)
	}
	keys := []string{KeyFeatureNames, KeyFeatureVersion, KeyWeightsGeneration, KeyWeightsHash,
		KeySearch, KeyEngineVersion, KeyRunSeed, KeyShard, KeyFormat}
	vals := []string{strings.Join(m.FeatureNames, ","), m.FeatureVersion, strconv.Itoa(m.WeightsGeneration), m.WeightsHash,
		m.Search, m.EngineVersion, strconv.FormatUint(m.RunSeed, 10), strconv.Itoa(m.Shard), Format}
	extra := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		if reservedKey(k) {
			return arrow.Metadata{}, fmt.Errorf("extra metadata key %q is reserved", k)
		}
		extra = append(extra, k)
	}
	slices.Sort(extra)
	for _, k := range extra {
		keys = append(keys, k)
		vals = append(vals, m.Extra[k])
	}
	return arrow.NewMetadata(keys, vals), nil
}

// metaFrom reads a Meta from schema metadata.
func metaFrom(md arrow.Metadata) (Meta, error) {
	get := func(k string) (string, error) {
		i := md.FindKey(k)
		if i < 0 {
			return "", fmt.Errorf("no %s in the schema metadata", k)
		}
		return md.Values()[i], nil
	}
	var m Meta
	f, err := get(KeyFormat)
	if err != nil {
		return m, fmt.Errorf("not an arimaalab dataset: %w", err)
	}
	if f != Format {
		return m, fmt.Errorf("dataset format %q, want %q", f, Format)
	}
	names, err := get(KeyFeatureNames)
	if err != nil {
		return m, err
	}
	if names != "" {
		m.FeatureNames = strings.Split(names, ",")
	}
	if m.FeatureVersion, err = get(KeyFeatureVersion); err != nil {
		return m, err
	}
	if m.WeightsHash, err = get(KeyWeightsHash); err != nil {
		return m, err
	}
	if m.Search, err = get(KeySearch); err != nil {
		return m, err
	}
	if m.EngineVersion, err = get(KeyEngineVersion); err != nil {
		return m, err
	}
	for _, n := range []struct {
		key  string
		set  func(string) error
		kind string
	}{
		{KeyWeightsGeneration, func(s string) (err error) { m.WeightsGeneration, err = strconv.Atoi(s); return }, "integer"},
		{KeyShard, func(s string) (err error) { m.Shard, err = strconv.Atoi(s); return }, "integer"},
		{KeyRunSeed, func(s string) (err error) { m.RunSeed, err = strconv.ParseUint(s, 10, 64); return }, "unsigned integer"},
	} {
		s, err := get(n.key)
		if err != nil {
			return m, err
		}
		if n.set(s) != nil {
			return m, fmt.Errorf("metadata %s = %q is not an %s", n.key, s, n.kind)
		}
	}
	for i, k := range md.Keys() {
		if !reservedKey(k) {
			if m.Extra == nil {
				m.Extra = make(map[string]string)
			}
			m.Extra[k] = md.Values()[i]
		}
	}
	return m, nil
}
