// Package configs holds the embedded defaults of the project, such as the
// hand-set generation-0 evaluation weights.
package configs

import (
	"embed"
	"fmt"

	"github.com/arimaalab/arimaalab/policy"
	"github.com/arimaalab/arimaalab/weights"
)

// selfPlayYAML is the default self-play configuration.
//
//go:embed selfplay.yaml
var selfPlayYAML []byte

// SelfPlayName names the embedded self-play configuration in errors.
const SelfPlayName = "configs/selfplay.yaml"

// SelfPlay returns the embedded default self-play configuration (YAML; the
// selfplay package decodes it). Each call returns a new copy.
func SelfPlay() []byte { return append([]byte(nil), selfPlayYAML...) }

// pipelineFS holds the pipeline presets.
//
//go:embed pipeline-*.yaml
var pipelineFS embed.FS

// Pipeline returns the embedded pipeline preset name (quick, standard or
// large) as YAML, and its file name for errors.
func Pipeline(name string) ([]byte, string, error) {
	file := "pipeline-" + name + ".yaml"
	b, err := pipelineFS.ReadFile(file)
	if err != nil {
		return nil, "", fmt.Errorf("configs: no pipeline preset %q (quick, standard or large)", name)
	}
	return b, "configs/" + file, nil
}

// gen0JSON is the hand-set generation-0 weights file.
//
//go:embed gen0.json
var gen0JSON string

// Gen0Name is the name of the embedded generation-0 weights, used as their
// Source and in errors.
const Gen0Name = "configs/gen0.json"

// Gen0 returns the hand-set generation-0 weights: material first (HarLog),
// then goal threats, advanced rabbits, trap control, freezing, capture threats
// and mobility. Each call returns a new copy, checked against the current
// feature set. docs/weights.md explains the choices.
func Gen0() (*weights.Weights, error) {
	w, err := weights.Parse([]byte(gen0JSON), Gen0Name)
	if err != nil {
		return nil, fmt.Errorf("configs: %w", err)
	}
	if err := w.Check(); err != nil {
		return nil, fmt.Errorf("configs: %w", err)
	}
	return w, nil
}

// policyJSON is the default step model of learned priors.
//
//go:embed policy.json
var policyJSON []byte

// PolicyName is the name of the embedded step model, used in errors.
const PolicyName = "configs/policy.json"

// Policy returns the embedded step model of the learned priors (package
// policy): fitted on the moves of Sharp and of the archives' players, see
// docs/strength.md. Each call returns a new copy.
func Policy() (*policy.Weights, error) {
	w, err := policy.Parse(policyJSON, PolicyName)
	if err != nil {
		return nil, fmt.Errorf("configs: %w", err)
	}
	return w, nil
}
