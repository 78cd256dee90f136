// Package data is the arimaalab dataset format: one Arrow IPC file per self-play
// shard, one row per turn played, with the search's result for the turn, the
// game's outcome, the position's piece bitboards and its feature vector.
//
// A shard is written by a Writer (Create, Write, Close) under the shard's
// claim (PATH.claim, see TakeClaim), to PATH.tmp, and published when complete
// with its checksum file PATH.xxh128 (see SumSuffix), so a reader never sees a
// partial file and no two writers mix one shard. A Reader (Open) streams the
// record batches of any number of shards, memory-mapped, after checking every
// file's checksum, layout and schema and that they share one feature set; every
// batch it returns has passed ValidateRecord. Columns gives typed access to the
// columns of a record batch.
//
// Shards are laid out the Hive way, so that Polars, pyarrow and DuckDB scan a
// run directly:
//
//	RUN/gen=0003/selfplay/shard-00012.arrow
//
// The schema, in column order (Schema builds it):
//
//	game_id      uint64                                    unique across shards
//	turn         uint16                                    turn number (12 for 12g and 12s; 2 = the first move)
//	side         uint8                                     to move: 0 gold, 1 silver
//	board        fixed_size_list<uint64>[12]               piece bitboards, engine order
//	features     fixed_size_list<float32>[F]               feature vector, side to move's view
//	move         utf8                                      the move played, standard notation
//	root_value   float32                                   search value for the side to move
//	visits       uint32                                    root visits spent
//	policy       list<struct<move: utf8, visits: uint32>>  most-visited complete moves
//	result       int8                                      +1 win, -1 loss, 0 unfinished (side to move)
//	plies_left   uint16                                    plies (rows) until the game ended, 1 on the last
//	termination  dictionary<int8, utf8>                    how the game ended (see Terminations)
//	full_search  bool                                      false for cheap searches (playout cap)
//
// The board's bitboards are Gold's rabbit, cat, dog, horse, camel and elephant,
// then Silver's; bit i of each stands for square i, a1 = 0, b1 = 1, ..., h1 = 7,
// a2 = 8, ..., h8 = 63 (engine.Square). A turn holds a move of each side (12g
// and 12s are turn 12); a ply is one side's move, one row.
//
// The schema metadata holds the feature names and version, the weights'
// generation and hash, the search settings (JSON), the engine version, the run
// seed, the shard number and the format version; see Meta.
package data

import (
	"github.com/apache/arrow/go/v15/arrow"
)

// Format is the value of the "arimaalab.format" metadata key written by this
// package; Open rejects files of any other format.
const Format = "1"

// The schema metadata keys (string values).
const (
	KeyFeatureNames      = "arimaalab.feature_names" // comma-joined
	KeyFeatureVersion    = "arimaalab.feature_version"
	KeyWeightsGeneration = "arimaalab.weights_generation" // decimal
	KeyWeightsHash       = "arimaalab.weights_hash"
	KeySearch            = "arimaalab.search" // JSON of the search settings
	KeyEngineVersion     = "arimaalab.engine_version"
	KeyRunSeed           = "arimaalab.run_seed" // decimal
	KeyShard             = "arimaalab.shard"    // decimal
	KeyFormat            = "arimaalab.format"   // Format
)

// reservedKey reports whether k is one of the keys this package writes itself.
func reservedKey(k string) bool {
	switch k {
	case KeyFeatureNames, KeyFeatureVersion, KeyWeightsGeneration, KeyWeightsHash,
		KeySearch, KeyEngineVersion, KeyRunSeed, KeyShard, KeyFormat:
		return true
	}
	return false
}

// The column indices of the schema, in order.
const (
	ColGameID = iota
	ColTurn
	ColSide
	ColBoard
	ColFeatures
	ColMove
	ColRootValue
	ColVisits
	ColPolicy
	ColResult
	ColPliesLeft
	ColTermination
	ColFullSearch
	NumCols
)

// BoardLen is the number of piece bitboards in a row's board.
const BoardLen = 12

// numTerminations is the size of the termination dictionary.
const numTerminations = 10

// terminations returns the termination dictionary: the names of
// engine.Termination in its order, so that a termination's dictionary index is
// its engine value.
func terminations() [numTerminations]string {
	return [numTerminations]string{"not-over", "goal", "elimination", "immobilization", "repetition", "resignation", "time", "illegal-move", "max-turns", "other"}
}

// Terminations returns the values a row's termination may take, in the order of
// the termination dictionary of every file (the names of engine.Termination, in
// its order). Self-play games end by goal, elimination, immobilization,
// repetition or max-turns.
func Terminations() []string {
	t := terminations()
	return t[:]
}

// terminationIndex returns the dictionary index of the termination name s, or -1.
func terminationIndex(s string) int {
	for i, t := range terminations() {
		if t == s {
			return i
		}
	}
	return -1
}

// policyType returns the type of a policy entry.
func policyType() *arrow.StructType {
	return arrow.StructOf(
		arrow.Field{Name: "move", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "visits", Type: arrow.PrimitiveTypes.Uint32},
	)
}

// terminationType returns the type of the termination column.
func terminationType() *arrow.DictionaryType {
	return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
}

// Schema returns the dataset schema for a feature vector of len(featureNames)
// elements, without metadata. The list fields (board, features, policy) are
// nullable, as pqarrow needs to write them as Parquet, but never hold nulls; the
// other fields are not nullable.
func Schema(featureNames []string) *arrow.Schema {
	return arrow.NewSchema(fields(len(featureNames)), nil)
}

// fields returns the schema's fields for nfeat features.
func fields(nfeat int) []arrow.Field {
	return []arrow.Field{
		{Name: "game_id", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "turn", Type: arrow.PrimitiveTypes.Uint16},
		{Name: "side", Type: arrow.PrimitiveTypes.Uint8},
		{Name: "board", Type: arrow.FixedSizeListOf(BoardLen, arrow.PrimitiveTypes.Uint64), Nullable: true},
		{Name: "features", Type: arrow.FixedSizeListOf(int32(nfeat), arrow.PrimitiveTypes.Float32), Nullable: true},
		{Name: "move", Type: arrow.BinaryTypes.String},
		{Name: "root_value", Type: arrow.PrimitiveTypes.Float32},
		{Name: "visits", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "policy", Type: arrow.ListOf(policyType()), Nullable: true},
		{Name: "result", Type: arrow.PrimitiveTypes.Int8},
		{Name: "plies_left", Type: arrow.PrimitiveTypes.Uint16},
		{Name: "termination", Type: terminationType()},
		{Name: "full_search", Type: arrow.FixedWidthTypes.Boolean},
	}
}
