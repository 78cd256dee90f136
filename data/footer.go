package data

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"
)

// arrowMagic opens and closes an Arrow IPC file.
const arrowMagic = "ARROW1"

// The limits on what a file's message headers may ask a reader to allocate,
// checked before arrow/ipc decodes anything (it allocates what the headers
// say, so a damaged length would otherwise be an out-of-memory crash).
const (
	// minBatchBytes is the fewest body bytes a record batch has per row (a
	// real row takes some 90 bytes compressed): a batch claiming more rows than
	// its body has bytes is damaged.
	minBatchBytes = 1
	// maxInflate bounds the decompressed size of a batch's buffers, together,
	// at maxInflate times the size of its body or inflateFloor, whichever is
	// larger (LZ4 inflates at most 255 times; real batches some 6 times).
	maxInflate   = 256
	inflateFloor = 64 << 20
)

// block is a message of an Arrow IPC file, located by the file's footer.
type block struct {
	offset, metaLen, bodyLen int64
	rows                     int64 // the rows of a record batch
}

// layout reads the Arrow IPC file b's footer and the headers of its record
// batch and dictionary messages (flatbuffers, per the Arrow format's File.fbs
// and Message.fbs) without decoding any data, checks that every message and
// every buffer lies within the file and that no buffer inflates beyond the
// limits above, and returns the number of rows of each record batch, which
// ipc.FileReader does not expose.
func layout(b []byte) (lens []int64, err error) {
	defer func() {
		if v := recover(); v != nil { // flatbuffers indexes without bounds checks of its own
			lens, err = nil, fmt.Errorf("damaged footer (%v)", v)
		}
	}()
	tail := len(arrowMagic) + 4
	if len(b) < 8+tail || !bytes.Equal(b[len(b)-len(arrowMagic):], []byte(arrowMagic)) {
		return nil, errors.New("no footer")
	}
	size := int64(binary.LittleEndian.Uint32(b[len(b)-tail:]))
	start := int64(len(b)-tail) - size
	if size <= 0 || start < 8 {
		return nil, errors.New("damaged footer: bad footer length")
	}
	footer := b[start:int64(len(b)-tail)]
	if len(footer) < 8 {
		return nil, errors.New("damaged footer: too short")
	}
	ft := flatbuffers.Table{Bytes: footer, Pos: flatbuffers.GetUOffsetT(footer)}
	blocks := func(field flatbuffers.VOffsetT, what string) ([]block, error) {
		o := flatbuffers.UOffsetT(ft.Offset(field))
		if o == 0 {
			return nil, nil
		}
		vec, n := ft.Vector(o), ft.VectorLen(o)
		const blockSize = 24 // struct Block { offset: long; metaDataLength: int; bodyLength: long }
		if int64(vec)+int64(n)*blockSize > int64(len(footer)) {
			return nil, fmt.Errorf("damaged footer: %d %s blocks do not fit", n, what)
		}
		out := make([]block, n)
		for i := range out {
			t := flatbuffers.Table{Bytes: footer, Pos: vec + flatbuffers.UOffsetT(i*blockSize)}
			blk := block{offset: t.GetInt64(t.Pos), metaLen: int64(t.GetInt32(t.Pos + 8)), bodyLen: t.GetInt64(t.Pos + 16)}
			if blk.offset < 8 || blk.metaLen < 8 || blk.bodyLen < 0 || blk.offset > start || blk.metaLen > start ||
				blk.bodyLen > start || blk.offset+blk.metaLen+blk.bodyLen > start {
				return nil, fmt.Errorf("%s %d: bad block (outside the file)", what, i)
			}
			out[i] = blk
		}
		return out, nil
	}
	if o := flatbuffers.UOffsetT(ft.Offset(6)); o != 0 { // Footer.schema
		nodes := 0
		if err := checkSchema(flatbuffers.Table{Bytes: footer, Pos: ft.Indirect(ft.Pos + o)}, &nodes); err != nil {
			return nil, fmt.Errorf("damaged footer: schema: %w", err)
		}
	}
	dicts, err := blocks(8, "dictionary batch") // Footer.dictionaries
	if err != nil {
		return nil, err
	}
	batches, err := blocks(10, "record batch") // Footer.recordBatches
	if err != nil {
		return nil, err
	}
	for i, blk := range dicts {
		if _, err := checkMessage(b, blk, true); err != nil {
			return nil, fmt.Errorf("dictionary batch %d: %w", i, err)
		}
	}
	lens = make([]int64, len(batches))
	for i, blk := range batches {
		if lens[i], err = checkMessage(b, blk, false); err != nil {
			return nil, fmt.Errorf("record batch %d: %w", i, err)
		}
	}
	return lens, nil
}

// checkMessage checks the message of the file b at blk: a record batch (or a
// dictionary batch when dict) whose buffers lie within its body and inflate
// within the limits. It returns the batch's rows.
func checkMessage(b []byte, blk block, dict bool) (int64, error) {
	msg := b[blk.offset : blk.offset+blk.metaLen]
	if binary.LittleEndian.Uint32(msg) == 0xFFFFFFFF { // continuation marker, then the length
		msg = msg[8:]
	} else { // before Arrow 0.15: the length alone
		msg = msg[4:]
	}
	if len(msg) < 8 {
		return 0, errors.New("message too short")
	}
	mt := flatbuffers.Table{Bytes: msg, Pos: flatbuffers.GetUOffsetT(msg)}
	const dictionaryBatchHeader, recordBatchHeader = 2, 3 // MessageHeader
	want := byte(recordBatchHeader)
	if dict {
		want = dictionaryBatchHeader
	}
	if o := flatbuffers.UOffsetT(mt.Offset(6)); o == 0 || mt.GetByte(mt.Pos+o) != want { // Message.header_type
		return 0, errors.New("not the message the footer says")
	}
	o := flatbuffers.UOffsetT(mt.Offset(8)) // Message.header
	if o == 0 {
		return 0, errors.New("no header")
	}
	var rb flatbuffers.Table
	mt.Union(&rb, o)
	if dict { // DictionaryBatch { id: long; data: RecordBatch; isDelta: bool }
		o := flatbuffers.UOffsetT(rb.Offset(6))
		if o == 0 {
			return 0, errors.New("no data")
		}
		rb = flatbuffers.Table{Bytes: rb.Bytes, Pos: rb.Indirect(rb.Pos + o)}
	}
	// RecordBatch { length: long; nodes: [FieldNode]; buffers: [Buffer]; compression: BodyCompression }
	var rows int64
	if o := flatbuffers.UOffsetT(rb.Offset(4)); o != 0 {
		rows = rb.GetInt64(rb.Pos + o)
	}
	if rows < 0 || rows > blk.bodyLen/minBatchBytes {
		return 0, fmt.Errorf("%d rows in a body of %d bytes", rows, blk.bodyLen)
	}
	if o := flatbuffers.UOffsetT(rb.Offset(6)); o != 0 {
		vec, n := rb.Vector(o), rb.VectorLen(o)
		if int64(vec)+int64(n)*16 > int64(len(rb.Bytes)) {
			return 0, errors.New("damaged header: field nodes do not fit")
		}
		for k := range n {
			p := vec + flatbuffers.UOffsetT(k*16)
			length, nulls := rb.GetInt64(p), rb.GetInt64(p+8)
			if length < 0 || nulls < 0 || nulls > length {
				return 0, fmt.Errorf("field node %d: length %d, nulls %d", k, length, nulls)
			}
		}
	}
	compressed := rb.Offset(10) != 0
	body := b[blk.offset+blk.metaLen : blk.offset+blk.metaLen+blk.bodyLen]
	var inflated int64
	if o := flatbuffers.UOffsetT(rb.Offset(8)); o != 0 {
		vec, n := rb.Vector(o), rb.VectorLen(o)
		if int64(vec)+int64(n)*16 > int64(len(rb.Bytes)) {
			return 0, errors.New("damaged header: buffers do not fit")
		}
		for k := range n {
			p := vec + flatbuffers.UOffsetT(k*16)
			off, length := rb.GetInt64(p), rb.GetInt64(p+8)
			if off < 0 || length < 0 || off > blk.bodyLen || length > blk.bodyLen-off {
				return 0, fmt.Errorf("buffer %d: bytes %d to %d+%d, outside the body of %d bytes", k, off, off, length, blk.bodyLen)
			}
			size := length
			if compressed && length > 0 {
				if length < 8 {
					return 0, fmt.Errorf("buffer %d: compressed in %d bytes, no room for its length", k, length)
				}
				if n := int64(binary.LittleEndian.Uint64(body[off:])); n != -1 {
					if n < 0 {
						return 0, fmt.Errorf("buffer %d: uncompressed length %d", k, n)
					}
					size = n
				}
			}
			if limit := max(inflateFloor, maxInflate*blk.bodyLen); size > limit-inflated {
				return 0, fmt.Errorf("buffers inflate to more than %d bytes from a body of %d", limit, blk.bodyLen)
			}
			inflated += size
		}
	}
	return rows, nil
}

// maxSchemaNodes bounds the fields and metadata entries of a schema (the
// dataset's has 20 fields and some 12 metadata entries).
const maxSchemaNodes = 4096

// checkTables checks that the vector of tables (or strings) at field of t
// fits in t's bytes, and returns its elements' positions.
func checkTables(t flatbuffers.Table, field flatbuffers.VOffsetT, nodes *int) ([]flatbuffers.UOffsetT, error) {
	o := flatbuffers.UOffsetT(t.Offset(field))
	if o == 0 {
		return nil, nil
	}
	vec, n := t.Vector(o), t.VectorLen(o)
	if int64(vec)+int64(n)*4 > int64(len(t.Bytes)) {
		return nil, fmt.Errorf("a vector of %d entries does not fit", n)
	}
	if *nodes += n; *nodes > maxSchemaNodes {
		return nil, fmt.Errorf("more than %d fields and metadata entries", maxSchemaNodes)
	}
	out := make([]flatbuffers.UOffsetT, n)
	for i := range out {
		out[i] = t.Indirect(vec + flatbuffers.UOffsetT(i*4))
		if int(out[i]) >= len(t.Bytes) {
			return nil, errors.New("an entry outside the footer")
		}
	}
	return out, nil
}

// checkString checks that the string at field of t fits in t's bytes.
func checkString(t flatbuffers.Table, field flatbuffers.VOffsetT) error {
	if o := flatbuffers.UOffsetT(t.Offset(field)); o != 0 {
		start := t.Indirect(t.Pos + o)
		if int64(start)+4+int64(flatbuffers.GetUint32(t.Bytes[start:])) > int64(len(t.Bytes)) {
			return errors.New("a string does not fit")
		}
	}
	return nil
}

// checkMetadata checks the custom_metadata vector of key-value tables at
// field of t.
func checkMetadata(t flatbuffers.Table, field flatbuffers.VOffsetT, nodes *int) error {
	kvs, err := checkTables(t, field, nodes)
	if err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	for _, pos := range kvs {
		kv := flatbuffers.Table{Bytes: t.Bytes, Pos: pos}
		for _, f := range []flatbuffers.VOffsetT{4, 6} { // KeyValue { key; value }
			if err := checkString(kv, f); err != nil {
				return fmt.Errorf("metadata: %w", err)
			}
		}
	}
	return nil
}

// checkSchema checks that every vector and string of a Schema flatbuffer
// (Schema.fbs: fields, their names, children and metadata) lies within its
// bytes, as arrow/ipc allocates what their lengths say before reading them.
func checkSchema(t flatbuffers.Table, nodes *int) error {
	fields, err := checkTables(t, 6, nodes) // Schema.fields
	if err != nil {
		return err
	}
	if err := checkMetadata(t, 8, nodes); err != nil { // Schema.custom_metadata
		return err
	}
	var field func(pos flatbuffers.UOffsetT, depth int) error
	field = func(pos flatbuffers.UOffsetT, depth int) error {
		if depth > 32 {
			return errors.New("fields nested too deep")
		}
		f := flatbuffers.Table{Bytes: t.Bytes, Pos: pos}
		if err := checkString(f, 4); err != nil { // Field.name
			return err
		}
		if err := checkMetadata(f, 16, nodes); err != nil { // Field.custom_metadata
			return err
		}
		children, err := checkTables(f, 14, nodes) // Field.children
		if err != nil {
			return err
		}
		for _, c := range children {
			if err := field(c, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, pos := range fields {
		if err := field(pos, 0); err != nil {
			return err
		}
	}
	return nil
}
