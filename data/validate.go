package data

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// ValidateRecord checks a record batch of the dataset schema completely, so
// that no use of its columns can go out of bounds: every column's length, no
// nulls, every buffer's size, the offsets of the strings and lists (within
// their data, never decreasing), valid UTF-8, the termination dictionary (that
// of Terminations) and its indices, and the range of every value:
//
//	turn >= 2, side in {0, 1}, result in {-1, 0, 1} (0 exactly when the
//	termination is not-over or max-turns), root_value in [-1, 1],
//	plies_left >= 1, every feature finite.
//
// Every batch a Reader returns has passed it. Errors name the row and the
// column.
func ValidateRecord(rec arrow.Record) error { return validateRecord(rec, 0) }

// validateRecord is ValidateRecord for a record whose first row is row first
// of its file, as errors number the rows.
func validateRecord(rec arrow.Record, first int64) (err error) {
	defer func() {
		if v := recover(); v != nil { // a last resort: arrow accessors on damaged arrays
			err = fmt.Errorf("damaged record batch: %v", v)
		}
	}()
	sc := rec.Schema()
	if sc.NumFields() != NumCols || int(rec.NumCols()) != NumCols {
		return fmt.Errorf("record has %d columns, want %d", sc.NumFields(), NumCols)
	}
	ft, ok := sc.Field(ColFeatures).Type.(*arrow.FixedSizeListType)
	if !ok || !sameFields(sc, arrow.NewSchema(fields(int(ft.Len())), nil), false) {
		return fmt.Errorf("record is not of the dataset schema: %v", sc)
	}
	n := int(rec.NumRows())
	if n < 0 {
		return fmt.Errorf("%d rows", n)
	}
	for i, col := range rec.Columns() {
		if col.Len() != n {
			return fmt.Errorf("column %s: %d values for %d rows", sc.Field(i).Name, col.Len(), n)
		}
		if col.NullN() != 0 {
			return fmt.Errorf("column %s: %d nulls", sc.Field(i).Name, col.NullN())
		}
	}
	bad := func(col, row int, format string, a ...any) error {
		return fmt.Errorf("row %d: %s %s", first+int64(row), sc.Field(col).Name, fmt.Sprintf(format, a...))
	}
	short := func(col int, what string, have, want int) error {
		return fmt.Errorf("column %s: %d %s, want %d", sc.Field(col).Name, have, what, want)
	}

	// Fixed-width columns: their values, sliced to the rows.
	gameID := rec.Column(ColGameID).(*array.Uint64).Uint64Values()
	turn := rec.Column(ColTurn).(*array.Uint16).Uint16Values()
	side := rec.Column(ColSide).(*array.Uint8).Uint8Values()
	rootValue := rec.Column(ColRootValue).(*array.Float32).Float32Values()
	visits := rec.Column(ColVisits).(*array.Uint32).Uint32Values()
	result := rec.Column(ColResult).(*array.Int8).Int8Values()
	pliesLeft := rec.Column(ColPliesLeft).(*array.Uint16).Uint16Values()
	for _, c := range []struct {
		col, len int
	}{{ColGameID, len(gameID)}, {ColTurn, len(turn)}, {ColSide, len(side)}, {ColRootValue, len(rootValue)},
		{ColVisits, len(visits)}, {ColResult, len(result)}, {ColPliesLeft, len(pliesLeft)}} {
		if c.len != n {
			return short(c.col, "values", c.len, n)
		}
	}
	full := rec.Column(ColFullSearch).(*array.Boolean)
	if bits := full.Data().Buffers()[1]; n > 0 && (bits == nil || bits.Len()*8 < full.Data().Offset()+n) {
		return short(ColFullSearch, "bits", 0, n)
	}

	// Fixed-size lists: the child values of the rows.
	for _, c := range []struct {
		col, width int
	}{{ColBoard, BoardLen}, {ColFeatures, int(ft.Len())}} {
		l := rec.Column(c.col).(*array.FixedSizeList)
		start := int64(l.Data().Offset()) * int64(c.width)
		end := start + int64(n)*int64(c.width)
		child := l.ListValues()
		if child.NullN() != 0 {
			return fmt.Errorf("column %s: %d null values", sc.Field(c.col).Name, child.NullN())
		}
		var have int
		switch v := child.(type) {
		case *array.Uint64:
			have = len(v.Uint64Values())
		case *array.Float32:
			have = len(v.Float32Values())
			if k := firstNonFinite(v.Float32Values()[start:min(end, int64(have))]); k >= 0 {
				x := v.Float32Values()[start+int64(k)]
				name := ""
				if names := featureNames(sc); k%c.width < len(names) {
					name = " (" + names[k%c.width] + ")"
				}
				return bad(c.col, k/c.width, "%d%s is %v", k%c.width, name, x)
			}
		}
		if int64(have) < end || int64(child.Len()) < end {
			return short(c.col, "values", have, int(end))
		}
	}

	// Strings and lists: offsets within their data.
	if err := checkStrings(rec.Column(ColMove).(*array.String)); err != nil {
		return fmt.Errorf("column move: %w", err)
	}
	policy := rec.Column(ColPolicy).(*array.List)
	entries := policy.ListValues().(*array.Struct)
	if entries.NullN() != 0 {
		return fmt.Errorf("column policy: %d null entries", entries.NullN())
	}
	if err := checkOffsets(policy.Offsets(), policy.Data().Offset(), n, entries.Len()); err != nil {
		return fmt.Errorf("column policy: %w", err)
	}
	pm, ok1 := entries.Field(0).(*array.String)
	pv, ok2 := entries.Field(1).(*array.Uint32)
	if !ok1 || !ok2 || pm.Len() != entries.Len() || pv.Len() != entries.Len() || len(pv.Uint32Values()) != entries.Len() ||
		pm.NullN() != 0 || pv.NullN() != 0 {
		return fmt.Errorf("column policy: entry fields do not match its %d entries", entries.Len())
	}
	if err := checkStrings(pm); err != nil {
		return fmt.Errorf("column policy: move: %w", err)
	}

	// The termination dictionary and its indices.
	term := rec.Column(ColTermination).(*array.Dictionary)
	dict, ok := term.Dictionary().(*array.String)
	if !ok || dict.NullN() != 0 {
		return fmt.Errorf("column termination: the dictionary is not of strings without nulls")
	}
	if err := checkStrings(dict); err != nil {
		return fmt.Errorf("column termination: dictionary: %w", err)
	}
	want := terminations()
	if dict.Len() != len(want) {
		return fmt.Errorf("column termination: %d dictionary values, want %d", dict.Len(), len(want))
	}
	for k, t := range want {
		if dict.Value(k) != t {
			return fmt.Errorf("column termination: dictionary value %d is %q, want %q", k, dict.Value(k), t)
		}
	}
	idx := term.Indices().(*array.Int8).Int8Values()
	if len(idx) != n {
		return short(ColTermination, "indices", len(idx), n)
	}

	// Value ranges.
	notOver, maxTurns := int8(terminationIndex("not-over")), int8(terminationIndex("max-turns"))
	for i := range n {
		switch {
		case turn[i] < 2:
			return bad(ColTurn, i, "%d: want 2 or more", turn[i])
		case side[i] > 1:
			return bad(ColSide, i, "%d: want 0 or 1", side[i])
		case !(rootValue[i] >= -1 && rootValue[i] <= 1):
			return bad(ColRootValue, i, "%v: want -1 to 1", rootValue[i])
		case result[i] < -1 || result[i] > 1:
			return bad(ColResult, i, "%d: want -1, 0 or 1", result[i])
		case pliesLeft[i] < 1:
			return bad(ColPliesLeft, i, "%d: want 1 or more", pliesLeft[i])
		case idx[i] < 0 || int(idx[i]) >= len(want):
			return bad(ColTermination, i, "index %d: want 0 to %d", idx[i], len(want)-1)
		case (result[i] == 0) != (idx[i] == notOver || idx[i] == maxTurns):
			return bad(ColResult, i, "%d with termination %s", result[i], want[idx[i]])
		}
	}
	return nil
}

// featureNames returns the feature names of the schema's metadata, if any.
func featureNames(sc *arrow.Schema) []string {
	md := sc.Metadata()
	if i := md.FindKey(KeyFeatureNames); i >= 0 {
		return strings.Split(md.Values()[i], ",")
	}
	return nil
}

// checkOffsets checks the n+1 offsets of a list or string array of offset
// off: within [0, size] and never decreasing.
func checkOffsets(offsets []int32, off, n, size int) error {
	if off < 0 || len(offsets) < off+n+1 {
		if n == 0 && len(offsets) == 0 {
			return nil // an empty array may have no offsets at all
		}
		return fmt.Errorf("%d offsets for %d values from %d", len(offsets), n, off)
	}
	o := offsets[off : off+n+1]
	if o[0] < 0 {
		return fmt.Errorf("offset %d is negative", o[0])
	}
	for i := 1; i < len(o); i++ {
		if o[i] < o[i-1] {
			return fmt.Errorf("row %d: offsets decrease (%d, then %d)", i-1, o[i-1], o[i])
		}
	}
	if int(o[n]) > size {
		return fmt.Errorf("offsets reach %d, beyond the %d values", o[n], size)
	}
	return nil
}

// checkStrings checks the offsets of a string array against its data, and
// that the data is UTF-8.
func checkStrings(s *array.String) error {
	d := s.Data()
	var data []byte
	if bufs := d.Buffers(); len(bufs) > 2 && bufs[2] != nil {
		data = bufs[2].Bytes()
	}
	offsets := s.ValueOffsets() // sliced to the array's values, when there are any
	if s.Len() == 0 {
		return nil
	}
	if err := checkOffsets(offsets, 0, s.Len(), len(data)); err != nil {
		return err
	}
	if !utf8.Valid(data[offsets[0]:offsets[s.Len()]]) {
		return fmt.Errorf("not UTF-8")
	}
	return nil
}

// firstNonFinite returns the index of the first NaN or infinity of xs, or
// -1. It reads the exponent bits (all ones for both), which is several times
// faster than math.IsInf and a comparison on the features of every row read.
func firstNonFinite(xs []float32) int {
	const exp = 0x7f800000
	for i, x := range xs {
		if math.Float32bits(x)&exp == exp {
			return i
		}
	}
	return -1
}
