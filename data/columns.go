package data

import (
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// Columns gives typed access to the columns of a record batch of the dataset
// schema: plain slices for the fixed-width columns (views of the record's
// memory, valid while the record is) and arrays for the others.
type Columns struct {
	Len         int // rows
	NumFeatures int // features per row

	GameID    []uint64
	Turn      []uint16
	Side      []uint8
	Board     []uint64  // BoardLen per row: row i is Board[i*BoardLen : (i+1)*BoardLen]
	Features  []float32 // NumFeatures per row: row i is Features[i*NumFeatures : (i+1)*NumFeatures]
	Move      *array.String
	RootValue []float32
	Visits    []uint32
	// The policy entries of row i are PolicyMove.Value(k) and PolicyVisits[k]
	// for k in [PolicyOffsets[i], PolicyOffsets[i+1]).
	PolicyOffsets []int32
	PolicyMove    *array.String
	PolicyVisits  []uint32
	Result        []int8
	PliesLeft     []uint16
	// Termination holds the dictionary indices of the rows' terminations, and
	// TerminationDict the dictionary (see TerminationOf).
	Termination     []int8
	TerminationDict *array.String
	FullSearch      *array.Boolean
}

// ColumnsOf returns typed access to the columns of rec, which must have the
// dataset schema (as every record of a Reader has).
func ColumnsOf(rec arrow.Record) (*Columns, error) {
	sc := rec.Schema()
	if sc.NumFields() != NumCols {
		return nil, fmt.Errorf("record has %d columns, want %d", sc.NumFields(), NumCols)
	}
	ft, ok := sc.Field(ColFeatures).Type.(*arrow.FixedSizeListType)
	if !ok || !sameFields(sc, arrow.NewSchema(fields(int(ft.Len())), nil), false) {
		return nil, fmt.Errorf("record is not of the dataset schema: %v", sc)
	}
	// The types are known now: the assertions cannot fail.
	c := &Columns{Len: int(rec.NumRows()), NumFeatures: int(ft.Len())}
	c.GameID = rec.Column(ColGameID).(*array.Uint64).Uint64Values()
	c.Turn = rec.Column(ColTurn).(*array.Uint16).Uint16Values()
	c.Side = rec.Column(ColSide).(*array.Uint8).Uint8Values()
	board := rec.Column(ColBoard).(*array.FixedSizeList)
	feats := rec.Column(ColFeatures).(*array.FixedSizeList)
	if c.Len > 0 {
		start, _ := board.ValueOffsets(0)
		c.Board = board.ListValues().(*array.Uint64).Uint64Values()[start : start+int64(c.Len*BoardLen)]
		start, _ = feats.ValueOffsets(0)
		c.Features = feats.ListValues().(*array.Float32).Float32Values()[start : start+int64(c.Len*c.NumFeatures)]
	}
	c.Move = rec.Column(ColMove).(*array.String)
	c.RootValue = rec.Column(ColRootValue).(*array.Float32).Float32Values()
	c.Visits = rec.Column(ColVisits).(*array.Uint32).Uint32Values()
	policy := rec.Column(ColPolicy).(*array.List)
	entries := policy.ListValues().(*array.Struct)
	// Offsets() is the whole buffer, whatever the array's offset.
	if off := policy.Data().Offset(); c.Len > 0 {
		c.PolicyOffsets = policy.Offsets()[off : off+c.Len+1]
	} else {
		c.PolicyOffsets = []int32{0}
	}
	c.PolicyMove = entries.Field(0).(*array.String)
	c.PolicyVisits = entries.Field(1).(*array.Uint32).Uint32Values()
	c.Result = rec.Column(ColResult).(*array.Int8).Int8Values()
	c.PliesLeft = rec.Column(ColPliesLeft).(*array.Uint16).Uint16Values()
	term := rec.Column(ColTermination).(*array.Dictionary)
	c.Termination = term.Indices().(*array.Int8).Int8Values()
	c.TerminationDict = term.Dictionary().(*array.String)
	for i, t := range c.Termination {
		if t < 0 || int(t) >= c.TerminationDict.Len() {
			return nil, fmt.Errorf("row %d: termination index %d out of the dictionary", i, t)
		}
	}
	c.FullSearch = rec.Column(ColFullSearch).(*array.Boolean)
	return c, nil
}

// TerminationOf returns the termination of row i.
func (c *Columns) TerminationOf(i int) string {
	return c.TerminationDict.Value(int(c.Termination[i]))
}

// Row fills r with row i, copying the strings and reusing r's slices.
func (c *Columns) Row(i int, r *Row) {
	r.GameID = c.GameID[i]
	r.Turn = c.Turn[i]
	r.Side = c.Side[i]
	copy(r.Board[:], c.Board[i*BoardLen:])
	f := c.NumFeatures
	r.Features = append(r.Features[:0], c.Features[i*f:(i+1)*f]...)
	r.Move = strings.Clone(c.Move.Value(i))
	r.RootValue = c.RootValue[i]
	r.Visits = c.Visits[i]
	r.Policy = r.Policy[:0]
	for k := c.PolicyOffsets[i]; k < c.PolicyOffsets[i+1]; k++ {
		r.Policy = append(r.Policy, PolicyEntry{strings.Clone(c.PolicyMove.Value(int(k))), c.PolicyVisits[k]})
	}
	r.Result = c.Result[i]
	r.PliesLeft = c.PliesLeft[i]
	r.Termination = strings.Clone(c.TerminationOf(i))
	r.FullSearch = c.FullSearch.Value(i)
}
