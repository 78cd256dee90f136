package data

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
	// Search is the search settings as JSON (empty, or valid JSON). It and
	// the other strings are printable text: no control characters.
	Search string
	// EngineVersion is the version of the engine that played.
	EngineVersion string
	// RunSeed is the run's seed and Shard the shard's number in the run.
	RunSeed uint64
	Shard   int
	// Extra holds further metadata keys and values, printable text; the keys
	// must not be the package's own (the Key constants). Reading fills it with
	// every key that is not.
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
	for _, v := range []struct{ what, val string }{
		{"feature names", strings.Join(m.FeatureNames, ",")}, {"feature version", m.FeatureVersion},
		{"weights hash", m.WeightsHash}, {"search settings", m.Search}, {"engine version", m.EngineVersion},
	} {
		if !printable(v.val) {
			return arrow.Metadata{}, fmt.Errorf("%s %.40q: not printable text (control characters or bad UTF-8)", v.what, v.val)
		}
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
		if !printable(k) || !printable(m.Extra[k]) {
			return arrow.Metadata{}, fmt.Errorf("extra metadata %.40q = %.40q: not printable text (control characters or bad UTF-8)", k, m.Extra[k])
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

// printable reports whether s is valid UTF-8 without control characters.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	return !strings.ContainsFunc(s, unicode.IsControl)
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
	// The strings are read from the file: printable, so that a message that
	// quotes one stays one line, and the search settings JSON.
	for _, v := range []struct{ key, val string }{
		{KeyFeatureNames, names}, {KeyFeatureVersion, m.FeatureVersion}, {KeyWeightsHash, m.WeightsHash},
		{KeySearch, m.Search}, {KeyEngineVersion, m.EngineVersion},
	} {
		if !printable(v.val) {
			return m, fmt.Errorf("metadata %s = %.60q: not printable text", v.key, v.val)
		}
	}
	if slices.Contains(m.FeatureNames, "") {
		return m, fmt.Errorf("metadata %s = %.60q: an empty feature name", KeyFeatureNames, names)
	}
	if m.Search != "" && !json.Valid([]byte(m.Search)) {
		return m, fmt.Errorf("metadata %s = %.60q: not valid JSON", KeySearch, m.Search)
	}
	for i, k := range md.Keys() {
		if !printable(k) || !printable(md.Values()[i]) {
			return m, fmt.Errorf("metadata %.40q = %.60q: not printable text", k, md.Values()[i])
		}
		if !reservedKey(k) {
			if m.Extra == nil {
				m.Extra = make(map[string]string)
			}
			m.Extra[k] = md.Values()[i]
		}
	}
	return m, nil
}
