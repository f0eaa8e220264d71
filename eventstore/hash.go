package eventstore

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
)

// Hash is the chain hash of one event: the lower-case hex SHA-256 of five
// fields, each written as its 4-byte big-endian length followed by its bytes:
//
//	prevHash (the previous event's hash in global order as hex ASCII, empty for
//	the first event), stream, version (decimal ASCII), type, data.
//
// Each event so commits to every event before it: a changed, removed,
// inserted or reordered event breaks the chain from that point on.
func Hash(prevHash, stream string, version int, typ string, data []byte) string {
	h := sha256.New()
	var n [4]byte
	field := func(b []byte) {
		binary.BigEndian.PutUint32(n[:], uint32(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field([]byte(prevHash))
	field([]byte(stream))
	field([]byte(strconv.Itoa(version)))
	field([]byte(typ))
	field(data)
	return hex.EncodeToString(h.Sum(nil))
}

// Hasher computes Hash, reusing its buffer from one event to the next: the
// writer of a store hashes every event it appends. The zero value is ready;
// a Hasher is not safe for concurrent use.
type Hasher struct {
	buf []byte
}

// Sum is Hash(prevHash, stream, version, typ, data).
func (h *Hasher) Sum(prevHash, stream string, version int, typ string, data []byte) string {
	b := h.buf[:0]
	b = appendField(b, prevHash)
	b = appendField(b, stream)
	var num [20]byte
	b = appendField(b, string(strconv.AppendInt(num[:0], int64(version), 10)))
	b = appendField(b, typ)
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	b = append(b, data...)
	h.buf = b
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func appendField(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}
