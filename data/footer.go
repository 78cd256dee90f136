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

// batchLengths returns the number of rows of each record batch of the Arrow
// IPC file b, read from the file's footer and the batches' message headers
// (flatbuffers, per the Arrow format's File.fbs and Message.fbs) without
// touching the batches' data. ipc.FileReader does not expose these counts.
func batchLengths(b []byte) (lens []int64, err error) {
	defer func() {
		if recover() != nil { // flatbuffers indexes without bounds checks of its own
			lens, err = nil, errors.New("damaged footer")
		}
	}()
	tail := len(arrowMagic) + 4
	if len(b) < len(arrowMagic)+tail || !bytes.Equal(b[len(b)-len(arrowMagic):], []byte(arrowMagic)) {
		return nil, errors.New("no footer")
	}
	size := int(binary.LittleEndian.Uint32(b[len(b)-tail:]))
	start := len(b) - tail - size
	if size <= 0 || start < len(arrowMagic) {
		return nil, errors.New("damaged footer")
	}
	footer := b[start : len(b)-tail]
	ft := flatbuffers.Table{Bytes: footer, Pos: flatbuffers.GetUOffsetT(footer)}
	o := flatbuffers.UOffsetT(ft.Offset(10)) // Footer.recordBatches: [Block]
	if o == 0 {
		return nil, nil
	}
	vec, n := ft.Vector(o), ft.VectorLen(o)
	lens = make([]int64, n)
	for i := range lens {
		const blockSize = 24 // struct Block { offset: long; metaDataLength: int; bodyLength: long }
		blk := flatbuffers.Table{Bytes: footer, Pos: vec + flatbuffers.UOffsetT(i*blockSize)}
		off, metaLen := blk.GetInt64(blk.Pos), int64(blk.GetInt32(blk.Pos+8))
		if off < 0 || metaLen < 8 || off+metaLen > int64(start) {
			return nil, fmt.Errorf("record batch %d: bad block", i)
		}
		msg := b[off : off+metaLen]
		if binary.LittleEndian.Uint32(msg) == 0xFFFFFFFF { // continuation marker, then the length
			msg = msg[8:]
		} else { // before Arrow 0.15: the length alone
			msg = msg[4:]
		}
		mt := flatbuffers.Table{Bytes: msg, Pos: flatbuffers.GetUOffsetT(msg)}
		const recordBatchHeader = 3 // MessageHeader.RecordBatch
		if o := flatbuffers.UOffsetT(mt.Offset(6)); o == 0 || mt.GetByte(mt.Pos+o) != recordBatchHeader {
			return nil, fmt.Errorf("record batch %d: not a record batch message", i)
		}
		o := flatbuffers.UOffsetT(mt.Offset(8)) // Message.header
		if o == 0 {
			return nil, fmt.Errorf("record batch %d: no header", i)
		}
		var rb flatbuffers.Table
		mt.Union(&rb, o)
		if o := flatbuffers.UOffsetT(rb.Offset(4)); o != 0 { // RecordBatch.length
			lens[i] = rb.GetInt64(rb.Pos + o)
		}
		if lens[i] < 0 {
			return nil, fmt.Errorf("record batch %d: negative length", i)
		}
	}
	return lens, nil
}
