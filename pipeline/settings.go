package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/arimaalab/arimaalab/configs"
)

// SettingsFile is the name of the copy of a run's resolved settings in its
// directory, written when the run starts and rewritten when it grows.
const SettingsFile = "config.yaml"

// LoadPreset returns the embedded preset overridden by the keys of the YAML
// file at path: the preset first, then the file's keys over it.
func LoadPreset(preset, path string) (Config, error) {
	b, file, err := configs.Pipeline(preset)
	if err != nil {
		return Config{}, err
	}
	c, err := base()
	if err != nil {
		return c, err
	}
	if err := decodeStrict(b, file, &c); err != nil {
		return c, err
	}
	if path == "" {
		return c, c.validate(file)
	}
	b, err = os.ReadFile(path)
	if err != nil {
		return c, err
	}
	if err := decodeStrict(b, path, &c); err != nil {
		return c, err
	}
	return c, c.validate(path)
}

// ReadSettings returns the settings a run directory was last run with (its
// config.yaml), and false when it has none.
func ReadSettings(dir string) (Config, bool, error) {
	path := filepath.Join(dir, SettingsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, false, nil
	}
	if err != nil {
		return Config{}, false, err
	}
	c, err := base()
	if err != nil {
		return c, false, err
	}
	if err := decodeStrict(b, path, &c); err != nil {
		return c, false, err
	}
	return c, true, nil
}

// writeSettings writes c as the run's config.yaml.
func writeSettings(c Config) error {
	b, err := yaml.Marshal(c)
	if err != nil {
		return err
	}
	head := "# The settings of this run, as resolved when it was last started (preset,\n" +
		"# config file and flags). A rerun with settings that would change its\n" +
		"# results is refused; see README.md, \"Growing and branching a run\".\n"
	return writeFile(filepath.Join(c.Out, SettingsFile), append([]byte(head), b...))
}

// Change is a setting that differs between a run's saved settings and new
// ones, by its YAML key (such as "seed" or "selfplay.search.visits").
type Change struct {
	Key      string
	Was, Now string
	// Touches names what the change would alter among the run's results
	// ("" when it alters none of them, such as a raised generations).
	Touches string
}

func (ch Change) String() string {
	s := fmt.Sprintf("%s %s -> %s", ch.Key, ch.Was, ch.Now)
	if ch.Touches != "" {
		s += " (" + ch.Touches + ")"
	}
	return s
}

// SettingsError refuses new settings that would change results a run has
// already written.
type SettingsError struct {
	Dir       string
	Conflicts []Change
}

// Keys returns the keys of the conflicting settings.
func (e *SettingsError) Keys() []string {
	var keys []string
	for _, c := range e.Conflicts {
		keys = append(keys, c.Key)
	}
	return keys
}

func (e *SettingsError) Error() string {
	var parts []string
	for _, c := range e.Conflicts {
		parts = append(parts, c.String())
	}
	return fmt.Sprintf("%s was run with other settings, and these would change its results: %s. "+
		"Rerun with its settings (%s), choose another -out for a new run, or give -branch DIR to continue its finished stages in DIR with the new settings",
		e.Dir, strings.Join(parts, "; "), filepath.Join(e.Dir, SettingsFile))
}

// stageGroup is what a setting feeds: every stage ("all"), one stage's
// settings, or nothing that a run has written.
type stageGroup int

const (
	groupNone stageGroup = iota
	groupAll
	groupSelfPlay
	groupTrain
	groupGate
	groupPool
	groupGenerations // raising grows the run; it does not shrink (see Settled)
	groupGrow        // raising it adds games or players, keeping the earlier ones
)

// groupOf returns what the setting key feeds. Settings of where and how the
// work runs (the run directory, workers, the scheduler) change no result;
// unknown keys are taken to change every stage.
func groupOf(key string) stageGroup {
	top, _, _ := strings.Cut(key, ".")
	switch {
	case key == "out", key == "selfplay.workers", top == "scheduler", top == "slurm":
		return groupNone
	case key == "generations":
		return groupGenerations
	case key == "pool.games_per_pair", key == "pool.anchors":
		return groupGrow
	}
	switch top {
	case "selfplay":
		return groupSelfPlay
	case "train":
		return groupTrain
	case "gate":
		return groupGate
	case "pool":
		return groupPool
	}
	return groupAll
}

// diffSettings lists the settings that differ between a and b, by key, in
// key order. Keys that only one of them has (settings added or removed since
// a was written) are left out.
func diffSettings(a, b Config) ([]Change, error) {
	fa, err := flatten(a)
	if err != nil {
		return nil, err
	}
	fb, err := flatten(b)
	if err != nil {
		return nil, err
	}
	var out []Change
	for _, k := range slices.Sorted(maps.Keys(fa)) {
		if vb, ok := fb[k]; ok && fa[k] != vb {
			out = append(out, Change{Key: k, Was: fa[k], Now: vb})
		}
	}
	return out, nil
}

// flatten returns the settings of c by dotted YAML key, each value as YAML
// flow text (lists whole).
func flatten(c Config) (map[string]string, error) {
	b, err := yaml.Marshal(c)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	out := map[string]string{}
	var walk func(prefix string, m map[string]any) error
	walk = func(prefix string, m map[string]any) error {
		for k, v := range m {
			if sub, ok := v.(map[string]any); ok {
				if err := walk(prefix+k+".", sub); err != nil {
					return err
				}
				continue
			}
			var n yaml.Node
			if err := n.Encode(v); err != nil {
				return err
			}
			n.Style = yaml.FlowStyle
			for _, c := range n.Content {
				c.Style = yaml.FlowStyle
			}
			t, err := yaml.Marshal(&n)
			if err != nil {
				return err
			}
			out[prefix+k] = strings.TrimSpace(string(t))
		}
		return nil
	}
	return out, walk("", m)
}

// conflicts returns the changes from saved to c that would alter results the
// run in dir has written, each with what it touches, and the other changes.
func conflicts(dir string, saved, c Config) (bad, ok []Change, err error) {
	changes, err := diffSettings(saved, c)
	if err != nil {
		return nil, nil, err
	}
	have := writtenStages(dir, saved)
	for _, ch := range changes {
		switch groupOf(ch.Key) {
		case groupNone:
		case groupAll:
			if have.any() {
				ch.Touches = "every stage: " + have.String()
			}
		case groupSelfPlay:
			ch.Touches = have.selfPlay
		case groupTrain:
			ch.Touches = have.train
		case groupGate:
			ch.Touches = have.gate
		case groupPool:
			ch.Touches = have.pool
		case groupGenerations:
		case groupGrow:
			if have.pool != "" && !grows(ch.Key, saved, c) {
				ch.Touches = have.pool + " (it may only grow: more games per pair, more anchors)"
			}
		}
		if ch.Touches != "" {
			bad = append(bad, ch)
		} else {
			ok = append(ok, ch)
		}
	}
	return bad, ok, nil
}

// grows reports whether the change of key from saved to c only adds to the
// pool: more games per pairing, or anchors added after the earlier ones.
func grows(key string, saved, c Config) bool {
	switch key {
	case "pool.games_per_pair":
		return c.Pool.GamesPerPair >= saved.Pool.GamesPerPair
	case "pool.anchors":
		return len(c.Pool.Anchors) >= len(saved.Pool.Anchors) && slices.Equal(c.Pool.Anchors[:len(saved.Pool.Anchors)], saved.Pool.Anchors)
	}
	return false
}

// written says which stages of a run have written results, in words ("" for
// none), and the last generation begun.
type written struct {
	selfPlay, train, gate, pool string
	last                        int
}

func (w written) any() bool {
	return w.selfPlay != "" || w.train != "" || w.gate != "" || w.pool != ""
}

func (w written) String() string {
	var parts []string
	for _, s := range []string{w.selfPlay, w.train, w.gate, w.pool} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// writtenStages looks for the results of each stage in the run directory dir
// (saved: its settings): self-play shards, candidates, gate games or
// decisions, pool games.
func writtenStages(dir string, saved Config) written {
	var w written
	var sp, tr, gt []int
	for g := 0; g <= max(saved.Generations, lastGenDir(dir)); g++ {
		d := genDir(dir, g)
		if !exists(d) {
			continue
		}
		w.last = g
		if m, _ := filepath.Glob(filepath.Join(d, "selfplay", "shard-*.arrow")); len(m) > 0 {
			sp = append(sp, g)
		}
		if exists(filepath.Join(d, "candidate.json")) {
			tr = append(tr, g)
		}
		if exists(filepath.Join(d, "decision.json")) || exists(filepath.Join(d, "gate", "results.jsonl")) {
			gt = append(gt, g)
		}
	}
	w.selfPlay = gens("self-play of generation", "self-play of generations", sp)
	w.train = gens("candidate of generation", "candidates of generations", tr)
	w.gate = gens("gate of generation", "gates of generations", gt)
	if st, err := os.Stat(filepath.Join(dir, "pool", "results.jsonl")); err == nil && st.Size() > 0 {
		w.pool = "the rating pool's games"
	}
	return w
}

// lastGenDir returns the highest generation with a directory in dir (-1: none).
func lastGenDir(dir string) int {
	last := -1
	m, _ := filepath.Glob(filepath.Join(dir, "gen=*"))
	for _, p := range m {
		var g int
		if _, err := fmt.Sscanf(filepath.Base(p), "gen=%d", &g); err == nil {
			last = max(last, g)
		}
	}
	return last
}

// gens names a list of generations: "self-play of generations 0-3", with
// the words for one and for more.
func gens(one, more string, gs []int) string {
	switch len(gs) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("%s %d", one, gs[0])
	}
	if gs[len(gs)-1]-gs[0] == len(gs)-1 {
		return fmt.Sprintf("%s %d-%d", more, gs[0], gs[len(gs)-1])
	}
	var s []string
	for _, g := range gs {
		s = append(s, fmt.Sprint(g))
	}
	return fmt.Sprintf("%s %s", more, strings.Join(s, ", "))
}

// Settled returns c as a run in c.Out takes it: a run does not shrink, so
// when c has fewer generations than the run was last run with and the run
// has begun a generation beyond them, c keeps the run's generations (the
// same command grows a run, and reruns it grown).
func Settled(c Config) Config {
	saved, ok, err := ReadSettings(c.Out)
	if err == nil && ok && c.Generations < saved.Generations && lastGenDir(c.Out) > c.Generations {
		c.Generations = saved.Generations
	}
	return c
}

// settle compares c with the settings the run directory was run with: it
// refuses changes that would alter written results (a *SettingsError), logs
// the others, and writes c as the run's config.yaml. It returns c as
// Settled.
func settle(c Config, log *slog.Logger) (Config, error) {
	saved, ok, err := ReadSettings(c.Out)
	if err != nil {
		return c, fmt.Errorf("the run's settings: %w", err)
	}
	if s := Settled(c); s.Generations != c.Generations {
		log.Info("the run keeps its generations: a run does not shrink", "generations", s.Generations, "asked", c.Generations)
		c = s
	}
	if ok {
		bad, fine, err := conflicts(c.Out, saved, c)
		if err != nil {
			return c, err
		}
		if len(bad) > 0 {
			return c, &SettingsError{Dir: c.Out, Conflicts: bad}
		}
		for _, ch := range fine {
			if ch.Key != "out" {
				log.Info("setting changed", "key", ch.Key, "was", ch.Was, "now", ch.Now)
			}
		}
	} else if lastGenDir(c.Out) >= 0 {
		log.Info("the run directory has no " + SettingsFile + " (made before runs kept their settings): its settings are not checked")
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return c, err
	}
	return c, writeSettings(c)
}
