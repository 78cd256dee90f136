package engine

// Version names the rules engine's behaviour for dataset metadata: it changes
// when the engine would play or count differently.
const Version = "arimaalab-engine/1"
